// Choosing among the ways a selection can be played (games/live/static/live/ways.js), on
// structured moves as the server sends them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { move } from "./dom.mjs";
const { collapse, features, HANDFUL, isWild, plan, tableKey } =
  await import("../../games/live/static/live/ways.js");

const texts = (moves) => moves.map((m) => m.text);

const SETS = [
  "2 contract set(8S 8D 8D) set(8C 2H=8 JK=8)", "2 contract set(8S 8D 8C) set(8D 2H=8 JK=8)",
  "2 contract set(8S 8D 2H=8) set(8D 8C JK=8)", "2 contract set(8S 8D JK=8) set(8D 8C 2H=8)",
  "2 contract set(8S 8C 2H=8) set(8D 8D JK=8)", "2 contract set(8S 8C JK=8) set(8D 8D 2H=8)",
  "2 contract set(8S 2H=8 JK=8) set(8D 8D 8C)"];
const RUNS = [
  "0 contract run(4H 5H 6H 2C=7H) run(9S TS 2D=JS JK=QS)",
  "0 contract run(4H 5H 6H 2C=7H) run(JK=8S 9S TS 2D=JS)",
  "0 contract run(2C=3H 4H 5H 6H) run(9S TS 2D=JS JK=QS)",
  "0 contract run(2C=3H 4H 5H 6H) run(JK=8S 9S TS 2D=JS)",
  "0 contract run(JK=3H 4H 5H 6H) run(9S TS 2D=JS 2C=QS)",
  "0 contract run(JK=3H 4H 5H 6H) run(2C=8S 9S TS 2D=JS)",
  "0 contract run(4H 5H 6H JK=7H) run(9S TS 2D=JS 2C=QS)"];

test("a wild is a joker, or a 2 standing for another card", () => {
  assert.ok(isWild("JK"));
  assert.ok(isWild("2H=8"));
  assert.ok(!isWild("2D"));
  assert.ok(!isWild("2D=2D"));
  assert.ok(!isWild("8S"));
});

test("ways that leave the same sets on the table are one (R5.2: a set's suits repeat)", () => {
  const ways = collapse(SETS.map(move));
  assert.deepEqual(texts(ways), [SETS[0], SETS[2]]); // where the 2 and the joker go
  assert.deepEqual(texts(plan(SETS.map(move), 0).choose), [SETS[0], SETS[2]]);
  assert.equal(tableKey(move(SETS[0])), tableKey(move(SETS[1])));
});

test("two wild 2s are told apart by nothing once on the table (R5.4)", () => {
  const ways = ["3 meld run(2H=3D 4D 2D=5D)", "3 meld run(2D=3D 4D 2H=5D)", "3 meld run(2D 2H=3D 4D)"];
  assert.deepEqual(texts(collapse(ways.map(move))), [ways[0], ways[2]]);
});

test("more than a handful of ways is asked one wild at a time, none lost", () => {
  const found = plan(RUNS.map(move), 0);
  assert.equal(found.choose, undefined);
  assert.equal(found.ask.about, "wild");
  assert.ok(["JK", "2C"].includes(found.ask.card));
  assert.ok(found.ask.options.length >= 2 && found.ask.options.length <= HANDFUL);
  assert.deepEqual(found.ask.options.flatMap((o) => texts(o.ways)).sort(), RUNS.slice().sort());
});

test("one way is played, a handful chosen from", () => {
  assert.equal(plan([move("2 layoff 3 JK=8 9S")], 0).play.text, "2 layoff 3 JK=8 9S");
  const two = plan([move("1 layoff 2 JK=9H"), move("1 layoff 5 JK=9H")], 0);
  assert.deepEqual(texts(two.choose), ["1 layoff 2 JK=9H", "1 layoff 5 JK=9H"]);
});

test("the meld a lay-off goes onto, and the wild a swap frees, are features", () => {
  assert.deepEqual(features(move("2 layoff 3 JK=8 9S")), { "JK#0": "8", "onto#0": "3" });
  assert.deepEqual(features(move("1 swap 4 9D 2C")), { "2C#0": "", "out#0": "2C", "onto#0": "4" });
  assert.deepEqual(features(move("3 meld run(4H 5H 6H)")), { "onto#0": "" });
});

test("ways past a handful with no question between them are paged", () => {
  // six melds a natural card may go onto: one question with six answers is too many
  const many = [7, 8, 9, 10, 11, 12].map((meld) => move(`1 layoff ${meld} 8C`));
  const first = plan(many, 0);
  assert.equal(first.ask, undefined);
  assert.equal(first.pages, 2);
  assert.deepEqual(texts(first.choose), texts(many.slice(0, HANDFUL)));
  assert.deepEqual(texts(plan(many, 1).choose), ["1 layoff 12 8C"]);
  assert.equal(plan(many, 9).page, 1); // past the last page: the last
});
