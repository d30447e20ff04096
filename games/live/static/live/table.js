/* A live table (games/live, templates/live/table.html): the page's one entry module. It
   reads the page's words and settings (json_script, translated by the server), holds the
   table's state and puts the parts together: the connection (connection.js), the felt
   (drawing.js), the moves (controls.js), the panels (panels.js), the log (log.js), the
   moves' motion (motion.js), the chat (chat.js) and who is here (presence.js: the
   heartbeat, each seat's presence).

   The server holds the game. This shows the view it is sent (a seat's hand and legal
   moves, or a spectator's public table), announces each action in words and sends the
   player's moves, each the text of one of the server's structured moves. On a gap in the
   sequence numbers, or after reconnecting, it asks {"type": "resume", "since": n} for
   what it missed. Selected cards become a move through {"type": "ways", "cards": [...],
   "meld": null or a meld id}: the server answers with every legal way to play them
   (controls.js asks which). consumers.py has the whole protocol. */

import { text, wordsFor } from "../games/cards.js";
import { makeAsking } from "./asking.js";
import { makeChat } from "./chat.js";
import { connect, newId } from "./connection.js";
import { makeControls } from "./controls.js";
import { makeDrawing } from "./drawing.js";
import { makeEnding } from "./ending.js";
import { makeHints } from "./hints.js";
import { changes, codeOfKey, entries, isEnded } from "./layout.js";
import { makeLog } from "./log.js";
import { makeMotion } from "./motion.js";
import { findMove, moveWords } from "./moves.js";
import { makePanels, store, stored } from "./panels.js";
import { makePresence } from "./presence.js";
import { makeStatus } from "./status.js";

const root = document.querySelector("[data-live-table]");
if (root) {
  start(root);
}

