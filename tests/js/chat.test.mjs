// A live table's chat (games/live/static/live/chat.js): what a mute keeps, and the name a
// line is said under.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./dom.mjs";

const { readMuted, speaker } = await import("../../games/live/static/live/chat.js");

test("the people muted are read back from storage; anything unreadable mutes nobody", () => {
  assert.deepEqual(readMuted('{"7": "ann"}'), { 7: "ann" });
  for (const saved of [null, "", "not json", "[1, 2]", "null", "5"]) {
    assert.deepEqual(readMuted(saved), {}, String(saved));
  }
});

test("a player's line is said under their seat's name, a spectator's under their own", () => {
  const players = ["Ann Smith", "Bea", "bot", "bot"];
  assert.equal(speaker({ seat: 0, name: "ann" }, players), "Ann Smith");
  assert.equal(speaker({ seat: null, name: "cid" }, players), "cid");
});
