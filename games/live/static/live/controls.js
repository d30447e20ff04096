/* A live table's moves. Each move button says why when it is off (aria-disabled, so it
   keeps the focus and its hover: the reason shows on focus and hover and is its
   description for screen readers); the ways a selection fits are asked one difference at
   a time (ways.js); a push that would end the hand asks first (R6.4, R8.2); and the keys:
   t take, p push, l lay down, d discard, c or Escape clear, h a hint (where hints are
   given), the arrow keys across the
   hand, Space or Enter to select, 1 to 5 for a choice, ? lists them.

   The legal moves are the view's structured ones ("moves", moves.js): a button is on when
   one of them is its move. */

import { element, text } from "../games/cards.js";
import { isOff, setEnabled } from "./drawing.js";
import { isEnded } from "./layout.js";
import { findMove } from "./moves.js";
import { HANDFUL, plan } from "./ways.js";

const KEYS = { t: "take", p: "push", l: "lay", d: "discard", c: "clear", h: "hint" };

/* The controls of one table. ``t``: the page (root, q, msg, config), the words (w, and
   words: moves.js's) and the state (read: view, selected, cursor); ``on``: what the table
   does: act(move), render(), feedback(content), busy(), myTurn(), selectedCodes(),
   moveCursor(step, to), openHelp(). What is being chosen is this module's own. */
