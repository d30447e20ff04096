/* A live table (templates/live/table.html), part 1 of 7: the shared namespace, the page's
   words and the cards.

   The scripts of the table share one object, window.PushLive, each adding its part in the
   order the page loads them (words, actions, ways, drawing, controls, panels, table). This
   one reads the page's words and settings (json_script, translated by the server: no
   script holds a word of its own) and draws cards, as games/static/games/replay.js does:
   inline in sentences (the log), or as playing cards on the table (rank and suit in the
   corner, the suit's colour, a wild in a meld marked with the card it stands for). */
(function () {
  "use strict";

  var root = document.querySelector("[data-live-table]");
  var P = window.PushLive = { root: root };
  if (!root) {
    return;
  }
  P.msg = JSON.parse(document.getElementById(root.getAttribute("data-messages")).textContent);
  P.config = JSON.parse(document.getElementById(root.getAttribute("data-config")).textContent);
  var msg = P.msg;

  var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var RED = { H: true, D: true };

  P.q = function (selector) {
    return root.querySelector(selector);
  };

  P.text = function (template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (all, key) {
      return values[key] === undefined ? all : String(values[key]);
    });
  };

  P.fill = function (template, values) {
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
  };

  P.element = function (tag, className, words) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (words !== undefined && words !== null) {
      node.textContent = words;
    }
    return node;
  };

  function cardName(rank, suit) {
    if (rank === "JK") {
      return msg.joker;
    }
    var name = msg.ranks[rank] || rank;
    return suit ? P.text(msg.card, { rank: name, suit: msg.suits[suit] }) : name;
  }

  P.splitCode = function (code) {
    // "7H", "TS", "JK", or a wild in a meld: "JK=7", "2C=TS"
    var parts = String(code).split("=");
    var base = parts[0];
    return { base: base, rank: base === "JK" ? "JK" : base.charAt(0),
      suit: base === "JK" ? "" : base.charAt(1), as: parts[1] || "" };
  };

  P.asName = function (as) {
    // what a wild stands for: a rank in a set ("7"), a card in a run ("7H")
    return cardName(as.charAt(0), as.charAt(1));
  };

  P.cardLabel = function (code) {
    var c = P.splitCode(code);
    var label = cardName(c.rank, c.suit);
    if (c.as) {
      label = P.text(msg.wild_as, { card: label, what: P.asName(c.as) });
    }
    return label;
  };

  P.face = function (rank, suit) {
    return rank === "JK" ? "JK" : (rank === "T" ? "10" : rank) + (suit ? SUITS[suit] : "");
  };

  P.cardFace = function (code) {
    // the card inline, as words are (the log, the choices); its name for screen readers
    // goes on the element that holds it
    var c = P.splitCode(code);
    var span = P.element("span", "card" + (c.base === "JK" ? " joker" : RED[c.suit] ? " red" : ""),
      P.face(c.rank, c.suit));
    if (c.as) {
      var as = P.element("span", "as" + (RED[c.as.charAt(1)] ? " red" : ""),
        "\u2192" + P.face(c.as.charAt(0), c.as.charAt(1)));
      span.appendChild(as);
    }
    return span;
  };

  P.card = function (code) {
    var span = P.cardFace(code);
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", P.cardLabel(code));
    span.title = P.cardLabel(code);
    return span;
  };

  P.cards = function (codes, separator) {
    var out = document.createDocumentFragment();
    codes.forEach(function (code, i) {
      if (i && separator) {
        out.appendChild(document.createTextNode(separator));
      }
      out.appendChild(P.card(code));
    });
    return out;
  };

  P.playingCard = function (code, named) {
    // A card as a card: the rank and suit in the corner, the suit large in the middle, a
    // joker starred, a wild's meaning on a tab at its foot. ``named``: it speaks for itself
    // (role img); else its holder (a button) carries the name.
    var c = P.splitCode(code);
    var joker = c.base === "JK";
    var wild = joker || (c.rank === "2" && c.as !== "" && c.as !== c.base);
    var box = P.element("span", "pcard" + (joker ? " joker" : RED[c.suit] ? " red" : " black") +
      (wild ? " wild" : ""));
    var corner = P.element("span", "pcard-corner");
    corner.appendChild(P.element("span", "pcard-rank", joker ? "JK" : c.rank === "T" ? "10" : c.rank));
    corner.appendChild(P.element("span", "pcard-suit", joker ? "\u2605" : SUITS[c.suit]));
    box.appendChild(corner);
    box.appendChild(P.element("span", "pcard-pip", joker ? "\u2605" : SUITS[c.suit]));
    if (c.as && c.as !== c.base) {
      box.appendChild(P.element("span", "pcard-as" + (RED[c.as.charAt(1)] ? " red" : ""),
        "\u2192" + P.face(c.as.charAt(0), c.as.charAt(1))));
    }
    box.setAttribute("aria-hidden", "true");
    if (named) {
      var holder = P.element("span", "pcard-holder");
      holder.setAttribute("role", "img");
      holder.setAttribute("aria-label", P.cardLabel(code));
      holder.title = P.cardLabel(code);
      holder.appendChild(box);
      return holder;
    }
    return box;
  };

  P.cardBack = function () {
    var back = P.element("span", "pcard back");
    back.setAttribute("aria-hidden", "true");
    return back;
  };

  P.melds = function (list) {
    var out = document.createDocumentFragment();
    list.forEach(function (meld, i) {
      if (i) {
        out.appendChild(document.createTextNode(msg.and));
      }
      out.appendChild(document.createTextNode(msg[meld.kind] + " "));
      out.appendChild(P.cards(meld.cards, " "));
    });
    return out;
  };

  P.countText = function (n) {
    return n === 1 ? msg.cards_one : P.text(msg.cards_other, { n: n });
  };

  P.clockText = function (seconds) {
    var left = Math.max(0, Math.round(seconds));
    var rest = left % 60;
    return Math.floor(left / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  };

  P.stored = function (key, fallback) {
    try {
      var value = window.localStorage.getItem(key);
      return value === null ? fallback : value;
    } catch (e) {
      return fallback; // storage may be off
    }
  };

  P.store = function (key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (e) { /* not remembered */ }
  };
})();
