/* What opens over a live table: the end of a hand (who went out, every seat's cards left
   with their penalty points, the scores), over none of the controls, until the next
   deal's pause is over or a press; the end of the game brought into view; the earlier
   hands' logs, asked for on demand; the keys (?); and the player's turn told in the title
   and, when the player turns them on (off by default, remembered), by a sound or a
   notification. */

import { element, text } from "../games/cards.js";
import { seatOrder, summaryBox } from "./layout.js";
import { finalText } from "./status.js";

export function stored(key, fallback) {
  try {
    const value = window.localStorage.getItem(key);
    return value === null ? fallback : value;
  } catch {
    return fallback; // storage may be off
  }
}

export function store(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch { /* not remembered */ }
}

/* The panels of one table. ``t``: the page (root, q, msg, config), the words (w: the
   cards', words: moves.js's) and the state (read: view); ``on``: what the table does:
   send(message), newId(), focusCursor(). */
export function makePanels(t, on) {
  const { msg, config, w, words, state } = t;
  let audio = null;
  let baseTitle = document.title;
  let DEFAULT_PAUSE = 8; // seconds a hand's end shows when the server names no pause
  let HAND_LOG_WAIT_MS = 8000; // how long an earlier hand's log is waited for
  let summaryTimer = null;
  let handLogs = {}; // hand number -> {events, result}, as the server gave them
  let asked = {}; // request id -> hand number

  // ---- the end of a hand ----

  function resultRows(result) {
    let body = document.createDocumentFragment();
    seatOrder(config.seat).forEach(function (seat) {
      let row = element("tr");
      let head = element("th", "", config.players[seat]);
      head.scope = "row";
      row.appendChild(head);
      let cardsCell = element("td", "end-cards");
      let hand = result.hands ? result.hands[seat] : null;
      if (hand && hand.length) {
        hand.forEach(function (code) { cardsCell.appendChild(w.playingCard(code, true)); });
      } else {
        cardsCell.textContent = hand ? (seat === result.out_seat ? msg.went_out : msg.no_cards)
          : msg.cards_unknown;
      }
      row.appendChild(cardsCell);
      let points = result.penalties ? result.penalties[seat] : null;
      row.appendChild(element("td", "num", points === null || points === undefined ? "\u2013"
        : String(points)));
      body.appendChild(row);
    });
    return body;
  }

  function showHandEnd(handNo, result, pause) {
    let dialog = t.q("[data-hand-end]");
    if (!dialog) {
      return;
    }
    let seconds = pause === undefined || pause === null ? DEFAULT_PAUSE : pause;
    t.q("[data-hand-end-heading]").textContent = text(msg.hand_over, { hand: handNo });
    t.q("[data-hand-end-outcome]").textContent = w.outcome(result);
    let body = t.q("[data-hand-end-rows]");
    body.textContent = "";
    body.appendChild(resultRows(result));
    t.q("[data-hand-end-totals]").textContent = state.view ? text(msg.totals_line, {
      team_a: msg.teams[0], team_b: msg.teams[1], score_a: state.view.totals[0],
      score_b: state.view.totals[1] }) : "";
    if (summaryTimer !== null) {
      window.clearTimeout(summaryTimer);
    }
    if (!dialog.open) {
      // not modal: the table goes on beside it, and its keys too, so the focus stays
      // where it was (show() would move it into the summary, where keys are not moves)
      const had = document.activeElement;
      dialog.show();
      if (had && had !== document.body && had.isConnected) {
        had.focus({ preventScroll: true });
      }
      if (dialog.contains(document.activeElement)) {
        document.activeElement.blur();
      }
    }
    placeHandEnd();
    summaryTimer = window.setTimeout(closeHandEnd, 1000 * Math.max(seconds, 1));
  }

  function placeHandEnd() {
    // Over no control (layout.js summaryBox), so that a person first to move in the next
    // hand can play with it open: it stays until the pause is over or they close it.
    const dialog = t.q("[data-hand-end]");
    if (!dialog || !dialog.open) {
      return;
    }
    const box = (selector) => {
      const node = t.q(selector);
      return node ? node.getBoundingClientRect() : null;
    };
    const side = box(".table-side");
    const tools = box(".table-tools");
    const place = summaryBox({ width: window.innerWidth, height: window.innerHeight }, {
      felt: box("[data-felt]"), piles: box(".piles"), hand: box(".your-hand"),
      melds: t.q(".meld-button") ? box(".table-melds-box") : null,
      side: side && { left: side.left, right: side.right, top: tools ? tools.bottom : side.top,
        bottom: side.bottom } });
    dialog.style.setProperty("left", place.left + "px");
    dialog.style.setProperty("top", place.top + "px");
    dialog.style.setProperty("width", place.width + "px");
    dialog.style.setProperty("max-height", place.height + "px");
  }

  window.addEventListener("scroll", placeHandEnd, { passive: true });

  function closeHandEnd() {
    let dialog = t.q("[data-hand-end]");
    if (summaryTimer !== null) {
      window.clearTimeout(summaryTimer);
      summaryTimer = null;
    }
    if (dialog && dialog.open) {
      let hadFocus = dialog.contains(document.activeElement);
      dialog.close();
      if (hadFocus) {
        on.focusCursor();
      }
    }
  }

  function handEnded(event, pause) {
    // an event that ended a hand: its summary, unless the server deals the next at once
    handLogs[event.hand_no] = handLogs[event.hand_no] || null; // the log is asked anew
    if (pause === 0) {
      return;
    }
    showHandEnd(event.hand_no, event.hand_result, pause);
  }

  document.addEventListener("keydown", function (event) {
    let dialog = t.q("[data-hand-end]");
    if (dialog && dialog.open && event.key === "Escape") {
      event.preventDefault();
      event.stopImmediatePropagation();
      closeHandEnd();
    }
  }, true);

  // ---- the end of the game: brought to where the player is looking ----

  function renderGameEnd(wasOver) {
    let v = state.view;
    let over = t.q("[data-game-over]");
    over.hidden = !v.is_over;
    t.q("[data-abandoned]").hidden = v.status !== "abandoned";
    t.q("[data-ended]").hidden = v.status !== "ended";
    if (!v.is_over) {
      return;
    }
    t.q("[data-final]").textContent = finalText(msg, v);
    let list = t.q("[data-final-hands]");
    list.textContent = "";
    v.scores.forEach(function (scores, i) {
      list.appendChild(element("li", "", text(msg.final_hand, { hand: i + 1,
        team_a: msg.teams[0], team_b: msg.teams[1], score_a: scores[0], score_b: scores[1] })));
    });
    if (!wasOver) {
      closeHandEnd();
      over.scrollIntoView({ block: "start" });
      over.focus({ preventScroll: true });
    }
  }

  // ---- earlier hands, asked for when wanted ----

  function openEarlier() {
    let dialog = t.q("[data-earlier]");
    let list = t.q("[data-earlier-hands]");
    list.textContent = "";
    let last = state.view.scores.length; // the hands that have ended
    for (let n = 1; n <= last; n++) {
      let item = element("li");
      let button = element("button", "", text(msg.hand_button, { hand: n }));
      button.type = "button";
      button.setAttribute("data-earlier-hand", String(n));
      item.appendChild(button);
      list.appendChild(item);
    }
    t.q("[data-earlier-none]").hidden = last > 0;
    t.q("[data-earlier-log]").textContent = "";
    t.q("[data-earlier-status]").textContent = "";
    dialog.showModal();
  }

  function showEarlier(n) {
    let found = handLogs[n];
    let box = t.q("[data-earlier-log]");
    box.textContent = "";
    t.root.querySelectorAll("[data-earlier-hand]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-earlier-hand") === String(n)));
    });
    if (!found) {
      t.q("[data-earlier-status]").textContent = msg.hand_log_loading;
      let id = on.newId();
      asked[id] = n;
      on.send({ type: "hand_log", id: id, hand: n });
      window.setTimeout(function () { // no answer at all: say so, as for a refusal
        handLogAnswer({ type: "error", id: id });
      }, HAND_LOG_WAIT_MS);
      return;
    }
    t.q("[data-earlier-status]").textContent = text(msg.hand_log_of, { hand: n });
    found.events.forEach(function (e) {
      box.appendChild(element("li")).appendChild(words.describeEvent(e));
    });
    if (found.result) {
      box.appendChild(element("li", "end-line", w.outcome(found.result)));
    }
  }

  function handLogAnswer(message) {
    // {"type": "hand_log", id, hand, events, result}, or an error for the request's id
    if (message.type === "error" && !message.id && message.field === "type") {
      // a server that does not know the request refuses it without its id
      let open = Object.keys(asked);
      if (!open.length) {
        return false;
      }
      message = { type: "error", id: open[0] };
    }
    if (!(message.id in asked)) {
      return false;
    }
    let n = asked[message.id];
    delete asked[message.id];
    if (message.type === "error") {
      t.q("[data-earlier-status]").textContent = msg.hand_log_failed;
      return true;
    }
    handLogs[n] = { events: message.events || [], result: message.result || null };
    showEarlier(n);
    return true;
  }

  t.root.addEventListener("click", function (event) {
    let button = event.target.closest("button");
    if (!button) {
      return;
    }
    if (button.hasAttribute("data-earlier-hand")) {
      showEarlier(parseInt(button.getAttribute("data-earlier-hand"), 10));
    } else if (button.hasAttribute("data-close")) {
      let dialog = button.closest("dialog");
      if (dialog === t.q("[data-hand-end]")) {
        closeHandEnd();
      } else {
        dialog.close();
      }
    }
  });

  function openHelp() {
    let dialog = t.q("[data-help]");
    if (!dialog.open) {
      dialog.showModal();
    }
  }

  // ---- the player's turn: the title, a sound, a notification ----

  function option(name) {
    return stored("push-" + name, "off") === "on";
  }

  t.root.querySelectorAll("[data-option]").forEach(function (box) {
    let name = box.getAttribute("data-option");
    box.checked = option(name);
    box.addEventListener("change", function () {
      store("push-" + name, box.checked ? "on" : "off");
      if (name === "notify" && box.checked && window.Notification &&
          window.Notification.permission === "default") {
        window.Notification.requestPermission();
      }
    });
  });

  function beep() {
    let Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) {
      return;
    }
    try {
      audio = audio || new Context(); // one for the page: a browser allows few
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch { /* no sound here */ }
  }

  function turnStarted() {
    if (option("sound")) {
      beep();
    }
    if (option("notify") && document.hidden && window.Notification &&
        window.Notification.permission === "granted") {
      try {
        new window.Notification(msg.your_turn_title, { body: baseTitle, tag: "push-turn" });
      } catch { /* not here */ }
    }
  }

  function renderTitle(mine) {
    document.title = mine ? "\u25cf " + msg.your_turn_title + " \u00b7 " + baseTitle : baseTitle;
  }

  return { showHandEnd, placeHandEnd, closeHandEnd, handEnded, renderGameEnd, openEarlier, handLogAnswer,
    openHelp, turnStarted, renderTitle };
}
