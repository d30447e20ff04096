// What slides where after a move (games/live/static/live/motion.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import "./dom.mjs";

const { MOTION_MS, flights } = await import("../../games/live/static/live/motion.js");

const event = (seat, move, extra) => ({ hand_no: 1, seat, move: { seat, ...move }, ...extra });

test("a slide is short: at most 300 ms", () => {
  assert.ok(MOTION_MS > 0 && MOTION_MS <= 300);
});

test("a bot's take, discard and melds slide from the pile, to it and from its seat", () => {
  const turn = [event(1, { do: "take" }, { card: "7H" }),
    event(1, { do: "contract", melds: [{ kind: "set", cards: ["9S", "9D", "JK=9"] }] }),
    event(1, { do: "layoff", meld: 0, cards: ["4H"] }),
    event(1, { do: "discard", card: "KC" })];
  assert.deepEqual(flights(turn, 0, 1), [
    { card: "7H", from: "pile", to: "seat:1" },
    { card: "9S", from: "seat:1", to: "melds" },
    { card: "9D", from: "seat:1", to: "melds" },
    { card: "JK=9", from: "seat:1", to: "melds" },
    { card: "4H", from: "seat:1", to: "meld:0" },
    { card: "KC", from: "seat:1", to: "pile" }]);
  // the viewer's own cards come from and go to their hand
  assert.deepEqual(flights([event(0, { do: "discard", card: "KC" })], 0, 1),
    [{ card: "KC", from: "hand", to: "pile" }]);
  assert.deepEqual(flights([event(2, { do: "take" }, { card: "7H" })], 2, 1),
    [{ card: "7H", from: "pile", to: "hand" }]);
});

test("a push passes the discard and a stock card left, then the pusher draws (R6.3)", () => {
  const push = event(3, { do: "push" }, { card: "5D" });
  // to the viewer on the pusher's left: the stock card face up, as only they see it
  assert.deepEqual(flights([{ ...push, private: "QS" }], 0, 1), [
    { card: "5D", from: "pile", to: "hand" },
    { card: "QS", from: "stock", to: "hand" },
    { card: null, from: "stock", to: "seat:3" }]);
  assert.deepEqual(flights([push], null, 1), [ // a spectator
    { card: "5D", from: "pile", to: "seat:0" },
    { card: null, from: "stock", to: "seat:0" },
    { card: null, from: "stock", to: "seat:3" }]);
  assert.deepEqual(flights([event(3, { do: "push" }, { card: null })], 0, 1), []); // R6.4
});

test("a swap puts the natural in the meld and the wild with its taker (R7.4)", () => {
  assert.deepEqual(flights([event(0, { do: "swap", meld: 2, card: "7H", wild: "JK" })], 0, 1), [
    { card: "7H", from: "hand", to: "meld:2" },
    { card: "JK", from: "meld:2", to: "hand" }]);
});

test("only the last mover's moves of the hand in play slide", () => {
  const round = [event(1, { do: "discard", card: "2C" }), event(2, { do: "take" }, { card: "2C" }),
    event(2, { do: "discard", card: "8S" })];
  assert.deepEqual(flights(round, 0, 1), [{ card: "2C", from: "pile", to: "seat:2" },
    { card: "8S", from: "seat:2", to: "pile" }]);
  const ended = [event(2, { do: "discard", card: "8S" }, { hand_result: { scores: [0, 0] } })];
  assert.deepEqual(flights(ended, 0, 1), []); // its summary says it
  assert.deepEqual(flights([{ ...round[2], hand_no: 1 }], 0, 2), []); // the last hand's
});
