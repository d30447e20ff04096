/* A live table's felt drawn from the last view: the seats round it, each with its name,
   person or bot, cards left, contract, dealer, clock, a "thinking" mark on the seat to
   move and its last move; the stock and the discard pile in the middle; the melds by
   team; the player's hand as an overlapping fan (in rows when it is long), the selected
   cards raised. Where things go is layout.js's; this only draws. */

import { cardBack, clockText, element, fill, text } from "../games/cards.js";
import { entries, fanLayout, isEnded, placeOf, seatOrder, sorted, teamsInOrder } from "./layout.js";

export function isOff(button) {
  return button.disabled || button.getAttribute("aria-disabled") === "true";
}

export function setEnabled(button, on, why) {
  // off by aria-disabled: still focusable, so it can say why (its description)
  if (on) {
    button.removeAttribute("aria-disabled");
  } else {
    button.setAttribute("aria-disabled", "true");
  }
  const reason = button.getAttribute("data-why");
  if (reason) {
    const box = document.getElementById(reason);
    if (box && button.hasAttribute("data-do")) {
      box.textContent = on ? "" : why || "";
    }
    if (on || !why) {
      button.removeAttribute("aria-describedby");
    } else {
      button.setAttribute("aria-describedby", reason);
    }
  }
}

/* The drawing of one table. ``t``: the page (root, q, msg, config), the words (w: the
   cards', from ../games/cards.js) and the table's state, read here, never changed: view,
   selected, sortBy, cursor, fresh, acting, last. */
