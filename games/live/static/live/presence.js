/* Who is at a live table: each person's seat says whether they are connected, away (their
   page's tab hidden) or gone (closed, or silent), and their lag (games/live/presence.py).

   A seat holder's page sends the heartbeat, {"type": "ping", "hidden", "lag"}: every
   ``config.heartbeat`` seconds, and at once when its tab is hidden or shown; ``lag`` is
   the last ping's round trip to its "pong", in milliseconds, as lichess measures it. The
   server tells every page at the table {"type": "presence", "seats": [{"seat", "state",
   "lag"}]}: all seats on connecting, then each change (the server tells a page that
   vanished without closing gone once its websocket pings find it dead). */

import { element, text } from "../games/cards.js";

/* ``t``: the page (root, msg, config); ``on``: send(message). */
export function makePresence(t, on) {
  const { msg, config } = t;
  const seats = {}; // seat -> {state, lag}, as the server last told
  let pingAt = null;
  let lag = null;

  function ping() {
    pingAt = window.performance.now();
    on.send({ type: "ping", hidden: document.hidden, lag });
  }

  function pong() {
    if (pingAt !== null) {
      lag = Math.round(window.performance.now() - pingAt);
      pingAt = null;
    }
  }

  function told(message) {
    (message.seats || []).forEach((s) => { seats[s.seat] = { state: s.state, lag: s.lag }; });
    mark();
  }

  function mark() {
    // each person's seat, drawn by drawing.js, gets its presence last, under the rest
    t.root.querySelectorAll("[data-seats] [data-seat-no]").forEach((item) => {
      const seat = item.getAttribute("data-seat-no");
      const state = seats[seat] ? seats[seat].state : null;
      const before = item.querySelector("[data-presence]");
      if (before) {
        before.remove();
      }
      if (!state) {
        return;
      }
      let label = state === "connected" ? msg.presence_connected
        : state === "away" ? msg.presence_away : msg.presence_gone;
      if (state !== "gone" && seats[seat].lag !== null && seats[seat].lag !== undefined) {
        label += " \u00b7 " + text(msg.presence_lag, { ms: seats[seat].lag });
      }
      const shown = element("div", "seat-presence presence-" + state, label);
      shown.setAttribute("data-presence", state);
      item.appendChild(shown);
    });
  }

  if (config.seat !== null && config.heartbeat) {
    // A seat holder's heartbeat: how the server knows they are still here (a socket's
    // close may never arrive); missing it for the table's grace lets their substitute play.
    window.setInterval(ping, 1000 * config.heartbeat);
    document.addEventListener("visibilitychange", ping);
  }
  function opened() {
    if (config.seat !== null) {
      ping(); // at once: whether this page is hidden, and who is here again
    }
  }

  return { opened, pong, told, mark };
}
