/* A live table (games/live), part 7 of 7: the connection and the state, put together.

   The server holds the game. This shows the view it is sent (a seat's hand and legal
   moves, or a spectator's public table), announces each action in words (the match
   replay's wording, in a role="log" region, and on the seat that made it) and sends the
   player's moves: {"type": "act", "action": <the engine's text form>, "id": <unique>}. A
   move is resent with the same id after a reconnection until it is acknowledged, so it
   counts once. On a gap in the sequence numbers, or after reconnecting, it asks
   {"type": "resume", "since": n} for what it missed. A view may carry the hand so far
   (``log``: it replaces the page's), the last hand that ended (``last_hand``) and the
   pause before the next deal (``hand_pause``). Selected cards become a move through
   {"type": "ways", "cards": [...], "meld": null or a meld id}: the server answers with
   every legal way to play them (controls.js asks which). Earlier hands' logs come on
   demand: {"type": "hand_log", "id": ..., "hand": n} (panels.js). */
(function () {
  "use strict";

  var P = window.PushLive;
  if (!P.root) {
    return;
  }
  var msg = P.msg;
  var config = P.config;
  var S = P.s;
  var mySeat = config.seat;
  var players = config.players;
  var FRESH_MS = 1800; // how long a move stays marked on the table

  var announced = null; // the sequence number up to which actions were announced
  var resumeAsked = false;
  var socket = null;
  var retries = 0;
  var outbox = {}; // id -> an act message not yet answered (resent after a reconnect)
  var question = null; // the "ways" questions awaiting their answers: ids, ways, what a no says
  var counter = 0;
  var freshTimer = null;
  var focusHand = false; // after a draw, on to the hand

  P.newId = function () {
    counter += 1;
    return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8) + counter;
  };

  P.send = function (message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    }
  };

  P.myTurn = function () {
    return mySeat !== null && S.view !== null && !P.ended() && S.view.to_move === mySeat;
  };

  P.busy = function () {
    return Object.keys(outbox).length > 0;
  };

  P.legal = function (action) {
    return S.view.legal.indexOf(action) >= 0;
  };

  // ---- the log, the feedback line and the connection line ----

  function logLine(content, className) {
    var list = P.q("[data-log]");
    var item = P.element("li", className || "");
    item.appendChild(typeof content === "string" ? document.createTextNode(content) : content);
    list.appendChild(item);
    list.parentNode.scrollTop = list.parentNode.scrollHeight; // the newest in sight (role=log)
  }

  function rebuildLog(view) {
    // the whole hand so far, as the server has it: after the last hand's outcome, the deal
    P.q("[data-log]").textContent = "";
    if (view.last_hand) {
      logLine(P.text(msg.hand_result_line, { hand: view.last_hand.hand_no,
        outcome: P.outcome(view.last_hand) }), "end-line");
    }
    if (!view.is_over || view.log.length) {
      logLine(P.dealLine(view), "deal-line");
    }
    view.log.forEach(function (e) { logLine(P.describeEvent(e)); });
  }

  P.feedback = function (content) {
    var box = P.q("[data-feedback]");
    if (!box) {
      return;
    }
    box.textContent = "";
    if (content) {
      box.appendChild(typeof content === "string" ? document.createTextNode(content) : content);
    }
  };

  function connection(words) {
    P.q("[data-connection]").textContent = words;
  }

  // ---- the websocket ----

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + config.ws);
    socket.onopen = function () {
      retries = 0;
      if (announced !== null) {
        resumeAsked = true;
        P.send({ type: "resume", since: announced });
      }
      Object.keys(outbox).forEach(function (id) { P.send(outbox[id]); });
    };
    socket.onmessage = function (event) {
      receive(JSON.parse(event.data));
    };
    socket.onclose = function () {
      socket = null;
      connection(msg.reconnecting);
      retries += 1;
      window.setTimeout(connect, Math.min(10000, 250 * Math.pow(2, retries)));
    };
  }

  function acknowledged(id) {
    // the server logged the move sent with this id: it is sent no more
    if (outbox[id]) {
      delete outbox[id];
      S.selected = [];
      P.feedback("");
      P.render();
      if (focusHand) {
        focusHand = false;
        P.focusCursor();
      }
    }
  }

  function receive(message) {
    if (message.type === "update") {
      connection("");
      if (message.ack) { // the update answering a move says so: {"id", "seq"}
        acknowledged(message.ack.id);
      }
      update(message.events || [], message.view);
    } else if (message.type === "ways") {
      answered(message.id, message.actions);
    } else if (message.type === "hand_log") {
      P.handLogAnswer(message);
    } else if (message.type === "error") {
      if (P.handLogAnswer(message)) {
        return;
      }
      if (message.id && outbox[message.id]) {
        delete outbox[message.id];
      }
      if (question && question.ids[message.id] && question.asked > 1) {
        answered(message.id, []); // one meld that takes nothing: the others may
        return;
      }
      if (question && question.ids[message.id]) {
        question = null;
      }
      P.feedback(message.rule ? P.text(msg.refused, { rule: message.rule, message: message.message })
        : P.text(msg.refused_plain, { message: message.message }));
      P.render();
    }
  }

  function markFresh(events, previous, next) {
    // what the new events changed, marked on the table for a moment
    var fresh = { top: false, melds: {}, hand: {} };
    if (previous && previous.hand_no !== next.hand_no) {
      S.last = [null, null, null, null]; // a new deal: no move of it yet
    }
    events.forEach(function (e) {
      if (e.hand_no !== next.hand_no) {
        return; // the last hand's end: its summary says it
      }
      S.last[e.seat] = P.describeEvent(e);
      S.acting = e.seat;
      fresh.top = fresh.top || P.parse(e.action).kind === "discard";
    });
    if (previous && previous.hand_no === next.hand_no) {
      var before = {};
      previous.melds.forEach(function (m) { before[m.id] = m.cards.join(" "); });
      next.melds.forEach(function (m) {
        if (before[m.id] !== m.cards.join(" ")) {
          fresh.melds[m.id] = true;
        }
      });
      var had = {};
      var was = S.view;
      S.view = previous;
      P.entries().forEach(function (e) { had[e.key] = true; });
      S.view = was;
      P.entries().forEach(function (e) {
        if (!had[e.key]) {
          fresh.hand[e.key] = true;
        }
      });
    }
    S.fresh = fresh;
    if (freshTimer !== null) {
      window.clearTimeout(freshTimer);
    }
    freshTimer = window.setTimeout(function () {
      freshTimer = null;
      S.fresh = {};
      S.acting = null;
      P.render();
    }, FRESH_MS);
  }

  function update(events, next) {
    if (S.view !== null && next.seq < S.view.seq) {
      return; // an older answer overtaken by a newer one
    }
    var first = announced === null;
    if (first) {
      announced = next.seq; // the first snapshot: nothing to announce
    }
    var fresh = events.filter(function (e) { return e.seq > announced; });
    var previous = S.view;
    var gap = next.seq > announced && (!fresh.length || fresh[0].seq !== announced + 1);
    if (gap && !next.log) {
      // a dropped notice, or a reconnection: ask for what was missed
      if (!resumeAsked) {
        resumeAsked = true;
        P.send({ type: "resume", since: announced });
      }
      fresh = [];
    } else {
      resumeAsked = false;
      announced = next.seq;
    }
    S.view = next;
    if (next.log) {
      rebuildLog(next);
    } else if (!gap) {
      fresh.forEach(function (e) {
        logLine(P.describeEvent(e));
      });
      if (previous !== null && previous.hand_no !== next.hand_no) {
        logLine(P.dealLine(next), "deal-line");
      }
    }
    if (fresh.length) {
      markFresh(fresh, previous, next);
      fresh.forEach(function (e) {
        if (e.hand_result) {
          P.handEnded(e, next.hand_pause);
        }
      });
    }
    // a turn of mine begins unless the last view was this very draw: an update that
    // brings several actions at once (a connection that fell behind) may go from one draw
    // of mine to the next, round the table or into a new hand
    var sameDraw = previous !== null && previous.seq === next.seq &&
      previous.to_move === mySeat && previous.phase === "draw";
    if (P.myTurn() && next.phase === "draw" && !sameDraw) {
      logLine(msg.your_turn_draw, "turn-line");
      P.turnStarted();
      if (!first) {
        window.setTimeout(bringIntoView, 0); // once drawn
      }
    }
    if (previous === null || previous.seq !== next.seq) {
      S.choosing = null;
    }
    var keys = {};
    P.entries().forEach(function (e) { keys[e.key] = true; });
    S.selected = S.selected.filter(function (key) { return keys[key]; });
    P.render(previous);
    if (first && !P.ended()) {
      window.setTimeout(bringIntoView, 0); // once laid out
    }
  }

  function bringIntoView() {
    // a table opened on a small screen: the felt fills it (the site's header and the
    // title above it scroll away), so that a decision needs no scrolling
    var felt = P.q("[data-felt]");
    var box = felt.getBoundingClientRect();
    if (box.bottom > window.innerHeight || box.top < 0) {
      felt.scrollIntoView({ block: "start" });
    }
  }

  // ---- playing ----

  P.act = function (action) {
    var id = P.newId();
    outbox[id] = { type: "act", action: action, id: id };
    var kind = P.parse(action).kind;
    focusHand = kind === "take" || kind === "push";
    S.choosing = null;
    P.feedback("");
    P.send(outbox[id]);
    P.render();
  };

  function ways(melds, noFit) {
    // ask the server for every legal way to play exactly the selected cards: as the
    // contract or melds (null), or onto each meld of ``melds`` (lay-offs and swaps); the
    // answers together are the ways offered
    question = { ids: {}, asked: melds.length, found: [], noFit: noFit };
    melds.forEach(function (meld) {
      var id = P.newId();
      question.ids[id] = true;
      P.send({ type: "ways", id: id, cards: P.selectedCodes(), meld: meld });
    });
  }

  function answered(id, actions) {
    if (!question || !question.ids[id]) {
      return;
    }
    delete question.ids[id];
    question.found = question.found.concat(actions);
    if (!Object.keys(question.ids).length) {
      var asked = question;
      question = null;
      P.offer(asked.found, asked.noFit);
    }
  }

  function layDown() {
    // once the contract is down, the selection may also go onto a meld on the table: which
    // one is asked with the rest (R7.3)
    var down = S.view.contract_down[mySeat];
    var melds = [null];
    if (down) {
      S.view.melds.forEach(function (meld) { melds.push(meld.id); });
    }
    ways(melds, down ? msg.no_fit_meld
      : P.text(msg.no_fit_contract, { contract: msg.contracts[String(S.view.hand_no)] }));
  }

  // ---- drawing the view ----

  P.render = function (previous) {
    var v = S.view;
    if (v === null) {
      return;
    }
    var active = document.activeElement;
    var focused = active && active.getAttribute && active.getAttribute("data-key");
    var mine = P.myTurn() && !P.busy();
    P.q("[data-hand-no]").textContent = P.text(msg.hand_no, { hand: v.hand_no, hands: config.hands });
    P.q("[data-contract]").textContent = msg.contracts[String(v.hand_no)];
    var turn = P.q("[data-turn]");
    turn.textContent = P.turnText(mine || P.myTurn());
    turn.classList.toggle("mine", P.myTurn());
    var down = P.seatOrder().filter(function (seat) { return v.contract_down[seat]; });
    P.q("[data-down]").textContent = down.length ? P.text(msg.down_list, {
      players: down.map(function (seat) { return players[seat]; }).join(", ") }) : msg.down_none;
    P.renderSeats();
    P.renderPiles();
    var meldWhy = mySeat === null ? "" : P.meldReason(mine);
    P.renderMelds(mySeat !== null && !meldWhy, meldWhy);
    P.q("[data-why-meld]").textContent = meldWhy;
    if (mySeat !== null) {
      P.renderHand(!P.ended()); // cards may be chosen ahead of the turn
      P.renderMoves(mine);
    }
    P.renderScores();
    P.renderDeadline();
    P.renderDirector();
    P.renderGameEnd(previous === undefined ? true : previous !== null && previous.is_over);
    P.renderTitle(P.myTurn());
    if (focused) {
      var again = P.root.querySelector('[data-key="' + focused + '"]');
      if (again && !again.disabled) {
        again.focus();
      } else if (P.root.contains(active) || active === document.body) {
        P.focusCursor(); // the card just played: on to the hand
      }
    }
  };

  // ---- the controls ----

  P.root.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !P.root.contains(button) || S.view === null || button.closest("dialog")) {
      return;
    }
    if (P.isOff(button)) {
      event.preventDefault();
      return;
    }
    var key = button.getAttribute("data-key");
    var what = button.getAttribute("data-do");
    var seat = String(mySeat);
    if (button.hasAttribute("data-way")) {
      P.act(button.getAttribute("data-way"));
    } else if (button.hasAttribute("data-answer")) {
      P.answer(parseInt(button.getAttribute("data-answer"), 10));
    } else if (button.hasAttribute("data-meld")) {
      var meld = parseInt(button.getAttribute("data-meld"), 10);
      ways([meld], P.text(msg.no_fit_layoff, { meld: meld }));
    } else if (key) {
      var at = S.selected.indexOf(key);
      if (at >= 0) {
        S.selected.splice(at, 1);
      } else {
        S.selected.push(key);
      }
      S.cursor = key;
      S.choosing = null;
      P.feedback("");
      P.render();
    } else if (button.hasAttribute("data-sort")) {
      S.sortBy = button.getAttribute("data-sort");
      P.store("push-sort", S.sortBy);
      P.render();
    } else if (what === "take") {
      P.act(seat + " take");
    } else if (what === "push") {
      P.push();
    } else if (what === "discard") {
      P.act(seat + " discard " + P.selectedCodes()[0]);
    } else if (what === "lay") {
      layDown();
    } else if (what === "clear") {
      S.selected = [];
      S.choosing = null;
      P.feedback("");
      P.render();
    } else if (what === "cancel") {
      S.choosing = null;
      P.render();
    } else if (what === "more-ways") {
      P.morePage();
    } else if (what === "help") {
      P.openHelp();
    } else if (what === "earlier") {
      P.openEarlier();
    }
  });

  window.addEventListener("resize", function () {
    P.render();
  });

  // A seat holder's heartbeat: how the server knows they are still here (a socket's close
  // may never arrive); missing it for the table's grace lets their substitute play.
  if (mySeat !== null && config.heartbeat) {
    window.setInterval(function () { P.send({ type: "ping" }); }, 1000 * config.heartbeat);
  }
  connection(msg.connecting);
  connect();
})();
