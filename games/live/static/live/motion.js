/* Moves shown as motion: a card drawn, pushed, discarded or laid down slides there from
   where it came, so that a person sees what a bot did rather than finding the table
   changed. Each slide lasts MOTION_MS; none when the person's system asks for reduced
   motion. What goes where is a pure function of the events (flights); the page part
   measures the table before and after it is drawn and slides the cards. */

import { cardBack, splitCode } from "../games/cards.js";
import { codeOfKey } from "./layout.js";

export const MOTION_MS = 260; // at most 300: long enough to follow, short enough not to wait for

function at(seat, viewer) {
  // a seat's cards: the viewer's own hand, or the seat's box on the felt
  return seat === viewer ? "hand" : "seat:" + seat;
}

function eventFlights(e, viewer) {
  const move = e.move;
  const from = at(e.seat, viewer);
  if (move.do === "take") { // R6.3: the discard's top into the hand
    return [{ card: e.card, from: "pile", to: from }];
  }
  if (move.do === "push") {
    if (!e.card) {
      return []; // a push that ended the hand (R6.4): nothing was passed
    }
    // R6.3: the discard and the stock's top to the left, then the pusher draws; the stock
    // card face up only to the one who receives it
    const left = at((e.seat + 1) % 4, viewer);
    return [{ card: e.card, from: "pile", to: left },
      { card: left === "hand" ? e.private || null : null, from: "stock", to: left },
      { card: null, from: "stock", to: from }];
  }
  if (move.do === "discard") { // R6.6
    return [{ card: move.card, from, to: "pile" }];
  }
  if (move.do === "contract" || move.do === "meld") { // R7.1, R7.3: onto new melds
    return move.melds.flatMap((meld) => meld.cards.map((card) => ({ card, from, to: "melds" })));
  }
  if (move.do === "layoff") { // R7.3
    return move.cards.map((card) => ({ card, from, to: "meld:" + move.meld }));
  }
  if (move.do === "swap") { // R7.4: the natural in, the wild out to its taker
    return [{ card: move.card, from, to: "meld:" + move.meld },
      { card: move.wild, from: "meld:" + move.meld, to: from }];
  }
  return [];
}

export function flights(events, viewer, handNo) {
  // What slides where for ``events`` seen from ``viewer``'s seat (null: a spectator):
  // [{card (a code, or null when the viewer may not see it), from, to}], each place
  // "pile", "stock", "hand" (the viewer's), "seat:N", "meld:ID" or "melds" (new ones).
  // Only the last mover's run of moves in hand ``handNo``: a page that fell behind
  // catches up at once rather than replaying a round.
  const mine = events.filter((e) => e.hand_no === handNo && !e.hand_result);
  let first = mine.length;
  while (first > 0 && mine[first - 1].seat === mine[mine.length - 1].seat) {
    first -= 1;
  }
  return mine.slice(first).flatMap((e) => eventFlights(e, viewer));
}

function sameCard(a, b) {
  // a meld's "JK=7H" is the hand's "JK"
  return a === b || splitCode(a).base === splitCode(b).base;
}

function centre(box) {
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

/* The motion of one table. ``t``: the page (root, q, w: the cards' words). */
export function makeMotion(t) {
  let before = {}; // the viewer's cards before the table is drawn anew: key -> box
  const still = () => Boolean(window.matchMedia &&
    window.matchMedia("(prefers-reduced-motion: reduce)").matches);

  function handCards() {
    return Array.prototype.slice.call(t.root.querySelectorAll(
      "[data-hand] [data-key], [data-pending] [data-key]"));
  }

  function remember() {
    before = {};
    handCards().forEach((b) => {
      before[b.getAttribute("data-key")] = b.querySelector(".pcard").getBoundingClientRect();
    });
  }

  function slide(node, from) {
    const to = centre(node.getBoundingClientRect());
    const start = centre(from);
    return node.animate([{ transform: "translate(" + (start.x - to.x) + "px, " + (start.y - to.y) +
      "px)" }, { transform: "none" }], { duration: MOTION_MS, easing: "ease-out", id: "move" });
  }

  function fly(card, from, to) {
    // a card with no place of its own on the felt (into another seat's hand): drawn for
    // the slide and gone after it
    const ghost = card ? t.w.playingCard(card, false) : cardBack();
    ghost.classList.add("flying");
    ghost.style.setProperty("left", from.left + "px");
    ghost.style.setProperty("top", from.top + "px");
    t.root.appendChild(ghost);
    const box = ghost.getBoundingClientRect();
    const start = centre(box);
    const end = centre(to);
    const slid = ghost.animate([{ transform: "none" }, { transform: "translate(" + (end.x - start.x) +
      "px, " + (end.y - start.y) + "px) scale(0.6)", opacity: 0.4 }],
    { duration: MOTION_MS, easing: "ease-in", id: "move" });
    const gone = () => ghost.remove();
    slid.addEventListener("finish", gone);
    slid.addEventListener("cancel", gone);
  }

  function play(events, viewer, handNo) {
    // after the table is drawn: each flight of ``events`` slides
    const planned = flights(events, viewer, handNo);
    if (!planned.length || still()) {
      return;
    }
    const claimed = new Set();
    const kept = new Set(handCards().map((b) => b.getAttribute("data-key")));
    const gone = Object.keys(before).filter((key) => !kept.has(key));
    const fresh = handCards().filter((b) => !(b.getAttribute("data-key") in before));

    function take(list, card, keyOf) {
      // the first of ``list`` not yet used that holds ``card`` (null: any)
      const found = list.find((item) => !claimed.has(item) &&
        (card === null || sameCard(keyOf(item), card)));
      if (found !== undefined) {
        claimed.add(found);
      }
      return found;
    }

    function box(place, card) {
      // where a flight starts
      if (place === "hand") {
        const key = take(gone, card, codeOfKey);
        return key ? before[key] : t.q(".your-hand").getBoundingClientRect();
      }
      const [kind, id] = place.split(":");
      const node = kind === "pile" ? t.q("[data-top]") : kind === "stock" ? t.q("[data-stock]")
        : kind === "seat" ? t.q('[data-seat-no="' + id + '"]') : t.q('[data-meld-id="' + id + '"]');
      return node ? node.getBoundingClientRect() : null;
    }

    function target(place, card) {
      // the card where a flight ends, or null
      const codeOf = (node) => node.getAttribute("data-code");
      if (place === "hand") {
        const button = take(fresh, card, (b) => codeOfKey(b.getAttribute("data-key")));
        return button ? button.querySelector(".pcard") : null;
      }
      const within = place === "pile" ? "[data-top]" : place === "melds" ? ".table-melds .fresh"
        : '[data-meld-id="' + place.split(":")[1] + '"]';
      return take(Array.prototype.slice.call(t.root.querySelectorAll(within + " [data-code]")),
        card, codeOf) || null;
    }

    planned.forEach((f) => {
      const from = box(f.from, f.card);
      if (from === null) {
        return;
      }
      if (f.to.indexOf("seat:") === 0) {
        const seat = box(f.to, null);
        if (seat !== null) {
          fly(f.card, from, seat);
        }
        return;
      }
      const node = target(f.to, f.card);
      if (node) {
        slide(node, from);
      }
    });
  }

  return { remember, play };
}
