// A hint at the live table (hints.js): the cards and the button of the move it suggests,
// read from the structured move; and the replay's hints by the frame they mark (frames.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { move } from "./dom.mjs";
const { hintedButton, hintedCards, hintedKeys } = await import("../../games/live/static/live/hints.js");
const { hintsAt } = await import("../../games/static/games/frames.js");

test("a discard marks its card and the discard button", () => {
  assert.deepEqual(hintedCards(move("1 discard TS")), ["TS"]);
  assert.equal(hintedButton(move("1 discard TS")), "discard");
});

test("a draw marks no card, only its button", () => {
  assert.deepEqual(hintedCards(move("0 take")), []);
  assert.equal(hintedButton(move("0 take")), "take");
  assert.equal(hintedButton(move("0 push")), "push");
});

test("a contract marks every card of its melds, a wild by itself", () => {
  assert.deepEqual(hintedCards(move("0 contract set(7H 7S JK=7) set(QS QD QD)")),
    ["7H", "7S", "JK", "QS", "QD", "QD"]);
  assert.equal(hintedButton(move("3 meld run(4H 5H 6H)")), "lay");
});

test("a lay-off and a swap mark their cards and no button: they go through the meld", () => {
  assert.deepEqual(hintedCards(move("2 layoff 3 JK=8 9S")), ["JK", "9S"]);
  assert.equal(hintedButton(move("2 layoff 3 JK=8 9S")), null);
  assert.deepEqual(hintedCards(move("2 swap 0 7S JK")), ["7S"]);
  assert.deepEqual(hintedCards(null), []);
  assert.equal(hintedButton(null), null);
});

test("a card the move plays twice marks two copies, once each, and no more", () => {
  const keys = ["QD#0", "QD#1", "QS#0", "7H#0", "p:JK#0"];
  assert.deepEqual(hintedKeys(keys, ["QD", "QD", "QS"]), ["QD#0", "QD#1", "QS#0"]);
  assert.deepEqual(hintedKeys(keys, ["QD"]), ["QD#0"]);
  assert.deepEqual(hintedKeys(keys, ["JK"]), ["p:JK#0"]);
  assert.deepEqual(hintedKeys(keys, ["KC"]), []);
});

test("the replay finds each hint by its hand and the action it preceded", () => {
  const hints = [{ hand: 1, index: 0, seat: 2, words: "a" }, { hand: 3, index: 7, seat: 2, words: "b" }];
  const found = hintsAt(hints);
  assert.equal(found["1:0"].words, "a");
  assert.equal(found["3:7"].words, "b");
  assert.equal(found["1:-1"], undefined); // the deal is no action
  assert.deepEqual(hintsAt(undefined), {}); // a match's replay has none
});
