/* A live table, part 4 of 7: the table drawn from the last view. The seats sit round the
   felt as the replay lays them out (the viewer at the bottom, the partner opposite, the
   left and right opponents at the sides; a spectator sees seat 0 at the bottom), each
   with its name, person or bot, cards left, contract, dealer, clock, a "thinking" mark on
   the seat to move and its last move; the stock and the discard pile in the middle; the
   melds by team; the player's hand as an overlapping fan, the selected cards raised. */
(function () {
  "use strict";

  var P = window.PushLive;
  if (!P.root) {
    return;
  }
  var msg = P.msg;
  var config = P.config;
  var players = config.players;
  var S = P.s = { view: null, selected: [], sortBy: P.stored("push-sort", "suit") === "rank"
    ? "rank" : "suit", cursor: null, fresh: {}, acting: null, last: [null, null, null, null] };
  var PLACES = ["bottom", "left", "top", "right"];
  var SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternating colours, as the replay sorts
  var RANK_VALUE = { A: 14, T: 10, J: 11, Q: 12, K: 13 };

  P.seatOrder = function () {
    // the viewer first, then clockwise: left opponent, partner, right opponent
    var order = [];
    for (var i = 0; i < 4; i++) {
      order.push(config.seat === null ? i : (config.seat + i) % 4);
    }
    return order;
  };

  P.ended = function () {
    // over, or ended unfinished (abandoned, or ended by the organisers)
    var v = S.view;
    return v.is_over || v.status === "abandoned" || v.status === "ended";
  };

  // The cards in hand (and freed wilds), each with a key that stays while the card does.
  P.entries = function () {
    var seen = {};
    var out = [];
    function add(code, pending) {
      var key = (pending ? "p:" : "") + code;
      seen[key] = (seen[key] || 0) + 1;
      out.push({ code: code, key: key + "#" + (seen[key] - 1), pending: pending });
    }
    (S.view.hand || []).forEach(function (code) { add(code, false); });
    (S.view.pending || []).forEach(function (item) { add(item[0], true); });
    return out;
  };

  function sortKey(code) {
    var c = P.splitCode(code);
    var wild = c.rank === "JK" || c.rank === "2" ? 1 : 0;
    var rank = c.rank === "JK" ? 99 : RANK_VALUE[c.rank] || parseInt(c.rank, 10);
    var suit = SUIT_ORDER[c.suit] === undefined ? 9 : SUIT_ORDER[c.suit];
    return S.sortBy === "rank" ? [wild, rank, suit] : [wild, suit, rank];
  }

  P.sorted = function (list) {
    return list.slice().sort(function (a, b) {
      var x = sortKey(a.code);
      var y = sortKey(b.code);
      for (var i = 0; i < x.length; i++) {
        if (x[i] !== y[i]) {
          return x[i] - y[i];
        }
      }
      return 0;
    });
  };

  P.selectedCodes = function () {
    var byKey = {};
    P.entries().forEach(function (e) { byKey[e.key] = e.code; });
    return S.selected.map(function (key) { return byKey[key]; });
  };

  // ---- the seats ----

  function seatItem(seat) {
    var v = S.view;
    var state = (v.seats || [])[seat] || {};
    var toMove = !P.ended() && v.to_move === seat;
    var place = PLACES[(seat - (config.seat === null ? 0 : config.seat) + 4) % 4];
    var item = P.element("li", "table-seat seat-" + place + (toMove ? " to-move" : "") +
      (S.acting === seat ? " acting" : ""));
    item.setAttribute("data-place", place);
    item.setAttribute("data-seat-no", String(seat));
    var name = P.element("div", "seat-name");
    name.appendChild(P.element("strong", "", players[seat]));
    if (seat === config.seat) {
      name.appendChild(document.createTextNode(" (" + msg.you + ")"));
    }
    if (!config.humans[seat] || state.substitute) {
      // a person's seat played by its substitute says so, never hidden
      name.appendChild(document.createTextNode(" "));
      name.appendChild(P.element("span", "badge badge-bot", !config.humans[seat] ? msg.bot
        : state.pinned ? msg.substitute_pinned : msg.substitute));
      var level = (config.bots || [])[seat];
      if (level && !config.humans[seat]) {
        name.appendChild(document.createTextNode(" "));
        name.appendChild(P.element("span", "seat-level", level));
      }
    }
    item.appendChild(name);
    var facts = P.element("div", "seat-facts");
    var count = P.element("span", "seat-count");
    count.appendChild(P.cardBack());
    count.appendChild(document.createTextNode(P.countText(v.hand_sizes[seat])));
    facts.appendChild(count);
    [[v.contract_down[seat], msg.contract_down, "seat-down"], [seat === v.dealer, msg.dealer, ""],
      [state.reserve !== null && state.reserve !== undefined, P.text(msg.reserve,
        { time: P.clockText(state.reserve || 0) }), "seat-reserve"]].forEach(function (fact) {
      if (fact[0]) {
        facts.appendChild(document.createTextNode(" \u00b7 "));
        facts.appendChild(P.element("span", fact[2], fact[1]));
      }
    });
    item.appendChild(facts);
    if (toMove) {
      var mark = P.element("div", "seat-thinking", seat === config.seat ? msg.to_move
        : msg.thinking);
      mark.appendChild(P.element("span", "seat-clock"));
      item.appendChild(mark);
    }
    if (S.last[seat]) {
      var last = P.element("div", "seat-last");
      last.appendChild(S.last[seat].cloneNode(true));
      item.appendChild(last);
    }
    return item;
  }

  P.renderSeats = function () {
    var list = P.q("[data-seats]");
    list.textContent = "";
    P.seatOrder().forEach(function (seat) { list.appendChild(seatItem(seat)); });
  };

  // ---- the middle: stock and discard pile ----

  P.renderPiles = function () {
    var v = S.view;
    var top = P.q("[data-top]");
    top.textContent = "";
    if (v.discard_top) {
      var shown = P.playingCard(v.discard_top, true);
      if (S.fresh.top) {
        shown.className += " fresh";
      }
      top.appendChild(shown);
      top.appendChild(P.element("span", "pile-count", P.countText(v.discard_size)));
    } else {
      top.textContent = msg.empty;
    }
    var stock = P.q("[data-stock]");
    stock.textContent = "";
    if (v.stock_size) {
      stock.appendChild(P.cardBack());
    }
    stock.appendChild(P.element("span", "pile-count", P.countText(v.stock_size)));
    stock.classList.toggle("low", v.stock_size < 2);
  };

  // ---- the melds, by team, each owner's together ----

  P.renderMelds = function (canPlay, why) {
    var v = S.view;
    var box = P.q("[data-melds]");
    box.textContent = "";
    if (!v.melds.length) {
      box.appendChild(P.element("p", "no-melds", msg.no_melds));
      return;
    }
    var mine = config.seat === null ? 0 : config.seat % 2;
    [1 - mine, mine].forEach(function (team) {
      var seats = P.seatOrder().filter(function (seat) { return seat % 2 === team; });
      var groups = seats.map(function (seat) {
        return { seat: seat, melds: v.melds.filter(function (m) { return m.owner === seat; }) };
      }).filter(function (g) { return g.melds.length; });
      if (!groups.length) {
        return;
      }
      var block = P.element("div", "meld-team" + (team === mine && config.seat !== null ? " ours" : ""));
      block.appendChild(P.element("h3", "", msg.teams[team]));
      groups.forEach(function (g) {
        var group = P.element("div", "meld-group");
        group.appendChild(P.element("h4", "", P.text(msg.melds_of, { player: players[g.seat] })));
        var list = P.element("ul");
        g.melds.forEach(function (meld) { list.appendChild(meldItem(meld, canPlay, why)); });
        group.appendChild(list);
        block.appendChild(group);
      });
      box.appendChild(block);
    });
  };

  function meldItem(meld, canPlay, why) {
    var item = P.element("li", S.fresh.melds && S.fresh.melds[meld.id] ? "fresh" : "");
    var holder = item;
    if (config.seat !== null) {
      holder = P.element("button", "meld-button");
      holder.type = "button";
      holder.setAttribute("data-meld", String(meld.id));
      holder.setAttribute("data-key", "meld:" + meld.id);
      holder.setAttribute("data-why", "why-meld"); // the line under the melds says why
      P.setEnabled(holder, canPlay, why);
      holder.setAttribute("aria-label", P.text(msg.meld_button, { id: meld.id,
        kind: msg[meld.kind], cards: meld.cards.map(P.cardLabel).join(", ") }));
      item.appendChild(holder);
    }
    holder.appendChild(P.element("span", "meld-id", meld.id + " \u00b7 " + msg[meld.kind]));
    var row = P.element("span", "meld-cards");
    meld.cards.forEach(function (code) {
      row.appendChild(P.playingCard(code, config.seat === null));
    });
    holder.appendChild(row);
    return item;
  }

  // ---- the player's hand: a fan ----

  function cardButton(entry, canSelect) {
    var item = P.element("li");
    var button = P.element("button", "card-button");
    button.type = "button";
    button.setAttribute("data-key", entry.key);
    button.setAttribute("aria-pressed", String(S.selected.indexOf(entry.key) >= 0));
    button.disabled = !canSelect;
    var label = P.cardLabel(entry.code);
    if (entry.pending) {
      label = P.text(msg.freed_wild, { card: label });
    } else if (S.view.taken === entry.code) {
      label = P.text(msg.card_taken, { card: label });
      button.className += " taken";
    }
    if (S.fresh.hand && S.fresh.hand[entry.key]) {
      button.className += " fresh";
    }
    button.setAttribute("aria-label", label);
    button.title = label;
    button.tabIndex = entry.key === S.cursor ? 0 : -1;
    button.appendChild(P.playingCard(entry.code, false));
    item.appendChild(button);
    return item;
  }

  P.renderHand = function (canSelect) {
    var hand = P.q("[data-hand]");
    var pending = P.q("[data-pending]");
    hand.textContent = "";
    pending.textContent = "";
    var all = P.entries();
    var held = P.sorted(all.filter(function (e) { return !e.pending; }));
    var freed = all.filter(function (e) { return e.pending; });
    var keys = held.concat(freed).map(function (e) { return e.key; });
    if (keys.indexOf(S.cursor) < 0) {
      S.cursor = keys.length ? keys[0] : null; // one card of the hand is in the Tab order
    }
    held.forEach(function (e) { hand.appendChild(cardButton(e, canSelect)); });
    freed.forEach(function (e) { pending.appendChild(cardButton(e, canSelect)); });
    P.q("[data-pending-box]").hidden = !freed.length;
    fan(hand, held.length);
    var codes = P.selectedCodes();
    var line = P.q("[data-selection]");
    line.textContent = "";
    line.appendChild(codes.length ? P.fill(msg.selection, { cards: P.cards(codes, " ") })
      : document.createTextNode(msg.selection_none));
    P.root.querySelectorAll("[data-sort]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-sort") === S.sortBy));
    });
  };

  function fan(hand, n) {
    // overlap the cards just enough for the hand to fit its row
    var width = hand.clientWidth;
    var first = hand.querySelector(".card-button");
    var card = first ? first.offsetWidth : 52; // a card's width (table.css .card-button)
    if (n < 2 || !width) {
      hand.style.removeProperty("--overlap");
      return;
    }
    var step = Math.min(card + 4, (width - card - 4) / (n - 1));
    hand.style.setProperty("--overlap", Math.round(step - card) + "px");
  }

  // ---- the status line, the scores, the clock, the director ----

  var deadlineTimer = null;

  P.turnText = function (mine) {
    var v = S.view;
    if (v.is_over) {
      return msg.game_over;
    }
    if (P.ended()) {
      return msg.table_ended;
    }
    if (!mine) {
      return P.text(msg.waiting_for, { player: config.players[v.to_move] });
    }
    if (v.pending && v.pending.length) {
      return P.text(msg.your_turn_pending, { cards: v.pending.map(function (p) {
        return P.cardLabel(p[0]);
      }).join(", ") });
    }
    return v.phase === "draw" ? msg.your_turn_draw : msg.your_turn_play;
  };

  P.renderScores = function () {
    var v = S.view;
    [0, 1].forEach(function (team) {
      P.q('[data-total="' + team + '"]').textContent = String(v.totals[team]);
    });
    var body = P.q("[data-scores]");
    body.textContent = "";
    v.scores.forEach(function (scores, i) {
      var row = P.element("tr");
      var head = P.element("th", "", String(i + 1));
      head.scope = "row";
      row.appendChild(head);
      scores.forEach(function (score) { row.appendChild(P.element("td", "", String(score))); });
      body.appendChild(row);
    });
  };

  P.renderDeadline = function () {
    var v = S.view;
    var box = P.q("[data-deadline]");
    if (deadlineTimer !== null) {
      window.clearInterval(deadlineTimer);
      deadlineTimer = null;
    }
    box.hidden = !v.deadline || P.ended();
    if (box.hidden) {
      return;
    }
    var clock = P.q(".to-move .seat-clock");
    function show(seconds) {
      box.textContent = P.text(msg.time_left, { time: P.clockText(seconds) });
      if (clock) {
        clock.textContent = " " + P.clockText(seconds);
      }
    }
    if (v.paused) { // the clock stands while the director has the table paused
      show(v.time_left);
      return;
    }
    // counted from the time left the server gave, so a client's wrong clock does not matter
    var end = Date.now() + 1000 * v.time_left;
    function tick() {
      show((end - Date.now()) / 1000);
    }
    tick();
    deadlineTimer = window.setInterval(tick, 1000);
  };

  P.renderDirector = function () {
    var v = S.view;
    P.q("[data-paused]").hidden = !v.paused || P.ended();
    var note = P.q("[data-director-message]");
    note.hidden = !v.message;
    note.textContent = v.message ? P.text(msg.director_says, { message: v.message }) : "";
  };

  P.keyOrder = function () {
    return Array.prototype.map.call(P.root.querySelectorAll("[data-hand] [data-key], " +
      "[data-pending] [data-key]"), function (b) { return b.getAttribute("data-key"); });
  };
})();
