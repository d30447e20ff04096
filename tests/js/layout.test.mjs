// Where things go at a live table (games/live/static/live/layout.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import "./dom.mjs";

const { MIN_STRIP, SUMMARY_LEAST, changes, codeOfKey, entries, fanLayout, isEnded, placeOf, seatOrder, sorted,
  summaryBox, teamsInOrder } = await import("../../games/live/static/live/layout.js");

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

// the hand's row and a card's width, px: a 1280x800 laptop's and a 390x844 phone's
const SCREENS = { laptop: [775, 52], phone: [352, 46.4] };

test("a fan of 1 to 40 cards fits its row, each card showing at least 26 px to press", () => {
  for (const [name, [row, card]] of Object.entries(SCREENS)) {
    for (let n = 1; n <= 40; n++) {
      const { rows, perRow, step } = fanLayout(row, card, n);
      const at = name + ", " + n + " cards";
      assert.ok(rows * perRow >= n && (rows - 1) * perRow < n, at + ": every card, no empty row");
      assert.ok((perRow - 1) * step + card <= row, at + ": the row holds its widest line");
      assert.ok(step <= card + 4, at + ": no wider apart than a small gap");
      if (n > 1) {
        assert.ok(step >= MIN_STRIP && MIN_STRIP >= 24, at + ": " + step + " px to press");
      }
      if (rows > 1) { // no fewer rows would do
        const fewer = Math.ceil(n / (rows - 1));
        assert.ok((row - card) / (fewer - 1) < MIN_STRIP, at + ": " + rows + " rows");
      }
    }
  }
});

test("a short hand is one row with small gaps; a long one takes rows, filled evenly", () => {
  assert.deepEqual(fanLayout(775, 52, 1), { rows: 1, perRow: 1, step: 56 });
  assert.deepEqual(fanLayout(0, 52, 11), { rows: 1, perRow: 11, step: 56 }); // not laid out yet
  assert.deepEqual(fanLayout(775, 52, 8), { rows: 1, perRow: 8, step: 56 });
  assert.deepEqual(fanLayout(775, 52, 20), { rows: 1, perRow: 20, step: 38 });
  assert.deepEqual(fanLayout(775, 52, 29), { rows: 2, perRow: 15, step: 51 });
  assert.deepEqual(fanLayout(775, 52, 40), { rows: 2, perRow: 20, step: 38 });
  assert.deepEqual(fanLayout(352, 46.4, 8), { rows: 1, perRow: 8, step: 43 });
  assert.deepEqual(fanLayout(352, 46.4, 29), { rows: 3, perRow: 10, step: 33 });
  assert.deepEqual(fanLayout(352, 46.4, 40), { rows: 4, perRow: 10, step: 33 });
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

const box = (left, top, right, bottom) => ({ left, top, right, bottom });

test("a hand's summary goes over the log and scores when they are beside the felt", () => {
  const laptop = { width: 1280, height: 800 };
  const parts = { felt: box(48, 88, 844, 750), piles: box(227, 200, 665, 310),
    hand: box(54, 440, 838, 744), side: box(865, 210, 1232, 760) };
  assert.deepEqual(summaryBox(laptop, parts), { left: 865, top: 218, width: 367, height: 574 });
});

test("on a phone it goes on the felt above the hand, under the piles when there is room", () => {
  const phone = { width: 390, height: 844 };
  const parts = { felt: box(6, 0, 384, 844), piles: box(100, 120, 290, 230), side: null };
  // room under the piles: the piles stay in sight
  assert.deepEqual(summaryBox(phone, { ...parts, hand: box(12, 560, 378, 838) }),
    { left: 14, top: 238, width: 362, height: 314 });
  // too little: from the felt's top, still above the hand
  const low = summaryBox(phone, { ...parts, hand: box(12, 460, 378, 838) });
  assert.deepEqual(low, { left: 14, top: 8, width: 362, height: 444 });
  assert.ok(460 - 230 - 16 < SUMMARY_LEAST);
  // a spectator has no hand: down to the felt's foot or the screen's
  assert.deepEqual(summaryBox(phone, { ...parts, hand: null }),
    { left: 14, top: 238, width: 362, height: 598 });
  // melds a player may press (lay off, swap) stay in sight too: it goes above them
  assert.deepEqual(summaryBox(phone, { ...parts, hand: box(12, 560, 378, 838),
    melds: box(12, 236, 378, 420) }), { left: 14, top: 8, width: 362, height: 220 });
  // the side column under the felt (a phone's) is no place for it
  assert.equal(summaryBox(phone, { ...parts, hand: null, side: box(6, 850, 384, 1500) }).top, 238);
});