export function makeControls(t, on) {
  const { msg, config, w, words, state } = t;
  let choosing = null; // {ways, page, asked}: the ways of the selection on offer

  function turnReason(mine) {
    const v = state.view;
    if (isEnded(v)) {
      return v.is_over ? msg.game_over : msg.table_ended;
    }
    if (v.paused) {
      return msg.why_paused; // the server refuses every move until the director resumes
    }
    if (on.busy()) {
      return msg.why_busy;
    }
    if (!mine) {
      return text(msg.why_not_your_turn, { player: config.players[v.to_move] });
    }
    return "";
  }

  function renderMoves(mine) {
    const v = state.view;
    const codes = on.selectedCodes();
    const moving = mine && !v.paused;
    const draw = moving && v.phase === "draw";
    const play = moving && v.phase === "play";
    const pending = (v.pending || []).length > 0;
    const turn = turnReason(mine);
    const wait = turn || (draw ? "" : msg.why_drawn);
    const first = turn || (play ? "" : msg.why_draw_first);
    const freed = codes.length === 1 && state.selected[0].indexOf("p:") === 0;
    const discardOn = play && codes.length === 1 && !freed &&
      findMove(v.moves, "discard", codes[0]) !== null;
    let discardWhy = first;
    if (!first && !discardOn) {
      discardWhy = codes.length !== 1 ? msg.why_select_one
        : freed || pending ? msg.why_pending
          : v.taken === codes[0] ? msg.why_taken : msg.why_not_legal;
    }
    const moves = {
      take: [draw && findMove(v.moves, "take") !== null, wait],
      push: [draw && findMove(v.moves, "push") !== null, wait],
      lay: [play && codes.length > 0, first || msg.why_select],
      discard: [discardOn, discardWhy],
      clear: [codes.length > 0 && !on.busy(), msg.selection_none]
    };
    Object.keys(moves).forEach((name) => {
      setEnabled(t.q('[data-do="' + name + '"]'), moves[name][0], moves[name][1]);
    });
    t.q("[data-push-warning]").hidden = !(draw && v.stock_size < 2);
    renderChoices();
  }

  function meldReason(mine) {
    const turn = turnReason(mine);
    if (turn) {
      return turn;
    }
    if (state.view.phase !== "play") {
      return msg.why_draw_first;
    }
    if (!state.view.contract_down[config.seat]) {
      return msg.why_contract_first;
    }
    return state.selected.length ? "" : msg.why_select_meld;
  }

  // ---- choosing a way ----

  function focusFirstChoice() {
    const first = t.q("[data-choice-list] button");
    if (first) {
      first.focus();
    }
  }

  function offer(ways, noFit) {
    // none: say so; one: play it; more: ask what differs
    choosing = null;
    if (!ways.length) {
      on.feedback(noFit);
      on.render();
      return;
    }
    const found = plan(ways, 0);
    if (found.play) {
      on.act(found.play);
      return;
    }
    choosing = { ways, page: 0 };
    on.feedback("");
    on.render();
    focusFirstChoice();
  }

  function choiceButton(content, attribute, value, n) {
    const item = element("li");
    const button = element("button");
    button.type = "button";
    button.setAttribute(attribute, value);
    if (n <= HANDFUL) {
      button.setAttribute("aria-keyshortcuts", String(n));
      const key = element("kbd", "choice-key", String(n));
      key.setAttribute("aria-hidden", "true");
      button.appendChild(key);
    }
    button.appendChild(content);
    item.appendChild(button);
    return item;
  }

  function optionWords(about, value) {
    if (about === "onto") {
      return value ? text(msg.onto_meld, { meld: value }) : msg.onto_new;
    }
    if (about === "out") {
      return w.cardLabel(value);
    }
    return value ? w.asName(value) : msg.as_itself;
  }

  function renderChoices() {
    const box = t.q("[data-choices]");
    const list = t.q("[data-choice-list]");
    const more = t.q('[data-do="more-ways"]');
    box.hidden = !choosing;
    list.textContent = "";
    more.hidden = true;
    if (!choosing) {
      return;
    }
    const found = plan(choosing.ways, choosing.page);
    const heading = t.q("[data-choices-heading]");
    if (found.ask) {
      const about = found.ask.about;
      heading.textContent = about === "onto" ? msg.ask_onto : about === "out" ? msg.ask_out
        : text(msg.ask_wild, { card: w.cardLabel(found.ask.card) });
      found.ask.options.forEach((option, i) => {
        list.appendChild(choiceButton(document.createTextNode(optionWords(about, option.value)),
          "data-answer", String(i), i + 1));
      });
      choosing.asked = found.ask;
      return;
    }
    choosing.asked = null;
    choosing.shown = found.choose;
    heading.textContent = msg.choose_way;
    found.choose.forEach((move, i) => {
      list.appendChild(choiceButton(words.describeWay(move), "data-way", String(i), i + 1));
    });
    if (found.pages > 1) {
      more.hidden = false;
      more.textContent = text(msg.more_ways, { page: found.page + 1, pages: found.pages });
    }
  }

  function answer(index) {
    // the player's answer to "what does this wild stand for?": the ways that agree with it
    const option = choosing && choosing.asked && choosing.asked.options[index];
    if (!option) {
      return;
    }
    if (option.ways.length === 1) {
      on.act(option.ways[0]);
      return;
    }
    choosing = { ways: option.ways, page: 0 };
    on.render();
    focusFirstChoice();
  }

  function chooseWay(index) {
    // a way on offer, by its place in the list
    const move = choosing && choosing.shown && choosing.shown[index];
    if (move) {
      on.act(move);
    }
  }

  function morePage() {
    const found = plan(choosing.ways, choosing.page);
    choosing.page = (found.page + 1) % found.pages;
    on.render();
  }

  // ---- a push that ends the hand asks first ----

  function push() {
    const dialog = t.q("[data-confirm-push]");
    if (state.view.stock_size >= 2 || !dialog || !dialog.showModal) {
      on.act(findMove(state.view.moves, "push"));
      return;
    }
    dialog.showModal();
    dialog.querySelector('[data-confirm="no"]').focus();
  }

  t.root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-confirm]");
    if (!button) {
      return;
    }
    t.q("[data-confirm-push]").close();
    const move = findMove(state.view.moves, "push");
    if (button.getAttribute("data-confirm") === "yes" && on.myTurn() && !on.busy() && move) {
      on.act(move);
    } else {
      t.q('[data-do="push"]').focus();
    }
  });

  // ---- the keys ----

  document.addEventListener("keydown", (event) => {
    if (state.view === null || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) {
      return;
    }
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, dialog[open]")) {
      return;
    }
    const key = event.key;
    if (key === "?") {
      event.preventDefault();
      on.openHelp();
      return;
    }
    if (config.seat === null) {
      return;
    }
    const inHand = target.closest && target.closest("[data-hand], [data-pending]");
    if (key === "ArrowLeft" || key === "ArrowRight" || (inHand && (key === "Home" || key === "End"))) {
      event.preventDefault();
      on.moveCursor(key === "ArrowLeft" ? -1 : 1,
        key === "Home" ? "first" : key === "End" ? "last" : null);
      return;
    }
    if (choosing && /^[1-9]$/.test(key)) {
      const choice = t.root.querySelectorAll("[data-choice-list] button")[parseInt(key, 10) - 1];
      if (choice) {
        event.preventDefault();
        choice.click();
      }
      return;
    }
    const what = key === "Escape" ? "clear" : KEYS[key.toLowerCase()];
    if (!what) {
      return;
    }
    event.preventDefault();
    if (key === "Escape" && choosing) {
      choosing = null;
      on.render();
      return;
    }
    const button = t.q('[data-do="' + what + '"]');
    if (!button || isOff(button)) {
      // said where the keyboard is: the reason the move is off
      on.feedback(button ? document.getElementById(button.getAttribute("data-why")).textContent : "");
      return;
    }
    button.click();
  });

  return { renderMoves, meldReason, offer, answer, chooseWay, morePage, push,
    isChoosing: () => choosing !== null, stopChoosing: () => { choosing = null; } };
}
