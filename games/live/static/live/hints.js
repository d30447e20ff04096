/* A hint at a live table (practice and friends' tables only: the page has the Hint button
   there and nowhere else). On the seat's own turn the button asks {"type": "hint", "id"};
   the answer ({"type": "hint", "seq", "move", "reason"}, games/live/hints.py) is shown
   while the table is still where it was asked: its reason in words, and the suggested
   move marked, its cards in the hand or its button (take, push). */

import { setEnabled } from "./drawing.js";
import { codeOfKey } from "./layout.js";

/* The cards of the hand a structured move plays (its "card", or its melds' or lay-off's
   cards, each as written in a meld: "JK=7" is the joker), to be marked; none for a draw. */
export function hintedCards(move) {
  if (!move) {
    return [];
  }
  const plain = (code) => code.split("=")[0];
  if (move.do === "discard" || move.do === "swap") {
    return [move.card];
  }
  if (move.do === "contract" || move.do === "meld") {
    return move.melds.reduce((all, meld) => all.concat(meld.cards.map(plain)), []);
  }
  if (move.do === "layoff") {
    return move.cards.map(plain);
  }
  return [];
}

/* The move button a structured move is made with (a meld action: laying down the
   selection; a lay-off or a swap goes through the meld itself, so none). */
export function hintedButton(move) {
  if (!move) {
    return null;
  }
  return { take: "take", push: "push", discard: "discard", contract: "lay", meld: "lay" }[move.do] ||
    null;
}

/* Which of the hand's card keys ("7H#0", "p:JK#0") to mark for ``cards`` (codes, a code
   as often as the move plays it): each code marks as many cards of it as it appears. */
export function hintedKeys(keys, cards) {
  const wanted = {};
  cards.forEach((code) => { wanted[code] = (wanted[code] || 0) + 1; });
  return keys.filter((key) => {
    const code = codeOfKey(key);
    if (wanted[code]) {
      wanted[code] -= 1;
      return true;
    }
    return false;
  });
}

/* The hint of one table. ``t``: the page (q, root, msg, state); ``on``: send(message),
   newId(), myTurn(), busy(). */
export function makeHints(t, on) {
  const { msg, state } = t;
  let asked = null; // the id of the hint asked for, until answered
  let shown = null; // the answer, for the view at its seq

  function ask() {
    asked = on.newId();
    on.send({ type: "hint", id: asked });
  }

  function answered(message) {
    if (message.id !== asked) {
      return;
    }
    asked = null;
    shown = message;
  }

  function refused(id) {
    // whether an error answered the hint asked for (the table says it as any refusal)
    if (id === null || id !== asked) {
      return false;
    }
    asked = null;
    return true;
  }

  function current() {
    return shown && state.view && shown.seq === state.view.seq ? shown : null;
  }

  function render() {
    const button = t.q('[data-do="hint"]');
    if (!button) {
      return; // no hints at this table
    }
    const hint = current();
    setEnabled(button, on.myTurn() && !on.busy() && asked === null,
      asked !== null ? msg.hint_thinking : msg.why_hint);
    const box = t.q("[data-hint-box]");
    box.hidden = hint === null;
    box.textContent = hint ? hint.reason : "";
    t.root.querySelectorAll(".hinted").forEach((el) => el.classList.remove("hinted"));
    if (hint === null) {
      return;
    }
    const keys = Array.prototype.map.call(
      t.root.querySelectorAll("[data-hand] [data-key], [data-pending] [data-key]"),
      (b) => b.getAttribute("data-key"));
    hintedKeys(keys, hintedCards(hint.move)).forEach((key) => {
      t.q('[data-key="' + key + '"]').classList.add("hinted");
    });
    const which = hintedButton(hint.move);
    if (which) {
      t.q('[data-do="' + which + '"]').classList.add("hinted");
    }
  }

  return { ask, answered, refused, render };
}