export function makeDrawing(t) {
  const { msg, config, w, state } = t;
  const players = config.players;

  function seatItem(seat) {
    const v = state.view;
    const seats = v.seats || [];
    const seen = seats[seat] || {};
    const toMove = !isEnded(v) && v.to_move === seat;
    const place = placeOf(seat, config.seat);
    const item = element("li", "table-seat seat-" + place + (toMove ? " to-move" : "") +
      (state.acting === seat ? " acting" : ""));
    item.setAttribute("data-place", place);
    item.setAttribute("data-seat-no", String(seat));
    const name = element("div", "seat-name");
    name.appendChild(element("strong", "", players[seat]));
    if (seat === config.seat) {
      name.appendChild(document.createTextNode(" (" + msg.you + ")"));
    }
    if (!config.humans[seat] || seen.substitute) {
      // a person's seat played by its substitute says so, never hidden
      name.appendChild(document.createTextNode(" "));
      // a bot's own seat says "bot", one holding a person's seat whom it plays for
      name.appendChild(element("span", "badge badge-bot", !config.humans[seat]
        ? (config.marks || [])[seat] || msg.bot
        : seen.pinned ? msg.substitute_pinned : msg.substitute));
      const level = (config.bots || [])[seat];
      if (level && !config.humans[seat]) {
        name.appendChild(document.createTextNode(" "));
        name.appendChild(element("span", "seat-level", level));
      }
    }
    item.appendChild(name);
    const facts = element("div", "seat-facts");
    const count = element("span", "seat-count");
    count.appendChild(cardBack());
    count.appendChild(document.createTextNode(w.countText(v.hand_sizes[seat])));
    facts.appendChild(count);
    const reserve = seen.reserve !== null && seen.reserve !== undefined;
    [[v.contract_down[seat], msg.contract_down, "seat-down"], [seat === v.dealer, msg.dealer, ""],
      [reserve, text(msg.reserve, { time: clockText(seen.reserve || 0) }), "seat-reserve"]
    ].forEach(([shown, words, className]) => {
      if (shown) {
        facts.appendChild(document.createTextNode(" \u00b7 "));
        facts.appendChild(element("span", className, words));
      }
    });
    item.appendChild(facts);
    if (toMove) {
      const mark = element("div", "seat-thinking", seat === config.seat ? msg.to_move
        : msg.thinking);
      mark.appendChild(element("span", "seat-clock"));
      item.appendChild(mark);
    }
    if (state.last[seat]) {
      const last = element("div", "seat-last");
      last.appendChild(state.last[seat].cloneNode(true));
      item.appendChild(last);
    }
    return item;
  }

  function renderSeats() {
    const list = t.q("[data-seats]");
    list.textContent = "";
    seatOrder(config.seat).forEach((seat) => list.appendChild(seatItem(seat)));
  }

  function renderPiles() {
    const v = state.view;
    const top = t.q("[data-top]");
    top.textContent = "";
    if (v.discard_top) {
      const shown = w.playingCard(v.discard_top, true);
      shown.setAttribute("data-code", v.discard_top); // for motion.js, as a meld's cards
      if (state.fresh.top) {
        shown.className += " fresh";
      }
      top.appendChild(shown);
      top.appendChild(element("span", "pile-count", w.countText(v.discard_size)));
    } else {
      top.textContent = msg.empty;
    }
    const stock = t.q("[data-stock]");
    stock.textContent = "";
    if (v.stock_size) {
      stock.appendChild(cardBack());
    }
    stock.appendChild(element("span", "pile-count", w.countText(v.stock_size)));
    stock.classList.toggle("low", v.stock_size < 2);
  }

  function meldItem(meld, canPlay, why) {
    const item = element("li", state.fresh.melds && state.fresh.melds[meld.id] ? "fresh" : "");
    item.setAttribute("data-meld-id", String(meld.id));
    let holder = item;
    if (config.seat !== null) {
      holder = element("button", "meld-button");
      holder.type = "button";
      holder.setAttribute("data-meld", String(meld.id));
      holder.setAttribute("data-key", "meld:" + meld.id);
      holder.setAttribute("data-why", "why-meld"); // the line under the melds says why
      setEnabled(holder, canPlay, why);
      holder.setAttribute("aria-label", text(msg.meld_button, { id: meld.id,
        kind: msg[meld.kind], cards: meld.cards.map(w.cardLabel).join(", ") }));
      item.appendChild(holder);
    }
    holder.appendChild(element("span", "meld-id", meld.id + " \u00b7 " + msg[meld.kind]));
    const row = element("span", "meld-cards");
    meld.cards.forEach((code) => {
      row.appendChild(w.playingCard(code, config.seat === null)).setAttribute("data-code", code);
    });
    holder.appendChild(row);
    return item;
  }

  function renderMelds(canPlay, why) {
    // by team, each owner's together
    const v = state.view;
    const box = t.q("[data-melds]");
    box.textContent = "";
    if (!v.melds.length) {
      box.appendChild(element("p", "no-melds", msg.no_melds));
      return;
    }
    const mine = teamsInOrder(config.seat)[1];
    teamsInOrder(config.seat).forEach((team) => {
      const groups = seatOrder(config.seat).filter((seat) => seat % 2 === team)
        .map((seat) => ({ seat, melds: v.melds.filter((m) => m.owner === seat) }))
        .filter((g) => g.melds.length);
      if (!groups.length) {
        return;
      }
      const block = element("div", "meld-team" + (team === mine && config.seat !== null ? " ours" : ""));
      block.appendChild(element("h3", "", msg.teams[team]));
      groups.forEach((g) => {
        const group = element("div", "meld-group");
        group.appendChild(element("h4", "", text(msg.melds_of, { player: players[g.seat] })));
        const list = element("ul");
        g.melds.forEach((meld) => list.appendChild(meldItem(meld, canPlay, why)));
        group.appendChild(list);
        block.appendChild(group);
      });
      box.appendChild(block);
    });
  }

  function cardButton(entry, canSelect, cursor) {
    const item = element("li");
    const button = element("button", "card-button");
    button.type = "button";
    button.setAttribute("data-key", entry.key);
    button.setAttribute("aria-pressed", String(state.selected.indexOf(entry.key) >= 0));
    button.disabled = !canSelect;
    let label = w.cardLabel(entry.code);
    if (entry.pending) {
      label = text(msg.freed_wild, { card: label });
    } else if (state.view.taken === entry.code) {
      label = text(msg.card_taken, { card: label });
      button.className += " taken";
    }
    if (state.fresh.hand && state.fresh.hand[entry.key]) {
      button.className += " fresh";
    }
    button.setAttribute("aria-label", label);
    button.title = label;
    button.tabIndex = entry.key === cursor ? 0 : -1;
    button.appendChild(w.playingCard(entry.code, false));
    item.appendChild(button);
    return item;
  }

  function renderHand(canSelect, selectedCodes) {
    // the hand as a fan; returns the key of the card in the Tab order (the cursor), which
    // stays the state's unless that card has gone
    const hand = t.q("[data-hand]");
    const pending = t.q("[data-pending]");
    hand.textContent = "";
    pending.textContent = "";
    const all = entries(state.view);
    const held = sorted(all.filter((e) => !e.pending), state.sortBy);
    const freed = all.filter((e) => e.pending);
    const keys = held.concat(freed).map((e) => e.key);
    const cursor = keys.indexOf(state.cursor) >= 0 ? state.cursor : keys.length ? keys[0] : null;
    held.forEach((e) => hand.appendChild(cardButton(e, canSelect, cursor)));
    freed.forEach((e) => pending.appendChild(cardButton(e, canSelect, cursor)));
    t.q("[data-pending-box]").hidden = !freed.length;
    // the fan's grid (table.css): a column a step wide for each card but a row's last,
    // which has its whole width; a row a pitch high for each row but the last
    const face = hand.querySelector(".card-button .pcard");
    const fan = fanLayout(hand.clientWidth, face ? face.offsetWidth : 52, held.length);
    hand.style.setProperty("grid-template-columns", fan.perRow < 2 ? "auto"
      : "repeat(" + (fan.perRow - 1) + ", " + fan.step + "px) auto");
    hand.style.setProperty("grid-template-rows", fan.rows < 2 ? "auto"
      : "repeat(" + (fan.rows - 1) + ", var(--fan-pitch)) auto");
    const line = t.q("[data-selection]");
    line.textContent = "";
    line.appendChild(selectedCodes.length ? fill(msg.selection, { cards: w.cards(selectedCodes, " ") })
      : document.createTextNode(msg.selection_none));
    t.root.querySelectorAll("[data-sort]").forEach((button) => {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-sort") === state.sortBy));
    });
    return cursor;
  }

  function bringIntoView() {
    // a table opened on a small screen: the felt fills it (the site's header and the
    // title above it scroll away), so that a decision needs no scrolling
    const felt = t.q("[data-felt]");
    const box = felt.getBoundingClientRect();
    if (box.bottom > window.innerHeight || box.top < 0) {
      felt.scrollIntoView({ block: "start" });
    }
  }

  return { bringIntoView, renderSeats, renderPiles, renderMelds, renderHand };
}
