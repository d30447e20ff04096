// Where things go at a live table (games/live/static/live/layout.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import "./dom.mjs";

const { changes, codeOfKey, entries, fanOverlap, isEnded, placeOf, seatOrder, sorted,
  teamsInOrder } = await import("../../games/live/static/live/layout.js");

test("the viewer sits at the bottom, then clockwise; a spectator sees seat 0 there", () => {
  assert.deepEqual(seatOrder(2), [2, 3, 0, 1]);
  assert.deepEqual(seatOrder(null), [0, 1, 2, 3]);
  assert.deepEqual([0, 1, 2, 3].map((seat) => placeOf(seat, 1)), ["right", "bottom", "left", "top"]);
  assert.equal(placeOf(2, null), "top");
  assert.deepEqual(teamsInOrder(1), [0, 1]); // the opponents' melds first
  assert.deepEqual(teamsInOrder(null), [1, 0]);
});

test("each card in hand has a key that stays while it does, copies and freed wilds apart", () => {
  const found = entries({ hand: ["7H", "JK", "7H"], pending: [["JK", 3]] });
  assert.deepEqual(found.map((e) => e.key), ["7H#0", "JK#0", "7H#1", "p:JK#0"]);
  assert.deepEqual(found.map((e) => e.pending), [false, false, false, true]);
  assert.deepEqual(found.map((e) => codeOfKey(e.key)), ["7H", "JK", "7H", "JK"]);
  assert.deepEqual(entries({}), []); // a spectator's view has no hand
});

test("the hand sorts by suit or by rank, alternating colours, wilds last", () => {
  const hand = ["2C", "KD", "TS", "JK", "AH", "3S"].map((code) => ({ code }));
  assert.deepEqual(sorted(hand, "suit").map((e) => e.code), ["3S", "TS", "AH", "KD", "2C", "JK"]);
  assert.deepEqual(sorted(hand, "rank").map((e) => e.code), ["3S", "TS", "KD", "AH", "2C", "JK"]);
});

test("a fan overlaps its cards just enough for its row", () => {
  assert.equal(fanOverlap(600, 52, 1), null);
  assert.equal(fanOverlap(0, 52, 11), null); // not laid out yet
  assert.equal(fanOverlap(1000, 52, 5), 4); // room enough: a small gap
  assert.equal(fanOverlap(300, 52, 11), -28); // (300 - 56) / 10 = 24.4 a card
});

test("what changed within a hand is marked; a new deal marks nothing", () => {
  const before = { hand_no: 1, hand: ["7H"], pending: [], melds: [{ id: 0, cards: ["4H", "5H", "6H"] }] };
  const after = { hand_no: 1, hand: ["7H", "9C"], pending: [],
    melds: [{ id: 0, cards: ["4H", "5H", "6H", "7H"] }, { id: 1, cards: ["8S", "8D", "8C"] }] };
  assert.deepEqual(changes(before, after), { melds: { 0: true, 1: true }, hand: { "9C#0": true } });
  assert.deepEqual(changes(before, { ...after, hand_no: 2 }), { melds: {}, hand: {} });
  assert.deepEqual(changes(null, after), { melds: {}, hand: {} });
});

test("a table is ended when over, abandoned or ended by the organisers", () => {
  assert.ok(isEnded({ is_over: true }));
  assert.ok(isEnded({ status: "abandoned" }));
  assert.ok(isEnded({ status: "ended" }));
  assert.ok(!isEnded({ is_over: false, status: "playing" }));
});
