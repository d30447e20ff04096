// A turn's clock at a live table (games/live/static/live/clock.js): the turn's own
// countdown and the reserve apart, and the warning of the last seconds.
import assert from "node:assert/strict";
import { test } from "node:test";

const { clockAt, WARNING_SECONDS } = await import("../../games/live/static/live/clock.js");

test("the turn's own time runs first; the reserve stands until it is gone", () => {
  assert.deepEqual(clockAt(60, 300, 0), { turn: 60, reserve: 300, warning: null });
  assert.deepEqual(clockAt(60, 300, 45), { turn: 15, reserve: 300, warning: null });
  assert.deepEqual(clockAt(60, 300, 90), { turn: 0, reserve: 270, warning: null });
  assert.deepEqual(clockAt(60, 300, 500), { turn: 0, reserve: 0, warning: null });
});

test("a table without a reserve shows none", () => {
  assert.deepEqual(clockAt(120, null, 30), { turn: 90, reserve: null, warning: null });
  assert.equal(clockAt(120, undefined, 0).reserve, null);
});

test("the last seconds of the turn, and then of the reserve, are a warning", () => {
  assert.equal(WARNING_SECONDS, 10);
  assert.equal(clockAt(60, 300, 49.9).warning, null);
  assert.equal(clockAt(60, 300, 50).warning, "turn");
  assert.equal(clockAt(60, 300, 59.5).warning, "turn");
  assert.equal(clockAt(60, 300, 60).warning, null); // the reserve's long minutes begin
  assert.equal(clockAt(60, 300, 351).warning, "reserve");
  assert.equal(clockAt(60, 0, 55).warning, "turn");
  assert.equal(clockAt(60, 0, 61).warning, null); // over: the bot plays
  assert.equal(clockAt(8, null, 0).warning, "turn");
});
