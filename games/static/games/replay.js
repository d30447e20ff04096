/* The match replay: steps through the frames the server built from the game record
   (games/replay.py), one action at a time, across all hands.

   The page has the seats, the words (a JSON script named by data-messages) and the game in
   words; the frames are fetched from data-replay-url when the replay comes within a screen's
   height of the view, or when one of its buttons or keys is used, which then acts on them
   (the browser keeps them and revalidates them with their ETag). Without JavaScript the
   viewer stays hidden.

   Buttons: start, back, forward, end of the hand, and one per hand. Keys, while the focus is
   in the replay or nowhere in particular: ← → step, Home/End jump to the start/end of the
   hand, Page Up/Page Down to the previous/next hand. The address "#replay-hand-N" opens it at
   hand N. Every card is drawn with its suit in colour and named in words for screen
   readers (cards.js, as the live table draws them); the action just played is announced.
   An ES module: deferred, strict, its names its own. */

import { fill, text, wordsFor } from "./cards.js";
import { expand, hintsAt } from "./frames.js";

function Replay(root) {
  this.root = root;
  this.msg = JSON.parse(document.getElementById(root.getAttribute("data-messages")).textContent);
  this.url = root.getAttribute("data-replay-url");
  this.hands = null; // until fetched
  this.hints = {}; // a live table's hints, by "hand:n" (the action they preceded)
  this.loading = null;
  this.players = this.msg.players;
  this.w = wordsFor(this.msg, this.players);
  this.h = 0;
  this.f = 0;
  this.q = function (selector) { return root.querySelector(selector); };
  this.q("[data-replay-viewer]").hidden = false;
  this.q("[data-position]").textContent = this.msg.loading;
  this.bind();
  // A link to "#replay-hand-N" (a duplicate board's traveller) opens the page's replay at
  // hand N: fetched at once, shown from that hand's deal.
  var opener = /^#replay-hand-(\d+)$/.exec(window.location.hash);
  this.opening = opener && root.id === "replay" ? parseInt(opener[1], 10) : 0;
  if (this.opening) {
    root.scrollIntoView();
    root.focus({ preventScroll: true });
    this.load();
  }
  this.watch();
}

Replay.prototype.load = function () {
  var self = this;
  if (!this.loading) {
    this.loading = window.fetch(this.url, { headers: { Accept: "application/json" },
      credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        return response.json();
      })
      .then(function (data) {
        self.hands = expand(data.hands);
        self.hints = hintsAt(data.hints);
        if (self.opening) {
          self.h = Math.min(self.opening, self.hands.length) - 1;
          self.opening = 0;
        }
        self.render();
      })
      .catch(function () {
        self.loading = null; // the next use tries again
        self.q("[data-position]").textContent = "";
        self.q("[data-action]").textContent = self.msg.failed;
      });
  }
  return this.loading;
};

// Fetch the frames once the replay is within a screen's height of the view.
Replay.prototype.watch = function () {
  var self = this;
  if (!("IntersectionObserver" in window)) {
    this.load();
    return;
  }
  this.observer = new IntersectionObserver(function (entries) {
    if (entries.some(function (entry) { return entry.isIntersecting; })) {
      self.observer.disconnect();
      self.load();
    }
  }, { rootMargin: "100% 0px" });
  this.observer.observe(this.root);
};

Replay.prototype.describe = function (hand, frame) {
  var m = this.msg;
  var act = frame.act;
  if (!act) {
    return fill(m.deal, { hand: hand.hand, dealer: this.players[hand.dealer],
      size: m.hand_sizes[String(hand.hand)], contract: m.contracts[String(hand.hand)] });
  }
  // a meld's cards side by side, as the replay has always written them
  var values = this.w.moveValues(act, "");
  var template = m[act.do];
  if (act.do === "push") {
    if (!act.card) {
      template = m.push_end;
    } else {
      values.left = this.players[(act.seat + 1) % 4];
      values.card = this.w.card(act.card);
      values.stock_card = act.stock_card ? this.w.card(act.stock_card) : "";
      values.drew = act.drew ? this.w.card(act.drew) : "";
    }
  }
  var out = fill(template, values);
  if (frame.end) {
    out.appendChild(document.createTextNode(" "));
    out.appendChild(document.createTextNode(this.w.outcome(frame.end)));
  }
  var hint = this.hints[hand.hand + ":" + frame.n];
  if (hint) {
    // a hint was asked for before this action: marked, with what it said where shown
    out.appendChild(document.createTextNode(" "));
    var mark = document.createElement("span");
    mark.className = "replay-hint";
    mark.setAttribute("data-hint", "");
    mark.textContent = hint.words;
    out.appendChild(mark);
  }
  return out;
};

