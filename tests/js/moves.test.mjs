// The live table's moves in words and its turn line (moves.js, status.js), and the
// replay's frames made whole (games/static/games/frames.js): read from the structured
// moves the server sends, never from their text.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fixtures, holder, move } from "./dom.mjs";
const { wordsFor } = await import("../../games/static/games/cards.js");
const { expand } = await import("../../games/static/games/frames.js");
const { findMove, moveWords } = await import("../../games/live/static/live/moves.js");
const { finalText, turnText } = await import("../../games/live/static/live/status.js");

const msg = fixtures.messages;
const players = fixtures.players;
const words = moveWords(msg, players, wordsFor(msg, players), [true, false, false, false]);
const said = (event) => holder(words.describeEvent(event)).textContent;

test("an event is told from its move: the card taken comes with the event", () => {
  assert.equal(said({ seat: 0, move: move("0 take"), card: "9C" }), "alice takes 9\u2663 from the discard pile.");
  assert.equal(said({ seat: 1, move: move("1 discard TS"), card: null }),
    "Left opponent discards 10\u2660.");
  assert.match(said({ seat: 2, move: move("2 layoff 3 JK=8 9S"), card: null }),
    /^Partner lays off JK\u21928 9\u2660 on meld 3/);
  assert.match(said({ seat: 2, move: move("2 swap 0 7S JK"), card: null }), /7\u2660.*meld 0.*JK/);
});

test("a push says the stock card only to the seat that got it", () => {
  const push = { seat: 0, move: move("0 push"), card: "4C" };
  assert.equal(said(push), "alice pushes: Left opponent gets 4\u2663 and a card from the stock.");
  assert.equal(said({ ...push, private: "KH" }),
    "alice pushes: Left opponent gets 4\u2663 and K\u2665 from the stock.");
});

test("a bot's move for a person says so; a hand's end tells the outcome", () => {
  const event = { seat: 0, move: move("0 take"), card: "9C", bot: true,
    hand_result: { out_seat: null, scores: [10, 20] } };
  assert.equal(said(event), "alice takes 9\u2663 from the discard pile. Nobody went out. Hand score: Your team 10, " +
    "Opponents 20. (played by a bot)");
  assert.ok(!said({ ...event, seat: 1, move: move("1 discard TS") }).includes("bot"));
});

test("a way is offered in words", () => {
  const way = (text) => holder(words.describeWay(move(text))).textContent;
  assert.equal(way("3 meld run(4H 5H 6H)"), "Lay down run 4\u2665 5\u2665 6\u2665");
  assert.match(way("0 contract set(7H 7S JK=7) set(QS QD QD)"), /^Lay down the contract: set/);
  assert.equal(way("2 layoff 3 JK=8 9S"), "Lay off JK\u21928 9\u2660 on meld 3");
  assert.equal(way("2 swap 0 7S JK"), "Put 7\u2660 into meld 0 and take out JK");
});

test("a legal move is found by its kind and card", () => {
  const moves = [move("1 discard TS"), move("0 take"), move("0 push")];
  assert.equal(findMove(moves, "take").text, "0 take");
  assert.equal(findMove(moves, "discard", "TS").text, "1 discard TS");
  assert.equal(findMove(moves, "discard", "JK"), null);
  assert.equal(findMove(undefined, "take"), null); // a view from before moves were sent
});

test("the turn line says whose turn it is and what it asks", () => {
  const view = { to_move: 0, phase: "draw", is_over: false, pending: [] };
  assert.equal(turnText(msg, players, view, true), msg.your_turn_draw);
  assert.equal(turnText(msg, players, { ...view, phase: "play" }, true), msg.your_turn_play);
  assert.equal(turnText(msg, players, view, false), "alice to move.");
  assert.match(turnText(msg, players, { ...view, phase: "play", pending: [["JK", 2]] }, true),
    /joker/);
  assert.equal(turnText(msg, players, { ...view, status: "ended" }, true), msg.table_ended);
});

test("the game's end names the winner with their total first, the lower (R9.2)", () => {
  const over = { is_over: true, totals: [290, 225] };
  assert.equal(finalText(msg, { ...over, winner: 1 }), "Opponents won the game, 225 to 290.");
  assert.equal(finalText(msg, { ...over, totals: [225, 290], winner: 0 }),
    "Your team won the game, 225 to 290.");
  assert.equal(finalText(msg, { ...over, totals: [250, 250], winner: null }),
    "Drawn game, 250 to 250.");
});

test("the replay's compact frames are made whole", () => {
  const hands = expand([{ hand: 1, dealer: 3, frames: [
    { n: -1, act: null, hands: ["7H 8H", "9C"], melds: [], top: "2D" },
    { n: 0, act: { do: "take", seat: 0, card: "2D" }, hands: ["7H 8H 2D", null], top: null },
    { n: 1, act: { do: "meld" }, hands: [null, ""], melds: [{ id: 0, cards: ["9C"] }] }] }]);
  const frames = hands[0].frames;
  assert.equal(hands[0].dealer, 3);
  assert.deepEqual(frames[1].hands, ["7H 8H 2D", "9C"]);
  assert.equal(frames[1].top, null);
  assert.deepEqual(frames[2].hands, ["7H 8H 2D", ""]);
  assert.deepEqual(frames[2].melds, [{ id: 0, cards: ["9C"] }]);
  assert.equal(frames[0].top, "2D"); // an earlier frame is left as it was
});
