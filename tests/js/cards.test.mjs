// The cards and words shared by the replay and the live table (games/static/games/cards.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { fixtures, holder, move } from "./dom.mjs";
const { clockText, face, fill, splitCode, text, wordsFor } =
  await import("../../games/static/games/cards.js");

const msg = fixtures.messages;
const w = wordsFor(msg, fixtures.players);

test("text fills a template's names and leaves the unknown ones", () => {
  assert.equal(text("{n} cards", { n: 7 }), "7 cards");
  assert.equal(text("{a} and {b}", { a: 0 }), "0 and {b}");
});

test("fill puts strings and nodes in order and leaves out what is missing or empty", () => {
  const card = document.createElement("span");
  card.textContent = "7\u2665";
  const out = holder(fill("{player} takes {card}{left}.", { player: "alice", card, left: "" }));
  assert.equal(out.textContent, "alice takes 7\u2665.");
  assert.equal(out.childNodes[2], card);
  assert.equal(holder(fill("{x}", { x: null })).textContent, "");
});

test("a card code splits into rank, suit and what a wild stands for", () => {
  assert.deepEqual(splitCode("TS"), { base: "TS", rank: "T", suit: "S", as: "" });
  assert.deepEqual(splitCode("JK=7"), { base: "JK", rank: "JK", suit: "", as: "7" });
  assert.deepEqual(splitCode("2C=TS"), { base: "2C", rank: "2", suit: "C", as: "TS" });
  assert.equal(face("T", "H"), "10\u2665");
  assert.equal(face("7", ""), "7");
  assert.equal(face("JK", ""), "JK");
});

test("a card is named in words, a wild with what it stands for", () => {
  assert.equal(w.cardLabel("QS"), "queen of spades");
  assert.equal(w.cardLabel("JK"), "joker");
  assert.equal(w.cardLabel("JK=7"), "joker standing for 7");
  assert.equal(w.cardLabel("2C=TS"), "2 of clubs standing for 10 of spades");
  assert.equal(w.asName("7H"), "7 of hearts");
});

test("an inline card shows its face and carries its name", () => {
  const card = w.card("2C=TH");
  assert.equal(card.className, "card");
  assert.equal(card.textContent, "2\u2663\u219210\u2665");
  assert.equal(card.childNodes[1].className, "as red");
  assert.equal(card.getAttribute("role"), "img");
  assert.equal(card.getAttribute("aria-label"), "2 of clubs standing for 10 of hearts");
  assert.equal(w.card("KD").className, "card red");
  assert.equal(w.card("JK").className, "card joker");
});

test("a playing card is named by its holder, or by the button that holds it", () => {
  const named = w.playingCard("JK=8S", true);
  assert.equal(named.className, "pcard-holder");
  assert.equal(named.getAttribute("aria-label"), "joker standing for 8 of spades");
  const box = named.childNodes[0];
  assert.equal(box.className, "pcard joker wild");
  assert.equal(box.getAttribute("aria-hidden"), "true");
  assert.equal(box.all.find((e) => e.className === "pcard-as").textContent, "\u21928\u2660");
  const plain = w.playingCard("TD", false);
  assert.equal(plain.className, "pcard red");
  assert.equal(plain.all.find((e) => e.className === "pcard-rank").textContent, "10");
  // a 2 standing for itself is no wild
  assert.equal(w.playingCard("2D=2D", false).className, "pcard red");
});

test("counts, clocks and a hand's outcome in words", () => {
  assert.equal(w.countText(1), "1 card");
  assert.equal(w.countText(0), "0 cards");
  assert.equal(clockText(65.4), "1:05");
  assert.equal(clockText(-3), "0:00");
  assert.match(w.outcome({ out_seat: 2, scores: [0, 45] }), /^Partner goes out\. Hand score: Your team 0, Opponents 45\.$/);
  assert.equal(w.outcome({ out_seat: null, scores: [10, 20] }),
    "Nobody went out. Hand score: Your team 10, Opponents 20.");
});

test("a move's sentence values come from its structured form", () => {
  const contract = w.moveValues(move("0 contract set(7H 7S JK=7) set(QS QD QD)"));
  assert.equal(contract.player, "alice");
  assert.equal(holder(contract.melds).textContent,
    "set 7\u2665 7\u2660 JK\u21927 and set Q\u2660 Q\u2666 Q\u2666");
  const side = w.moveValues(move("0 contract set(7H 7S JK=7) set(QS QD QD)"), "");
  assert.equal(holder(side.melds).textContent, "set 7\u26657\u2660JK\u21927 and set Q\u2660Q\u2666Q\u2666");
  const layoff = w.moveValues(move("2 layoff 3 JK=8 9S"));
  assert.equal(layoff.meld, 3);
  assert.equal(holder(layoff.cards).textContent, "JK\u21928 9\u2660");
  const swap = w.moveValues(move("2 swap 0 7S JK"));
  assert.equal(swap.card.getAttribute("aria-label"), "7 of spades");
  assert.equal(swap.wild.getAttribute("aria-label"), "joker");
  assert.equal(w.moveValues(move("1 discard TS")).card.textContent, "10\u2660");
});