function start(root) {
  const msg = JSON.parse(document.getElementById(root.getAttribute("data-messages")).textContent);
  const config = JSON.parse(document.getElementById(root.getAttribute("data-config")).textContent);
  const mySeat = config.seat;
  const players = config.players;
  const w = wordsFor(msg, players);
  // The table's state: changed here only; the parts read it.
  const state = { view: null, selected: [], cursor: null, fresh: {}, acting: null,
    last: [null, null, null, null], sortBy: stored("push-sort", "suit") === "rank" ? "rank" : "suit" };
  const t = { root, msg, config, w, words: moveWords(msg, players, w, config.humans), state,
    q: (selector) => root.querySelector(selector) };
  let focusHand = false; // after a draw, on to the hand

  const myTurn = () => mySeat !== null && state.view !== null && !isEnded(state.view) &&
    state.view.to_move === mySeat;
  const selectedCodes = () => state.selected.map(codeOfKey);

  function feedback(content) {
    const box = t.q("[data-feedback]");
    if (!box) {
      return;
    }
    box.textContent = "";
    if (content) {
      box.appendChild(typeof content === "string" ? document.createTextNode(content) : content);
    }
  }

  const connection = (words) => { t.q("[data-connection]").textContent = words; };

  function act(move) {
    focusHand = move.do === "take" || move.do === "push";
    controls.stopChoosing();
    feedback("");
    link.act(move.text);
    render();
  }

  function focusCursor() {
    const button = state.cursor && root.querySelector('[data-key="' + state.cursor + '"]');
    if (button) {
      button.focus();
    }
  }

  function moveCursor(step, to) {
    const keys = Array.prototype.map.call(root.querySelectorAll("[data-hand] [data-key], " +
      "[data-pending] [data-key]"), (b) => b.getAttribute("data-key"));
    if (!keys.length) {
      return;
    }
    const at = keys.indexOf(state.cursor);
    const next = to === "first" ? 0 : to === "last" ? keys.length - 1
      : Math.max(0, Math.min(keys.length - 1, (at < 0 ? 0 : at) + step));
    state.cursor = keys[next];
    render();
    focusCursor();
  }

  const drawing = makeDrawing(t);
  const status = makeStatus(t);
  const panels = makePanels(t, { send: (m) => link.send(m), newId, focusCursor });
  const controls = makeControls(t, { act, render, feedback, busy: () => link.busy(), myTurn,
    selectedCodes, moveCursor, openHelp: panels.openHelp });
  const log = makeLog(t, { send: (m) => link.send(m) });
  const asking = makeAsking({ send: (m) => link.send(m), newId, offer: controls.offer });
  const ending = makeEnding(t, { send: (m) => link.send(m), newId });
  const motion = makeMotion(t);
  const chat = makeChat(t, { send: (m) => link.send(m), newId });
  const presence = makePresence(t, { send: (m) => link.send(m) });
  const hints = makeHints(t, { send: (m) => link.send(m), newId, myTurn, busy: () => link.busy() });

  function receive(message) {
    if (message.type === "update") {
      connection("");
      if (message.ack && link.settled(message.ack.id)) {
        // the update answering a move says so ({"id", "seq"}): the move is done
        state.selected = [];
        feedback("");
        render();
        if (focusHand) {
          focusHand = false;
          focusCursor();
        }
      }
      update(message.events || [], message.view);
    } else if (message.type === "ways") {
      asking.answered(message.id, message.moves || []);
    } else if (message.type === "hint") {
      hints.answered(message);
      render();
    } else if (message.type === "hand_log") {
      panels.handLogAnswer(message);
    } else if (message.type === "done") {
      ending.done(message);
    } else if (message.type === "chat" || message.type === "reported") {
      chat.receive(message);
    } else if (message.type === "presence") {
      presence.told(message);
    } else if (message.type === "pong") {
      presence.pong();
    } else if (message.type === "error") {
      if (chat.refused(message)) {
        return;
      }
      ending.refused(message);
      if (panels.handLogAnswer(message)) {
        return;
      }
      if (message.id) {
        link.settled(message.id);
      }
      hints.refused(message.id); // said below the moves, as any refusal
      if (asking.refused(message.id)) {
        return;
      }
      feedback(message.rule ? text(msg.refused, { rule: message.rule, message: message.message })
        : text(msg.refused_plain, { message: message.message }));
      render();
    }
  }

  const FRESH_MS = 1800; // how long a move stays marked on the table
  let freshTimer = null;

  function markFresh(events, previous, next) {
    // what the new events changed, marked on the table for a moment
    if (previous && previous.hand_no !== next.hand_no) {
      state.last = [null, null, null, null]; // a new deal: no move of it yet
    }
    let top = false;
    events.forEach((e) => {
      if (e.hand_no !== next.hand_no) {
        return; // the last hand's end: its summary says it
      }
      state.last[e.seat] = t.words.describeEvent(e);
      state.acting = e.seat;
      top = top || e.move.do === "discard";
    });
    state.fresh = { top, ...changes(previous, next) };
    if (freshTimer !== null) {
      window.clearTimeout(freshTimer);
    }
    freshTimer = window.setTimeout(() => {
      freshTimer = null;
      state.fresh = {};
      state.acting = null;
      render();
    }, FRESH_MS);
  }

  function update(events, next) {
    const previous = state.view;
    if (previous !== null && next.seq < previous.seq) {
      return; // an older answer overtaken by a newer one
    }
    const first = previous === null;
    const fresh = log.take(events, next, previous);
    state.view = next;
    if (fresh.length) {
      markFresh(fresh, previous, next);
      fresh.filter((e) => e.hand_result).forEach((e) => panels.handEnded(e, next.hand_pause));
    }
    // a turn of mine begins unless the last view was this very draw: an update that
    // brings several actions at once (a connection that fell behind) may go from one draw
    // of mine to the next, round the table or into a new hand
    const sameDraw = previous !== null && previous.seq === next.seq &&
      previous.to_move === mySeat && previous.phase === "draw";
    if (myTurn() && next.phase === "draw" && !sameDraw) {
      log.line(msg.your_turn_draw, "turn-line");
      panels.turnStarted();
      if (!first) {
        window.setTimeout(drawing.bringIntoView, 0); // once drawn
      }
    }
    if (previous === null || previous.seq !== next.seq) {
      controls.stopChoosing();
    }
    const keys = {};
    entries(next).forEach((e) => { keys[e.key] = true; });
    state.selected = state.selected.filter((key) => keys[key]);
    motion.remember();
    render(previous);
    if (!first && fresh.length) {
      motion.play(fresh, mySeat, next.hand_no);
    }
    if (first && !isEnded(next)) {
      window.setTimeout(drawing.bringIntoView, 0); // once laid out
    }
  }

  // ---- the ways to play the selection ----

  function layDown() {
    // once the contract is down, the selection may also go onto a meld on the table: which
    // one is asked with the rest (R7.3)
    const down = state.view.contract_down[mySeat];
    const melds = [null].concat(down ? state.view.melds.map((meld) => meld.id) : []);
    asking.ask(selectedCodes(), melds, down ? msg.no_fit_meld
      : text(msg.no_fit_contract, { contract: msg.contracts[String(state.view.hand_no)] }));
  }

  // ---- drawing the view ----

  function render(previous) {
    const v = state.view;
    if (v === null) {
      return;
    }
    const active = document.activeElement;
    const focused = active && active.getAttribute && active.getAttribute("data-key");
    const mine = myTurn() && !link.busy();
    status.renderTurn(mine || myTurn(), myTurn());
    drawing.renderSeats();
    presence.mark();
    drawing.renderPiles();
    const meldWhy = mySeat === null ? "" : controls.meldReason(mine);
    drawing.renderMelds(mySeat !== null && !meldWhy, meldWhy);
    t.q("[data-why-meld]").textContent = meldWhy;
    if (mySeat !== null) {
      state.cursor = drawing.renderHand(!isEnded(v), selectedCodes()); // chosen ahead of the turn
      controls.renderMoves(mine);
    }
    hints.render();
    status.renderScores();
    status.renderDeadline();
    status.renderDirector();
    ending.render();
    panels.renderGameEnd(previous === undefined ? true : previous !== null && previous.is_over);
    panels.renderTitle(myTurn());
    panels.placeHandEnd(); // the table drawn anew may have moved the hand
    if (focused) {
      const again = root.querySelector('[data-key="' + focused + '"]');
      if (again && !again.disabled) {
        again.focus();
      } else if (root.contains(active) || active === document.body) {
        focusCursor(); // the card just played: on to the hand
      }
    }
  }

  // ---- the controls ----

  function select(key) {
    const at = state.selected.indexOf(key);
    if (at >= 0) {
      state.selected.splice(at, 1);
    } else {
      state.selected.push(key);
    }
    state.cursor = key;
    controls.stopChoosing();
    feedback("");
  }

  const PRESSED = {
    take: () => act(findMove(state.view.moves, "take")),
    push: () => controls.push(),
    discard: () => act(findMove(state.view.moves, "discard", selectedCodes()[0])),
    lay: () => layDown(),
    clear: () => { state.selected = []; controls.stopChoosing(); feedback(""); render(); },
    cancel: () => { controls.stopChoosing(); render(); },
    "more-ways": () => controls.morePage(),
    hint: () => { hints.ask(); render(); },
    help: () => panels.openHelp(),
    earlier: () => panels.openEarlier()
  };

  root.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || !root.contains(button) || state.view === null || button.closest("dialog")) {
      return;
    }
    if (button.disabled || button.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      const why = button.hasAttribute("data-do") && document.getElementById(button.getAttribute("data-why"));
      if (why) {
        feedback(why.textContent); // said below the moves, as for a key, not over them
      }
      return;
    }
    const key = button.getAttribute("data-key");
    const what = button.getAttribute("data-do");
    if (button.hasAttribute("data-way")) {
      controls.chooseWay(parseInt(button.getAttribute("data-way"), 10));
    } else if (button.hasAttribute("data-answer")) {
      controls.answer(parseInt(button.getAttribute("data-answer"), 10));
    } else if (button.hasAttribute("data-meld")) {
      const meld = parseInt(button.getAttribute("data-meld"), 10);
      asking.ask(selectedCodes(), [meld], text(msg.no_fit_layoff, { meld }));
    } else if (key) {
      select(key);
      render();
    } else if (button.hasAttribute("data-sort")) {
      state.sortBy = button.getAttribute("data-sort");
      store("push-sort", state.sortBy);
      render();
    } else if (PRESSED[what]) {
      PRESSED[what]();
    }
  });

  window.addEventListener("resize", () => render());

  connection(msg.connecting);
  const link = connect(config.ws, { opened: () => { log.reconnected(); presence.opened(); },
    message: receive, closed: () => connection(msg.reconnecting) });
}
