/* The replay's frames as the server sends them (games/replay.py compact_frames: a hand's
   first frame whole, each later one only what changed) made whole again. Pure: no page. */

export function expand(hands) {
  // each frame is the one before with the changes over it: "hands" by seat (null: the
  // seat's cards as they were), "melds" by id, anything else whole
  return hands.map(function (hand) {
    var frames = [];
    hand.frames.forEach(function (delta) {
      var frame = frames.length ? Object.assign({}, frames[frames.length - 1]) : {};
      Object.keys(delta).forEach(function (key) {
        var value = delta[key];
        if (frames.length && key === "hands") {
          value = value.map(function (cards, seat) { return cards === null ? frame.hands[seat] : cards; });
        } else if (frames.length && key === "melds") {
          var melds = frame.melds.slice();
          value.forEach(function (meld) { melds[meld.id] = meld; });
          value = melds;
        }
        frame[key] = value;
      });
      frames.push(frame);
    });
    return { hand: hand.hand, dealer: hand.dealer, frames: frames };
  });
}

/* The hint used before each frame's action, by hand number and the action's index in its
   hand ("hand:n"), from the hints a live table's replay sends beside its frames (none
   elsewhere); a frame's hint is hintsAt(...)[hand + ":" + frame.n]. */
export function hintsAt(hints) {
  const found = {};
  (hints || []).forEach((hint) => { found[hint.hand + ":" + hint.index] = hint; });
  return found;
}
