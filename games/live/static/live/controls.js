/* A live table, part 5 of 7: the player's moves. Each move button says why when it is
   off (aria-disabled, so it keeps the focus and its hover: the reason shows on focus and
   hover and is its description for screen readers); the ways a selection fits are asked
   one difference at a time (ways.js); a push that would end the hand asks first (R6.4,
   R8.2); and the keys: t take, p push, l lay down, d discard, c or Escape clear, the arrow
   keys across the hand, Space or Enter to select, 1 to 5 for a choice, ? lists them. */
(function () {
  "use strict";

  var P = window.PushLive;
  if (!P.root) {
    return;
  }
  var msg = P.msg;
  var config = P.config;
  var S = P.s;
  var KEYS = { t: "take", p: "push", l: "lay", d: "discard", c: "clear" };

  P.isOff = function (button) {
    return button.disabled || button.getAttribute("aria-disabled") === "true";
  };

  P.setEnabled = function (button, on, why) {
    // off by aria-disabled: still focusable, so it can say why (its description)
    if (on) {
      button.removeAttribute("aria-disabled");
    } else {
      button.setAttribute("aria-disabled", "true");
    }
    var reason = button.getAttribute("data-why");
    if (reason) {
      var box = document.getElementById(reason);
      if (box && button.hasAttribute("data-do")) {
        box.textContent = on ? "" : why || "";
      }
      if (on || !why) {
        button.removeAttribute("aria-describedby");
      } else {
        button.setAttribute("aria-describedby", reason);
      }
    }
  };

  function turnReason(mine) {
    var v = S.view;
    if (P.ended()) {
      return v.is_over ? msg.game_over : msg.table_ended;
    }
    if (P.busy()) {
      return msg.why_busy;
    }
    if (!mine) {
      return P.text(msg.why_not_your_turn, { player: config.players[v.to_move] });
    }
    return "";
  }

  P.renderMoves = function (mine) {
    var v = S.view;
    var codes = P.selectedCodes();
    var seat = String(config.seat);
    var draw = mine && v.phase === "draw";
    var play = mine && v.phase === "play";
    var pending = (v.pending || []).length > 0;
    var turn = turnReason(mine);
    var wait = turn || (draw ? "" : msg.why_drawn);
    var first = turn || (play ? "" : msg.why_draw_first);
    var discardWhy = first;
    var discardOn = play && codes.length === 1 && S.selected[0].indexOf("p:") !== 0 &&
      P.legal(seat + " discard " + codes[0]);
    if (!first && !discardOn) {
      discardWhy = codes.length !== 1 ? msg.why_select_one
        : S.selected[0].indexOf("p:") === 0 || pending ? msg.why_pending
          : v.taken === codes[0] ? msg.why_taken : msg.why_not_legal;
    }
    var moves = {
      take: [draw && P.legal(seat + " take"), wait],
      push: [draw && P.legal(seat + " push"), wait],
      lay: [play && codes.length > 0, first || msg.why_select],
      discard: [discardOn, discardWhy],
      clear: [codes.length > 0 && !P.busy(), msg.selection_none]
    };
    Object.keys(moves).forEach(function (name) {
      P.setEnabled(P.q('[data-do="' + name + '"]'), moves[name][0], moves[name][1]);
    });
    P.q("[data-push-warning]").hidden = !(draw && v.stock_size < 2);
    renderChoices();
  };

  P.meldReason = function (mine) {
    var turn = turnReason(mine);
    if (turn) {
      return turn;
    }
    if (S.view.phase !== "play") {
      return msg.why_draw_first;
    }
    if (!S.view.contract_down[config.seat]) {
      return msg.why_contract_first;
    }
    return S.selected.length ? "" : msg.why_select_meld;
  };

  // ---- choosing a way ----

  P.offer = function (ways, noFit) {
    // none: say so; one: play it; more: ask what differs
    S.choosing = null;
    if (!ways.length) {
      P.feedback(noFit);
      P.render();
      return;
    }
    var plan = P.ways.plan(ways, 0);
    if (plan.play) {
      P.act(plan.play);
      return;
    }
    S.choosing = { ways: ways, page: 0 };
    P.feedback("");
    P.render();
    var first = P.q("[data-choice-list] button");
    if (first) {
      first.focus();
    }
  };

  function choiceButton(content, attribute, value, n) {
    var item = P.element("li");
    var button = P.element("button");
    button.type = "button";
    button.setAttribute(attribute, value);
    if (n <= P.ways.HANDFUL) {
      button.setAttribute("aria-keyshortcuts", String(n));
      var key = P.element("kbd", "choice-key", String(n));
      key.setAttribute("aria-hidden", "true");
      button.appendChild(key);
    }
    button.appendChild(content);
    item.appendChild(button);
    return item;
  }

  function renderChoices() {
    var box = P.q("[data-choices]");
    var list = P.q("[data-choice-list]");
    var more = P.q('[data-do="more-ways"]');
    box.hidden = !S.choosing;
    list.textContent = "";
    more.hidden = true;
    if (!S.choosing) {
      return;
    }
    var plan = P.ways.plan(S.choosing.ways, S.choosing.page);
    var heading = P.q("[data-choices-heading]");
    if (plan.ask) {
      var about = plan.ask.about;
      heading.textContent = about === "onto" ? msg.ask_onto : about === "out" ? msg.ask_out
        : P.text(msg.ask_wild, { card: P.cardLabel(plan.ask.card) });
      plan.ask.options.forEach(function (option, i) {
        var words = about === "onto" ? (option.value ? P.text(msg.onto_meld, { meld: option.value })
          : msg.onto_new) : about === "out" ? P.cardLabel(option.value)
          : option.value ? P.asName(option.value) : msg.as_itself;
        list.appendChild(choiceButton(document.createTextNode(words), "data-answer", String(i), i + 1));
      });
      S.choosing.asked = plan.ask;
      return;
    }
    S.choosing.asked = null;
    heading.textContent = msg.choose_way;
    plan.choose.forEach(function (action, i) {
      list.appendChild(choiceButton(P.describeWay(action), "data-way", action, i + 1));
    });
    if (plan.pages > 1) {
      more.hidden = false;
      more.textContent = P.text(msg.more_ways, { page: plan.page + 1, pages: plan.pages });
    }
  }

  P.answer = function (index) {
    // the player's answer to "what does this wild stand for?": the ways that agree with it
    var option = S.choosing && S.choosing.asked && S.choosing.asked.options[index];
    if (!option) {
      return;
    }
    if (option.ways.length === 1) {
      P.act(option.ways[0]);
      return;
    }
    S.choosing = { ways: option.ways, page: 0 };
    P.render();
    var first = P.q("[data-choice-list] button");
    if (first) {
      first.focus();
    }
  };

  P.morePage = function () {
    var plan = P.ways.plan(S.choosing.ways, S.choosing.page);
    S.choosing.page = (plan.page + 1) % plan.pages;
    P.render();
  };

  // ---- a push that ends the hand asks first ----

  P.push = function () {
    var dialog = P.q("[data-confirm-push]");
    if (S.view.stock_size >= 2 || !dialog || !dialog.showModal) {
      P.act(config.seat + " push");
      return;
    }
    dialog.showModal();
    dialog.querySelector('[data-confirm="no"]').focus();
  };

  P.root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-confirm]");
    if (!button) {
      return;
    }
    var dialog = P.q("[data-confirm-push]");
    dialog.close();
    if (button.getAttribute("data-confirm") === "yes" && P.myTurn() && !P.busy()) {
      P.act(config.seat + " push");
    } else {
      P.q('[data-do="push"]').focus();
    }
  });

  // ---- the keys ----

  function moveAcrossHand(step, to) {
    var keys = P.keyOrder();
    if (!keys.length) {
      return;
    }
    var at = keys.indexOf(S.cursor);
    var next = to === "first" ? 0 : to === "last" ? keys.length - 1
      : Math.max(0, Math.min(keys.length - 1, (at < 0 ? 0 : at) + step));
    S.cursor = keys[next];
    P.render();
    P.focusCursor();
  }

  P.focusCursor = function () {
    var button = S.cursor && P.root.querySelector('[data-key="' + S.cursor + '"]');
    if (button) {
      button.focus();
    }
  };

  document.addEventListener("keydown", function (event) {
    if (S.view === null || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) {
      return;
    }
    var target = event.target;
    if (target.closest && (target.closest("input, select, textarea, dialog[open]"))) {
      return;
    }
    var key = event.key;
    if (key === "?") {
      event.preventDefault();
      P.openHelp();
      return;
    }
    if (config.seat === null) {
      return;
    }
    var inHand = target.closest && target.closest("[data-hand], [data-pending]");
    if (key === "ArrowLeft" || key === "ArrowRight" || (inHand && (key === "Home" || key === "End"))) {
      event.preventDefault();
      moveAcrossHand(key === "ArrowLeft" ? -1 : 1,
        key === "Home" ? "first" : key === "End" ? "last" : null);
      return;
    }
    if (S.choosing && /^[1-9]$/.test(key)) {
      var choice = P.root.querySelectorAll("[data-choice-list] button")[parseInt(key, 10) - 1];
      if (choice) {
        event.preventDefault();
        choice.click();
      }
      return;
    }
    var what = key === "Escape" ? "clear" : KEYS[key.toLowerCase()];
    if (!what) {
      return;
    }
    event.preventDefault();
    if (key === "Escape" && S.choosing) {
      S.choosing = null;
      P.render();
      return;
    }
    var button = P.q('[data-do="' + what + '"]');
    if (!button || P.isOff(button)) {
      // said where the keyboard is: the reason the move is off
      P.feedback(button ? document.getElementById(button.getAttribute("data-why")).textContent : "");
      return;
    }
    button.click();
  });
})();
