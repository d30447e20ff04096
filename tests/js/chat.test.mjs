// A live table's chat and presence (games/live/static/live/chat.js, presence.js): what a
// mute keeps, the name a line is said under, and a seat silent too long.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./dom.mjs";

const { readMuted, speaker } = await import("../../games/live/static/live/chat.js");
const { stateAt } = await import("../../games/live/static/live/presence.js");

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

test("a seat shows what it was told, and gone once that is older than the limit", () => {
  assert.equal(stateAt(undefined, 1000, 25000), null);
  assert.equal(stateAt({ state: "away", at: 1000 }, 26000, 25000), "away");
  assert.equal(stateAt({ state: "connected", at: 1000 }, 26001, 25000), "gone");
});
