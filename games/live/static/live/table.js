/* A live table (games/live): the seat's view from the websocket, drawn and played.

   The server holds the game. This script shows the view it is sent (a seat's hand and
   legal moves, or a spectator's public table), announces each action in words (the match
   replay's wording, in a role="log" region) and sends the player's moves:
   {"type": "act", "action": <the engine's text form>, "id": <unique>}. A move is resent
   with the same id after a reconnection until it is acknowledged, so it counts once. On a
   gap in the sequence numbers, or after reconnecting, it asks {"type": "resume", "since":
   n} for what it missed. Selected cards become a move through {"type": "ways", "cards":
   [...], "meld": null or a meld id}: the server answers with every legal way to play
   them; one is played, several are offered to choose from, none is explained. Every word
   comes from the page (json_script), translated. */
(function () {
  "use strict";

  var root = document.querySelector("[data-live-table]");
  if (!root) {
    return;
  }
  var msg = JSON.parse(document.getElementById(root.getAttribute("data-messages")).textContent);
  var config = JSON.parse(document.getElementById(root.getAttribute("data-config")).textContent);
  var players = config.players;
  var mySeat = config.seat;
  var baseTitle = document.title;

  var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var RED = { H: true, D: true };
  var SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternating colours, as the replay sorts
  var RANK_VALUE = { A: 14, T: 10, J: 11, Q: 12, K: 13 };
  var LOG_SIZE = 40;

  function q(selector) {
    return root.querySelector(selector);
  }

  // ---- words and cards (as games/static/games/replay.js draws them) ----

  function text(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (all, key) {
      return values[key] === undefined ? all : String(values[key]);
    });
  }

  function fill(template, values) {
    // "{player} takes {card}" -> a fragment; a value may be a string or a DOM node.
    var out = document.createDocumentFragment();
    var parts = String(template).split(/\{(\w+)\}/);
    for (var i = 0; i < parts.length; i++) {
      var value = i % 2 ? values[parts[i]] : parts[i];
      if (value === undefined || value === null || value === "") {
        continue;
      }
      out.appendChild(typeof value === "object" ? value : document.createTextNode(String(value)));
    }
    return out;
  }

  function cardName(rank, suit) {
    if (rank === "JK") {
      return msg.joker;
    }
    var name = msg.ranks[rank] || rank;
    return suit ? text(msg.card, { rank: name, suit: msg.suits[suit] }) : name;
  }

  function splitCode(code) {
    // "7H", "TS", "JK", or a wild in a meld: "JK=7", "2C=TS"
    var parts = code.split("=");
    var base = parts[0];
    return { base: base, rank: base === "JK" ? "JK" : base.charAt(0),
      suit: base === "JK" ? "" : base.charAt(1), as: parts[1] || "" };
  }

  function cardLabel(code) {
    var c = splitCode(code);
    var label = cardName(c.rank, c.suit);
    if (c.as) {
      label = text(msg.wild_as, { card: label, what: cardName(c.as.charAt(0), c.as.charAt(1)) });
    }
    return label;
  }

  function face(rank, suit) {
    return rank === "JK" ? "JK" : (rank === "T" ? "10" : rank) + (suit ? SUITS[suit] : "");
  }

  function cardFace(code) {
    // the card as drawn; its name in words for screen readers
    var c = splitCode(code);
    var span = document.createElement("span");
    span.className = "card" + (c.base === "JK" ? " joker" : RED[c.suit] ? " red" : "");
    span.textContent = face(c.rank, c.suit);
    if (c.as) {
      var as = document.createElement("span");
      as.className = "as" + (RED[c.as.charAt(1)] ? " red" : "");
      as.textContent = "\u2192" + face(c.as.charAt(0), c.as.charAt(1));
      span.appendChild(as);
    }
    return span;
  }

  function card(code) {
    var span = cardFace(code);
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", cardLabel(code));
    span.title = cardLabel(code);
    return span;
  }

  function cards(codes, separator) {
    var out = document.createDocumentFragment();
    codes.forEach(function (code, i) {
      if (i && separator) {
        out.appendChild(document.createTextNode(separator));
      }
      out.appendChild(card(code));
    });
    return out;
  }

  function melds(list) {
    var out = document.createDocumentFragment();
    list.forEach(function (meld, i) {
      if (i) {
        out.appendChild(document.createTextNode(msg.and));
      }
      out.appendChild(document.createTextNode(msg[meld.kind] + " "));
      out.appendChild(cards(meld.cards, " "));
    });
    return out;
  }

  function countText(n) {
    return n === 1 ? msg.cards_one : text(msg.cards_other, { n: n });
  }

  // ---- actions in the engine's text form (games/engine/actions.py) ----

  function parse(action) {
    // "0 take", "0 discard 4C", "0 contract set(7H 7S JK=7) set(QS QD QD)",
    // "0 meld run(4H 5H 6H)", "2 layoff 3 JK=8 9S", "2 swap 0 7S JK"
    var m = /^(\d+) (\w+) ?(.*)$/.exec(action.trim());
    var out = { seat: parseInt(m[1], 10), kind: m[2], cards: [], melds: [], meld: null };
    var words = m[3].split(/\s+/);
    if (out.kind === "contract" || out.kind === "meld") {
      var re = /(set|run)\(([^)]*)\)/g;
      var g = re.exec(m[3]);
      while (g) {
        var list = g[2].trim().split(/\s+/);
        out.melds.push({ kind: g[1], cards: list });
        out.cards = out.cards.concat(list);
        g = re.exec(m[3]);
      }
    } else if (out.kind === "layoff") {
      out.meld = parseInt(words[0], 10);
      out.cards = words.slice(1);
    } else if (out.kind === "swap") {
      out.meld = parseInt(words[0], 10);
      out.cards = [words[1]];
      out.wild = words[2];
    } else if (out.kind === "discard") {
      out.cards = [words[0]];
    }
    return out;
  }

  function outcome(end) {
    var values = { team_a: msg.teams[0], team_b: msg.teams[1],
      score_a: end.scores[0], score_b: end.scores[1] };
    if (end.out_seat !== null && end.out_seat !== undefined) {
      values.player = players[end.out_seat];
      return text(msg.out, values);
    }
    return text(msg.stock_end, values);
  }

  function describeEvent(event) {
    var a = parse(event.action);
    var values = { player: players[event.seat] };
    var template = msg[a.kind];
    if (a.kind === "take") {
      values.card = card(event.card);
    } else if (a.kind === "push") {
      if (!event.card) {
        template = msg.push_end;
      } else {
        values.left = players[(event.seat + 1) % 4];
        values.card = card(event.card);
        template = event["private"] ? msg.push_private : msg.push_public;
        values.stock_card = event["private"] ? card(event["private"]) : "";
      }
    } else if (a.kind === "discard") {
      values.card = card(a.cards[0]);
    } else if (a.kind === "contract" || a.kind === "meld") {
      values.melds = melds(a.melds);
    } else if (a.kind === "layoff") {
      values.cards = cards(a.cards, " ");
      values.meld = a.meld;
    } else if (a.kind === "swap") {
      values.card = card(a.cards[0]);
      values.wild = card(a.wild);
      values.meld = a.meld;
    }
    var out = fill(template, values);
    if (event.hand_result) {
      out.appendChild(document.createTextNode(" " + outcome(event.hand_result)));
    }
    return out;
  }

  function describeWay(action) {
    // one way of playing the selection, as a choice: "Lay down the contract: set ..."
    var a = parse(action);
    if (a.kind === "contract" || a.kind === "meld") {
      return fill(a.kind === "contract" ? msg.way_contract : msg.way_meld, { melds: melds(a.melds) });
    }
    if (a.kind === "layoff") {
      return fill(msg.way_layoff, { cards: cards(a.cards, " "), meld: a.meld });
    }
    return fill(msg.way_swap, { card: card(a.cards[0]), meld: a.meld, wild: card(a.wild) });
  }

  // ---- state ----

  var view = null; // the last view received
  var announced = null; // the sequence number up to which actions were announced
  var resumeAsked = false;
  var socket = null;
  var retries = 0;
  var outbox = {}; // id -> an act message not yet answered (resent after a reconnect)
  var selected = []; // keys of the selected cards ("7H#0": the first 7H in hand)
  var choosing = null; // the ways on offer, while the player chooses
  var question = null; // the "ways" question awaiting its answer: its id, what a no says
  var sortBy = "suit";
  var counter = 0;
  var deadlineTimer = null;
  try {
    sortBy = window.localStorage.getItem("push-sort") === "rank" ? "rank" : "suit";
  } catch (e) { /* storage may be off: sort by suit */ }

  function newId() {
    counter += 1;
    return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8) + counter;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    }
  }

  function ended() {
    // over, or ended unfinished (abandoned: nobody played at it for too long; or ended by
    // the organisers)
    return view.is_over || view.status === "abandoned" || view.status === "ended";
  }

  function myTurn() {
    return mySeat !== null && view !== null && !ended() && view.to_move === mySeat;
  }

  function busy() {
    return Object.keys(outbox).length > 0;
  }

  function legal(action) {
    return view.legal.indexOf(action) >= 0;
  }

  // The cards in hand (and freed wilds), each with a key that stays while the card does.
  function entries() {
    var seen = {};
    var out = [];
    function add(code, pending) {
      var key = (pending ? "p:" : "") + code;
      seen[key] = (seen[key] || 0) + 1;
      out.push({ code: code, key: key + "#" + (seen[key] - 1), pending: pending });
    }
    (view.hand || []).forEach(function (code) { add(code, false); });
    (view.pending || []).forEach(function (item) { add(item[0], true); });
    return out;
  }

  function rankValue(c) {
    return RANK_VALUE[c.rank] || parseInt(c.rank, 10);
  }

  function sortKey(code) {
    var c = splitCode(code);
    var wild = c.rank === "JK" || c.rank === "2" ? 1 : 0;
    var rank = c.rank === "JK" ? 99 : rankValue(c);
    var suit = SUIT_ORDER[c.suit] === undefined ? 9 : SUIT_ORDER[c.suit];
    return sortBy === "rank" ? [wild, rank, suit] : [wild, suit, rank];
  }

  function compare(a, b) {
    var x = sortKey(a.code);
    var y = sortKey(b.code);
    for (var i = 0; i < x.length; i++) {
      if (x[i] !== y[i]) {
        return x[i] - y[i];
      }
    }
    return 0;
  }

  function selectedCodes() {
    var byKey = {};
    entries().forEach(function (e) { byKey[e.key] = e.code; });
    return selected.map(function (key) { return byKey[key]; });
  }

  // ---- the log, the feedback line and the connection line ----

  function log(content) {
    var list = q("[data-log]");
    var item = document.createElement("li");
    item.appendChild(typeof content === "string" ? document.createTextNode(content) : content);
    list.appendChild(item);
    while (list.children.length > LOG_SIZE) {
      list.removeChild(list.firstChild);
    }
    list.parentNode.scrollTop = list.parentNode.scrollHeight; // the newest in sight (role=log)
  }

  function feedback(content) {
    var box = q("[data-feedback]");
    if (!box) {
      return;
    }
    box.textContent = "";
    if (content) {
      box.appendChild(typeof content === "string" ? document.createTextNode(content) : content);
    }
  }

  function connection(words) {
    q("[data-connection]").textContent = words;
  }

  // ---- the websocket ----

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + config.ws);
    socket.onopen = function () {
      retries = 0;
      if (announced !== null) {
        resumeAsked = true;
        send({ type: "resume", since: announced });
      }
      Object.keys(outbox).forEach(function (id) { send(outbox[id]); });
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

  function receive(message) {
    if (message.type === "update") {
      connection("");
      update(message.events || [], message.view);
    } else if (message.type === "ack") {
      if (outbox[message.id]) {
        delete outbox[message.id];
        selected = [];
        feedback("");
        render();
      }
    } else if (message.type === "ways") {
      if (question && message.id === question.id) {
        var noFit = question.noFit;
        question = null;
        offer(message.actions, noFit);
      }
    } else if (message.type === "error") {
      if (message.id && outbox[message.id]) {
        delete outbox[message.id];
      }
      if (question && message.id === question.id) {
        question = null;
      }
      feedback(message.rule ? text(msg.refused, { rule: message.rule, message: message.message })
        : text(msg.refused_plain, { message: message.message }));
      render();
    }
  }

  function update(events, next) {
    if (view !== null && next.seq < view.seq) {
      return; // an older answer overtaken by a newer one
    }
    if (announced === null) {
      announced = next.seq; // the first snapshot: nothing to announce
    }
    var fresh = events.filter(function (e) { return e.seq > announced; });
    if (next.seq > announced && (!fresh.length || fresh[0].seq !== announced + 1)) {
      // a gap (a dropped notice, or a reconnection): ask for what was missed
      if (!resumeAsked) {
        resumeAsked = true;
        send({ type: "resume", since: announced });
      }
    } else {
      resumeAsked = false;
      fresh.forEach(function (e) {
        var line = describeEvent(e);
        if (e.bot && config.humans[e.seat]) { // a bot played it for a person: said, never hidden
          var mark = document.createElement("span");
          mark.className = "badge badge-bot";
          mark.textContent = msg.played_by_bot;
          var item = document.createDocumentFragment();
          item.appendChild(typeof line === "string" ? document.createTextNode(line) : line);
          item.appendChild(document.createTextNode(" "));
          item.appendChild(mark);
          line = item;
        }
        log(line);
      });
      announced = next.seq;
    }
    var previous = view;
    view = next;
    if (previous !== null && previous.hand_no !== next.hand_no) {
      log(fill(msg.deal, { hand: next.hand_no, dealer: players[next.dealer],
        size: msg.hand_sizes[String(next.hand_no)], contract: msg.contracts[String(next.hand_no)] }));
    }
    var wasMyDraw = previous !== null && previous.to_move === mySeat && previous.phase === "draw";
    if (myTurn() && next.phase === "draw" && !wasMyDraw) {
      log(msg.your_turn_draw);
    }
    if (previous === null || previous.seq !== next.seq) {
      choosing = null;
    }
    var keys = {};
    entries().forEach(function (e) { keys[e.key] = true; });
    selected = selected.filter(function (key) { return keys[key]; });
    render();
  }

  // ---- playing ----

  function act(action) {
    var id = newId();
    outbox[id] = { type: "act", action: action, id: id };
    choosing = null;
    feedback("");
    send(outbox[id]);
    render();
  }

  function offer(ways, noFit) {
    // none: say so; one: play it; more: let the player choose
    if (!ways.length) {
      feedback(noFit);
    } else if (ways.length === 1) {
      act(ways[0]);
    } else {
      choosing = ways;
      feedback("");
      render();
      var first = q("[data-choice-list] button");
      if (first) {
        first.focus();
      }
    }
  }

  function ways(meld, noFit) {
    // ask the server for every legal way to play exactly the selected cards: as the
    // contract or melds (``meld`` null), or onto meld ``meld`` (lay-offs and swaps)
    question = { id: newId(), noFit: noFit };
    send({ type: "ways", id: question.id, cards: selectedCodes(), meld: meld });
  }

  function layDown() {
    ways(null, view.contract_down[mySeat] ? msg.no_fit_meld
      : text(msg.no_fit_contract, { contract: msg.contracts[String(view.hand_no)] }));
  }

  function playOnto(meld) {
    ways(meld, text(msg.no_fit_layoff, { meld: meld }));
  }

  // ---- drawing the view ----

  function seatOrder() {
    var order = [];
    for (var i = 0; i < 4; i++) {
      order.push(mySeat === null ? i : (mySeat + i) % 4);
    }
    return order;
  }

  function renderSeats() {
    var list = q("[data-seats]");
    list.textContent = "";
    seatOrder().forEach(function (seat) {
      var item = document.createElement("li");
      var toMove = !ended() && view.to_move === seat;
      item.className = "table-seat" + (toMove ? " to-move" : "");
      var name = document.createElement("strong");
      name.textContent = players[seat];
      item.appendChild(name);
      if (seat === mySeat) {
        item.appendChild(document.createTextNode(" (" + msg.you + ")"));
      }
      var state = (view.seats || [])[seat] || {};
      if (!config.humans[seat] || state.substitute) {
        // a person's seat played by its substitute says so, never hidden
        var badge = document.createElement("span");
        badge.className = "badge badge-bot";
        badge.textContent = !config.humans[seat] ? msg.bot
          : state.pinned ? msg.substitute_pinned : msg.substitute;
        item.appendChild(document.createTextNode(" "));
        item.appendChild(badge);
      }
      var meta = [countText(view.hand_sizes[seat])];
      if (state.reserve !== null && state.reserve !== undefined) {
        meta.push(text(msg.reserve, { time: clockText(state.reserve) }));
      }
      if (view.contract_down[seat]) {
        meta.push(msg.contract_down);
      }
      if (seat === view.dealer) {
        meta.push(msg.dealer);
      }
      if (toMove) {
        meta.push(msg.to_move);
      }
      var line = document.createElement("span");
      line.className = "meta";
      line.textContent = meta.join(" \u00b7 ");
      item.appendChild(line);
      list.appendChild(item);
    });
  }

  function renderMelds(canPlay) {
    var box = q("[data-melds]");
    box.textContent = "";
    if (!view.melds.length) {
      var none = document.createElement("p");
      none.textContent = msg.no_melds;
      box.appendChild(none);
      return;
    }
    seatOrder().forEach(function (seat) {
      var own = view.melds.filter(function (meld) { return meld.owner === seat; });
      if (!own.length) {
        return;
      }
      var group = document.createElement("div");
      group.className = "meld-group";
      var heading = document.createElement("h4");
      heading.textContent = text(msg.melds_of, { player: players[seat] });
      group.appendChild(heading);
      var list = document.createElement("ul");
      own.forEach(function (meld) {
        var item = document.createElement("li");
        var holder = item;
        if (mySeat !== null) {
          holder = document.createElement("button");
          holder.type = "button";
          holder.className = "meld-button";
          holder.setAttribute("data-meld", String(meld.id));
          holder.setAttribute("data-key", "meld:" + meld.id);
          holder.disabled = !canPlay;
          holder.setAttribute("aria-label", text(msg.meld_button, { id: meld.id,
            kind: msg[meld.kind], cards: meld.cards.map(cardLabel).join(", ") }));
          item.appendChild(holder);
        }
        var label = document.createElement("span");
        label.className = "meld-id";
        label.textContent = meld.id + " \u00b7 " + msg[meld.kind];
        holder.appendChild(label);
        meld.cards.forEach(function (code) {
          holder.appendChild(mySeat !== null ? cardFace(code) : card(code));
        });
        list.appendChild(item);
      });
      group.appendChild(list);
      box.appendChild(group);
    });
  }

  function cardButton(entry, canSelect) {
    var item = document.createElement("li");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "card-button";
    button.setAttribute("data-key", entry.key);
    var chosen = selected.indexOf(entry.key) >= 0;
    button.setAttribute("aria-pressed", String(chosen));
    button.disabled = !canSelect;
    var label = cardLabel(entry.code);
    if (entry.pending) {
      label = text(msg.freed_wild, { card: label });
    } else if (view.taken === entry.code) {
      label = text(msg.card_taken, { card: label });
      button.className += " taken";
    }
    button.setAttribute("aria-label", label);
    button.title = label;
    button.appendChild(cardFace(entry.code));
    item.appendChild(button);
    return item;
  }

  function renderHand(canSelect) {
    var hand = q("[data-hand]");
    var pending = q("[data-pending]");
    hand.textContent = "";
    pending.textContent = "";
    var all = entries();
    all.filter(function (e) { return !e.pending; }).sort(compare).forEach(function (e) {
      hand.appendChild(cardButton(e, canSelect));
    });
    var freed = all.filter(function (e) { return e.pending; });
    freed.forEach(function (e) { pending.appendChild(cardButton(e, canSelect)); });
    q("[data-pending-box]").hidden = !freed.length;
    var codes = selectedCodes();
    var line = q("[data-selection]");
    line.textContent = "";
    line.appendChild(codes.length ? fill(msg.selection, { cards: cards(codes, " ") })
      : document.createTextNode(msg.selection_none));
    root.querySelectorAll("[data-sort]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-sort") === sortBy));
    });
  }

  function renderMoves(mine) {
    var codes = selectedCodes();
    var seat = String(mySeat);
    var play = mine && view.phase === "play";
    var enable = {
      take: mine && legal(seat + " take"),
      push: mine && legal(seat + " push"),
      lay: play && codes.length > 0,
      discard: play && codes.length === 1 && selected[0].indexOf("p:") !== 0 &&
        legal(seat + " discard " + codes[0]),
      clear: codes.length > 0 && !busy()
    };
    Object.keys(enable).forEach(function (name) {
      q('[data-do="' + name + '"]').disabled = !enable[name];
    });
    var box = q("[data-choices]");
    box.hidden = !choosing;
    var list = q("[data-choice-list]");
    list.textContent = "";
    if (choosing) {
      q("[data-choices-heading]").textContent = msg.choose_way;
      choosing.forEach(function (action) {
        var item = document.createElement("li");
        var button = document.createElement("button");
        button.type = "button";
        button.setAttribute("data-way", action);
        button.appendChild(describeWay(action));
        item.appendChild(button);
        list.appendChild(item);
      });
    }
  }

  function turnText(mine) {
    if (view.is_over) {
      return msg.game_over;
    }
    if (ended()) {
      return msg.table_ended;
    }
    if (!mine) {
      return text(msg.waiting_for, { player: players[view.to_move] });
    }
    if (view.pending && view.pending.length) {
      return text(msg.your_turn_pending, { cards: view.pending.map(function (p) {
        return cardLabel(p[0]);
      }).join(", ") });
    }
    return view.phase === "draw" ? msg.your_turn_draw : msg.your_turn_play;
  }

  function renderScores() {
    [0, 1].forEach(function (team) {
      q('[data-total="' + team + '"]').textContent = String(view.totals[team]);
    });
    var body = q("[data-scores]");
    body.textContent = "";
    view.scores.forEach(function (scores, i) {
      var row = document.createElement("tr");
      var head = document.createElement("th");
      head.scope = "row";
      head.textContent = String(i + 1);
      row.appendChild(head);
      scores.forEach(function (score) {
        var cell = document.createElement("td");
        cell.textContent = String(score);
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
  }

  function clockText(seconds) {
    var left = Math.max(0, Math.round(seconds));
    var rest = left % 60;
    return Math.floor(left / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function renderDeadline() {
    var box = q("[data-deadline]");
    if (deadlineTimer !== null) {
      window.clearInterval(deadlineTimer);
      deadlineTimer = null;
    }
    box.hidden = !view.deadline || ended();
    if (box.hidden) {
      return;
    }
    if (view.paused) { // the clock stands while the director has the table paused
      box.textContent = text(msg.time_left, { time: clockText(view.time_left) });
      return;
    }
    // counted from the time left the server gave, so a client's wrong clock does not matter
    var end = Date.now() + 1000 * view.time_left;
    function tick() {
      box.textContent = text(msg.time_left, { time: clockText((end - Date.now()) / 1000) });
    }
    tick();
    deadlineTimer = window.setInterval(tick, 1000);
  }

  function renderDirector() {
    var paused = q("[data-paused]");
    paused.hidden = !view.paused || ended();
    var note = q("[data-director-message]");
    note.hidden = !view.message;
    note.textContent = view.message ? text(msg.director_says, { message: view.message }) : "";
  }

  function render() {
    if (view === null) {
      return;
    }
    var active = document.activeElement;
    var focused = active && active.getAttribute("data-key");
    var mine = myTurn() && !busy();
    q("[data-hand-no]").textContent = text(msg.hand_no, { hand: view.hand_no, hands: config.hands });
    q("[data-contract]").textContent = msg.contracts[String(view.hand_no)];
    q("[data-turn]").textContent = turnText(mine || myTurn());
    q("[data-turn]").classList.toggle("mine", myTurn());
    var down = seatOrder().filter(function (seat) { return view.contract_down[seat]; });
    q("[data-down]").textContent = down.length ? text(msg.down_list, {
      players: down.map(function (seat) { return players[seat]; }).join(", ") }) : msg.down_none;
    renderSeats();
    var top = q("[data-top]");
    top.textContent = "";
    if (view.discard_top) {
      top.appendChild(card(view.discard_top));
      top.appendChild(document.createTextNode(" (" + countText(view.discard_size) + ")"));
    } else {
      top.textContent = msg.empty;
    }
    q("[data-stock]").textContent = countText(view.stock_size);
    renderMelds(mine && view.phase === "play" && selected.length > 0);
    if (mySeat !== null) {
      renderHand(!ended()); // cards may be chosen ahead of the turn
      renderMoves(mine);
    }
    renderScores();
    renderDeadline();
    renderDirector();
    var over = q("[data-game-over]");
    over.hidden = !view.is_over;
    q("[data-abandoned]").hidden = view.status !== "abandoned";
    q("[data-ended]").hidden = view.status !== "ended";
    if (view.is_over) {
      q("[data-final]").textContent = view.winner === null
        ? text(msg.drawn, { score_a: view.totals[0], score_b: view.totals[1] })
        : text(msg.won, { team: msg.teams[view.winner], score_a: view.totals[0],
          score_b: view.totals[1] });
    }
    document.title = (myTurn() ? "\u25cf " : "") + baseTitle;
    if (focused) {
      var again = root.querySelector('[data-key="' + focused + '"]');
      if (again && !again.disabled) {
        again.focus();
      }
    } else if (active && active.disabled && root.contains(active)) {
      // the move just made disabled its own button: on to the next move, or the hand
      var next = root.querySelector("[data-do]:not(:disabled), [data-hand] button:not(:disabled)");
      if (next) {
        next.focus();
      }
    }
  }

  // ---- the controls ----

  root.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !root.contains(button) || button.disabled || view === null) {
      return;
    }
    var key = button.getAttribute("data-key");
    var what = button.getAttribute("data-do");
    var seat = String(mySeat);
    if (button.hasAttribute("data-way")) {
      act(button.getAttribute("data-way"));
    } else if (button.hasAttribute("data-meld")) {
      playOnto(parseInt(button.getAttribute("data-meld"), 10));
    } else if (key) {
      var at = selected.indexOf(key);
      if (at >= 0) {
        selected.splice(at, 1);
      } else {
        selected.push(key);
      }
      choosing = null;
      feedback("");
      render();
    } else if (button.hasAttribute("data-sort")) {
      sortBy = button.getAttribute("data-sort");
      try {
        window.localStorage.setItem("push-sort", sortBy);
      } catch (e) { /* not remembered */ }
      render();
    } else if (what === "take" || what === "push") {
      act(seat + " " + what);
    } else if (what === "discard") {
      act(seat + " discard " + selectedCodes()[0]);
    } else if (what === "lay") {
      layDown();
    } else if (what === "clear") {
      selected = [];
      choosing = null;
      feedback("");
      render();
    } else if (what === "cancel") {
      choosing = null;
      render();
    }
  });

  // A seat holder's heartbeat: how the server knows they are still here (a socket's close
  // may never arrive); missing it for the table's grace lets their substitute play.
  if (mySeat !== null && config.heartbeat) {
    window.setInterval(function () { send({ type: "ping" }); }, 1000 * config.heartbeat);
  }
  connection(msg.connecting);
  connect();
})();
