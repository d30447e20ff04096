/* A live table's log (role="log"): the hand so far in words, each action announced once,
   in order. The sequence numbers say what is new; on a gap (a dropped notice, or a
   reconnection) it asks the server {"type": "resume", "since": n} for what was missed. A
   view may carry the hand so far (``log``: it replaces the page's) and the last hand that
   ended (``last_hand``). */

import { element } from "../games/cards.js";

/* The log of one table. ``t``: the page (q) and the words (words: moves.js's); ``on``:
   send(message). */
export function makeLog(t, on) {
  let announced = null; // the sequence number up to which actions were announced
  let resumeAsked = false;

  function line(content, className) {
    const list = t.q("[data-log]");
    const item = element("li", className || "");
    item.appendChild(typeof content === "string" ? document.createTextNode(content) : content);
    list.appendChild(item);
    list.parentNode.scrollTop = list.parentNode.scrollHeight; // the newest in sight
  }

  function rebuild(view) {
    // the whole hand so far, as the server has it: after the last hand's outcome, the deal
    t.q("[data-log]").textContent = "";
    if (view.last_hand) {
      line(t.words.handResultLine(view.last_hand), "end-line");
    }
    if (!view.is_over || view.log.length) {
      line(t.words.dealLine(view), "deal-line");
    }
    view.log.forEach((e) => line(t.words.describeEvent(e)));
  }

  function resume() {
    resumeAsked = true;
    on.send({ type: "resume", since: announced });
  }

  function reconnected() {
    // a connection after the first: what was missed meanwhile
    if (announced !== null) {
      resume();
    }
  }

  function take(events, next, previous) {
    // Announce what ``events`` (with the view ``next``, after ``previous``) bring that is
    // new; the events announced, none on a gap (asked for again instead).
    if (announced === null) {
      announced = next.seq; // the first snapshot: nothing to announce
    }
    let fresh = events.filter((e) => e.seq > announced);
    const gap = next.seq > announced && (!fresh.length || fresh[0].seq !== announced + 1);
    if (gap && !next.log) {
      if (!resumeAsked) {
        resume();
      }
      fresh = [];
    } else {
      resumeAsked = false;
      announced = next.seq;
    }
    if (next.log) {
      rebuild(next);
    } else if (!gap) {
      fresh.forEach((e) => line(t.words.describeEvent(e)));
      if (previous !== null && previous.hand_no !== next.hand_no) {
        line(t.words.dealLine(next), "deal-line");
      }
    }
    return fresh;
  }

  return { line, take, reconnected };
}