Replay.prototype.render = function () {
  var self = this;
  var m = this.msg;
  var hand = this.hands[this.h];
  var frame = hand.frames[this.f];
  var previous = this.f > 0 ? hand.frames[this.f - 1] : null;
  var acting = frame.act ? frame.act.seat : null;

  var action = this.q("[data-action]");
  action.textContent = "";
  action.appendChild(this.describe(hand, frame));
  this.q("[data-position]").textContent = frame.n < 0
    ? text(m.deal_position, { hand: hand.hand, hands: this.hands.length })
    : text(m.position, { hand: hand.hand, hands: this.hands.length, action: frame.n + 1,
      actions: hand.frames.length - 1 });

  for (var seat = 0; seat < 4; seat++) {
    var box = this.q('[data-seat="' + seat + '"]');
    var codes = frame.hands[seat] ? frame.hands[seat].split(" ") : [];
    var before = {};
    if (previous && previous.hands[seat]) {
      previous.hands[seat].split(" ").forEach(function (c) { before[c] = (before[c] || 0) + 1; });
    }
    var list = box.querySelector("[data-seat-cards]");
    list.textContent = "";
    codes.forEach(function (code) {
      var item = document.createElement("li");
      var card = self.w.card(code);
      if (previous) {
        if (before[code]) {
          before[code] -= 1;
        } else {
          card.className += " fresh"; // just arrived in this hand
        }
      }
      item.appendChild(card);
      list.appendChild(item);
    });
    var meta = [this.w.countText(codes.length)];
    if (frame.down[seat]) {
      meta.push(m.contract_down);
    }
    if (seat === hand.dealer) {
      meta.push(m.dealer);
    }
    if (!frame.end && seat === frame.turn) {
      meta.push(m.to_move);
    }
    if (seat === frame.turn && frame.pending && frame.pending.length) {
      meta.push(text(m.waiting, { cards: frame.pending.join(" ") }));
    }
    box.querySelector("[data-seat-meta]").textContent = meta.join(" \u00b7 ");
    box.classList.toggle("to-move", !frame.end && seat === frame.turn);
    box.classList.toggle("acting", seat === acting);
  }

  this.q("[data-stock]").textContent = this.w.countText(frame.stock);
  var top = this.q("[data-top]");
  top.textContent = "";
  if (frame.top) {
    top.appendChild(this.w.card(frame.top));
    top.appendChild(document.createTextNode(" (" + this.w.countText(frame.pile) + ")"));
  } else {
    top.textContent = m.empty;
  }
  var melds = this.q("[data-melds]");
  melds.textContent = "";
  if (!frame.melds.length) {
    var none = document.createElement("li");
    none.textContent = m.no_melds;
    melds.appendChild(none);
  }
  frame.melds.forEach(function (meld) {
    var item = document.createElement("li");
    var owner = document.createElement("span");
    owner.className = "owner";
    owner.textContent = text(m.meld_owner, { id: meld.id, player: self.players[meld.owner] }) +
      " \u00b7 " + m[meld.kind] + " ";
    item.appendChild(owner);
    item.appendChild(self.w.cards(meld.cards));
    melds.appendChild(item);
  });
  this.q("[data-outcome]").textContent = frame.end ? this.w.outcome(frame.end) : "";

  var buttons = this.root.querySelectorAll("[data-hand]");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].setAttribute("aria-pressed", String(i === this.h));
  }
  var atStart = this.h === 0 && this.f === 0;
  var atEnd = this.h === this.hands.length - 1 && this.f === hand.frames.length - 1;
  this.q('[data-step="first"]').disabled = this.f === 0;
  this.q('[data-step="prev"]').disabled = atStart;
  this.q('[data-step="next"]').disabled = atEnd;
  this.q('[data-step="last"]').disabled = this.f === hand.frames.length - 1;
};

Replay.prototype.go = function (h, f) {
  var frames = this.hands[h].frames;
  this.h = h;
  this.f = f < 0 ? frames.length + f : Math.min(f, frames.length - 1);
  this.render();
};

Replay.prototype.step = function (how) {
  var frames = this.hands[this.h].frames;
  if (how === "next") {
    if (this.f < frames.length - 1) {
      this.go(this.h, this.f + 1);
    } else if (this.h < this.hands.length - 1) {
      this.go(this.h + 1, 0);
    }
  } else if (how === "prev") {
    if (this.f > 0) {
      this.go(this.h, this.f - 1);
    } else if (this.h > 0) {
      this.go(this.h - 1, -1);
    }
  } else if (how === "first") {
    this.go(this.h, 0);
  } else if (how === "last") {
    this.go(this.h, -1);
  } else if (how === "next-hand" && this.h < this.hands.length - 1) {
    this.go(this.h + 1, 0);
  } else if (how === "prev-hand" && this.h > 0) {
    this.go(this.h - 1, 0);
  }
};

// A button or key used while the frames are still on their way acts once they have come
// (a failed fetch drops it: the page says so, and the next use tries again).
Replay.prototype.whenLoaded = function (act) {
  var self = this;
  if (this.hands) {
    act();
  } else {
    this.load().then(function () {
      if (self.hands) {
        act();
      }
    });
  }
};

var KEYS = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last",
  PageDown: "next-hand", PageUp: "prev-hand" };

Replay.prototype.bind = function () {
  var self = this;
  this.root.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !self.root.contains(button)) {
      return;
    }
    self.whenLoaded(function () {
      if (button.hasAttribute("data-step")) {
        self.step(button.getAttribute("data-step"));
      } else if (button.hasAttribute("data-hand")) {
        self.go(parseInt(button.getAttribute("data-hand"), 10), 0);
      }
    });
  });
  this.onKey = function (event) {
    var how = KEYS[event.key];
    if (!how || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var focus = document.activeElement;
    var idle = !focus || focus === document.body || focus === document.documentElement ||
      focus.id === "main";
    if (!document.contains(self.root) || !(idle || self.root.contains(focus))) {
      return; // the keys belong to whatever else has the focus
    }
    event.preventDefault();
    self.whenLoaded(function () { self.step(how); });
  };
  document.addEventListener("keydown", this.onKey);
};

var started = [];

function init(root) {
  var found = root.querySelectorAll("[data-replay]");
  for (var i = 0; i < found.length; i++) {
    if (!found[i].hasAttribute("data-replay-ready")) {
      found[i].setAttribute("data-replay-ready", "");
      started.forEach(function (old) {
        if (!document.contains(old.root)) {
          document.removeEventListener("keydown", old.onKey);
          if (old.observer) {
            old.observer.disconnect();
          }
        }
      });
      started.push(new Replay(found[i]));
    }
  }
}

document.addEventListener("live:update", function (event) { init(event.target); });
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", function () { init(document); });
} else {
  init(document);
}
