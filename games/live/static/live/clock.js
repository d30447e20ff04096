/* A turn's clock as a chess or bridge clock shows it: the turn's own countdown and the
   mover's reserve apart, the reserve spent only once the turn's own time is gone, and a
   warning in the last seconds before each runs out. Pure: no DOM, no timers. */

export const WARNING_SECONDS = 10;

/* The clock ``elapsed`` seconds after the server said ``turnLeft`` seconds of the turn's
   own time and ``reserveLeft`` of the reserve were left (null: the table gives none):
   {turn, reserve, warning}. ``warning``: "turn" in the turn's last WARNING_SECONDS,
   "reserve" in the reserve's last ones (after them a bot plays the turn), else null. */
export function clockAt(turnLeft, reserveLeft, elapsed) {
  const turn = Math.max(0, turnLeft - elapsed);
  const over = Math.max(0, elapsed - turnLeft); // what the reserve has paid
  const reserve = reserveLeft === null || reserveLeft === undefined ? null
    : Math.max(0, reserveLeft - over);
  let warning = null;
  if (turn > 0 && turn <= WARNING_SECONDS) {
    warning = "turn";
  } else if (turn === 0 && reserve !== null && reserve > 0 && reserve <= WARNING_SECONDS) {
    warning = "reserve";
  }
  return { turn, reserve, warning };
}
