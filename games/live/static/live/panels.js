/* A live table, part 6 of 7: what opens over the table. The end of a hand (who went out,
   every seat's cards left with their penalty points, the scores) until the next deal's
   pause is over or a press; the end of the game brought into view; the earlier hands'
   logs, asked for on demand; the keys (?); and the player's turn told in the title and,
   when the player turns them on (off by default, remembered), by a sound or a
   notification. */
(function () {
  "use strict";

  var P = window.PushLive;
  if (!P.root) {
    return;
  }
  var msg = P.msg;
  var config = P.config;
  var S = P.s;
  var baseTitle = document.title;
  var DEFAULT_PAUSE = 8; // seconds a hand's end shows when the server names no pause
  var HAND_LOG_WAIT_MS = 8000; // how long an earlier hand's log is waited for
  var summaryTimer = null;
  var handLogs = {}; // hand number -> {events, result}, as the server gave them
  var asked = {}; // request id -> hand number

  // ---- the end of a hand ----

  function resultRows(result) {
    var body = document.createDocumentFragment();
    P.seatOrder().forEach(function (seat) {
      var row = P.element("tr");
      var head = P.element("th", "", config.players[seat]);
      head.scope = "row";
      row.appendChild(head);
      var cardsCell = P.element("td", "end-cards");
      var hand = result.hands ? result.hands[seat] : null;
      if (hand && hand.length) {
        hand.forEach(function (code) { cardsCell.appendChild(P.playingCard(code, true)); });
      } else {
        cardsCell.textContent = hand ? (seat === result.out_seat ? msg.went_out : msg.no_cards)
          : msg.cards_unknown;
      }
      row.appendChild(cardsCell);
      var points = result.penalties ? result.penalties[seat] : null;
      row.appendChild(P.element("td", "num", points === null || points === undefined ? "\u2013"
        : String(points)));
      body.appendChild(row);
    });
    return body;
  }

  P.showHandEnd = function (handNo, result, pause) {
    var dialog = P.q("[data-hand-end]");
    if (!dialog) {
      return;
    }
    var seconds = pause === undefined || pause === null ? DEFAULT_PAUSE : pause;
    P.q("[data-hand-end-heading]").textContent = P.text(msg.hand_over, { hand: handNo });
    P.q("[data-hand-end-outcome]").textContent = P.outcome(result);
    var body = P.q("[data-hand-end-rows]");
    body.textContent = "";
    body.appendChild(resultRows(result));
    P.q("[data-hand-end-totals]").textContent = S.view ? P.text(msg.totals_line, {
      team_a: msg.teams[0], team_b: msg.teams[1], score_a: S.view.totals[0],
      score_b: S.view.totals[1] }) : "";
    if (summaryTimer !== null) {
      window.clearTimeout(summaryTimer);
    }
    if (!dialog.open) {
      dialog.show(); // not modal: the table goes on under it
    }
    summaryTimer = window.setTimeout(P.closeHandEnd, 1000 * Math.max(seconds, 1));
  };

  P.closeHandEnd = function () {
    var dialog = P.q("[data-hand-end]");
    if (summaryTimer !== null) {
      window.clearTimeout(summaryTimer);
      summaryTimer = null;
    }
    if (dialog && dialog.open) {
      var hadFocus = dialog.contains(document.activeElement);
      dialog.close();
      if (hadFocus) {
        P.focusCursor();
      }
    }
  };

  P.handEnded = function (event, pause) {
    // an event that ended a hand: its summary, unless the server deals the next at once
    handLogs[event.hand_no] = handLogs[event.hand_no] || null; // the log is asked anew
    if (pause === 0) {
      return;
    }
    P.showHandEnd(event.hand_no, event.hand_result, pause);
  };

  document.addEventListener("keydown", function (event) {
    var dialog = P.q("[data-hand-end]");
    if (dialog && dialog.open && event.key === "Escape") {
      event.preventDefault();
      event.stopImmediatePropagation();
      P.closeHandEnd();
    }
  }, true);

  // ---- the end of the game: brought to where the player is looking ----

  P.renderGameEnd = function (wasOver) {
    var v = S.view;
    var over = P.q("[data-game-over]");
    over.hidden = !v.is_over;
    P.q("[data-abandoned]").hidden = v.status !== "abandoned";
    P.q("[data-ended]").hidden = v.status !== "ended";
    if (!v.is_over) {
      return;
    }
    P.q("[data-final]").textContent = v.winner === null
      ? P.text(msg.drawn, { score_a: v.totals[0], score_b: v.totals[1] })
      : P.text(msg.won, { team: msg.teams[v.winner], score_a: v.totals[0], score_b: v.totals[1] });
    var list = P.q("[data-final-hands]");
    list.textContent = "";
    v.scores.forEach(function (scores, i) {
      list.appendChild(P.element("li", "", P.text(msg.final_hand, { hand: i + 1,
        team_a: msg.teams[0], team_b: msg.teams[1], score_a: scores[0], score_b: scores[1] })));
    });
    if (!wasOver) {
      P.closeHandEnd();
      over.scrollIntoView({ block: "start" });
      over.focus({ preventScroll: true });
    }
  };

  // ---- earlier hands, asked for when wanted ----

  P.openEarlier = function () {
    var dialog = P.q("[data-earlier]");
    var list = P.q("[data-earlier-hands]");
    list.textContent = "";
    var last = S.view.scores.length; // the hands that have ended
    for (var n = 1; n <= last; n++) {
      var item = P.element("li");
      var button = P.element("button", "", P.text(msg.hand_button, { hand: n }));
      button.type = "button";
      button.setAttribute("data-earlier-hand", String(n));
      item.appendChild(button);
      list.appendChild(item);
    }
    P.q("[data-earlier-none]").hidden = last > 0;
    P.q("[data-earlier-log]").textContent = "";
    P.q("[data-earlier-status]").textContent = "";
    dialog.showModal();
  };

  function showEarlier(n) {
    var found = handLogs[n];
    var box = P.q("[data-earlier-log]");
    box.textContent = "";
    P.root.querySelectorAll("[data-earlier-hand]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-earlier-hand") === String(n)));
    });
    if (!found) {
      P.q("[data-earlier-status]").textContent = msg.hand_log_loading;
      var id = P.newId();
      asked[id] = n;
      P.send({ type: "hand_log", id: id, hand: n });
      window.setTimeout(function () { // no answer at all: say so, as for a refusal
        P.handLogAnswer({ type: "error", id: id });
      }, HAND_LOG_WAIT_MS);
      return;
    }
    P.q("[data-earlier-status]").textContent = P.text(msg.hand_log_of, { hand: n });
    found.events.forEach(function (e) {
      box.appendChild(P.element("li")).appendChild(P.describeEvent(e));
    });
    if (found.result) {
      box.appendChild(P.element("li", "end-line", P.outcome(found.result)));
    }
  }

  P.handLogAnswer = function (message) {
    // {"type": "hand_log", id, hand, events, result}, or an error for the request's id
    if (message.type === "error" && !message.id && message.field === "type") {
      // a server that does not know the request refuses it without its id
      var open = Object.keys(asked);
      if (!open.length) {
        return false;
      }
      message = { type: "error", id: open[0] };
    }
    if (!(message.id in asked)) {
      return false;
    }
    var n = asked[message.id];
    delete asked[message.id];
    if (message.type === "error") {
      P.q("[data-earlier-status]").textContent = msg.hand_log_failed;
      return true;
    }
    handLogs[n] = { events: message.events || [], result: message.result || null };
    showEarlier(n);
    return true;
  };

  P.root.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) {
      return;
    }
    if (button.hasAttribute("data-earlier-hand")) {
      showEarlier(parseInt(button.getAttribute("data-earlier-hand"), 10));
    } else if (button.hasAttribute("data-close")) {
      var dialog = button.closest("dialog");
      if (dialog === P.q("[data-hand-end]")) {
        P.closeHandEnd();
      } else {
        dialog.close();
      }
    }
  });

  P.openHelp = function () {
    var dialog = P.q("[data-help]");
    if (!dialog.open) {
      dialog.showModal();
    }
  };

  // ---- the player's turn: the title, a sound, a notification ----

  function option(name) {
    return P.stored("push-" + name, "off") === "on";
  }

  P.root.querySelectorAll("[data-option]").forEach(function (box) {
    var name = box.getAttribute("data-option");
    box.checked = option(name);
    box.addEventListener("change", function () {
      P.store("push-" + name, box.checked ? "on" : "off");
      if (name === "notify" && box.checked && window.Notification &&
          window.Notification.permission === "default") {
        window.Notification.requestPermission();
      }
    });
  });

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) {
      return;
    }
    try {
      var audio = P.audio || (P.audio = new Context());
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch (e) { /* no sound here */ }
  }

  P.turnStarted = function () {
    if (option("sound")) {
      beep();
    }
    if (option("notify") && document.hidden && window.Notification &&
        window.Notification.permission === "granted") {
      try {
        new window.Notification(msg.your_turn_title, { body: baseTitle, tag: "push-turn" });
      } catch (e) { /* not here */ }
    }
  };

  P.renderTitle = function (mine) {
    document.title = mine ? "\u25cf " + msg.your_turn_title + " \u00b7 " + baseTitle : baseTitle;
  };
})();
