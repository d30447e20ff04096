/* A live table, part 2 of 7: actions in the engine's text form (games/engine/actions.py),
   read and put in words (the match replay's wording). */
(function () {
  "use strict";

  var P = window.PushLive;
  if (!P.root) {
    return;
  }
  var msg = P.msg;
  var players = P.config.players;

  P.parse = function (action) {
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
  };

  P.outcome = function (end) {
    var values = { team_a: msg.teams[0], team_b: msg.teams[1],
      score_a: end.scores[0], score_b: end.scores[1] };
    if (end.out_seat !== null && end.out_seat !== undefined) {
      values.player = players[end.out_seat];
      return P.text(msg.out, values);
    }
    return P.text(msg.stock_end, values);
  };

  P.describeEvent = function (event) {
    var a = P.parse(event.action);
    var values = { player: players[event.seat] };
    var template = msg[a.kind];
    if (a.kind === "take") {
      values.card = P.card(event.card);
    } else if (a.kind === "push") {
      if (!event.card) {
        template = msg.push_end;
      } else {
        values.left = players[(event.seat + 1) % 4];
        values.card = P.card(event.card);
        template = event["private"] ? msg.push_private : msg.push_public;
        values.stock_card = event["private"] ? P.card(event["private"]) : "";
      }
    } else if (a.kind === "discard") {
      values.card = P.card(a.cards[0]);
    } else if (a.kind === "contract" || a.kind === "meld") {
      values.melds = P.melds(a.melds);
    } else if (a.kind === "layoff") {
      values.cards = P.cards(a.cards, " ");
      values.meld = a.meld;
    } else if (a.kind === "swap") {
      values.card = P.card(a.cards[0]);
      values.wild = P.card(a.wild);
      values.meld = a.meld;
    }
    var out = P.fill(template, values);
    if (event.hand_result) {
      out.appendChild(document.createTextNode(" " + P.outcome(event.hand_result)));
    }
    if (event.bot && P.config.humans[event.seat]) {
      // a bot played it for a person: said, never hidden
      out.appendChild(document.createTextNode(" "));
      out.appendChild(P.element("span", "badge badge-bot", msg.played_by_bot));
    }
    return out;
  };

  P.describeWay = function (action) {
    // one way of playing the selection, as a choice: "Lay down the contract: set ..."
    var a = P.parse(action);
    if (a.kind === "contract" || a.kind === "meld") {
      return P.fill(a.kind === "contract" ? msg.way_contract : msg.way_meld,
        { melds: P.melds(a.melds) });
    }
    if (a.kind === "layoff") {
      return P.fill(msg.way_layoff, { cards: P.cards(a.cards, " "), meld: a.meld });
    }
    return P.fill(msg.way_swap, { card: P.card(a.cards[0]), meld: a.meld, wild: P.card(a.wild) });
  };

  P.dealLine = function (hand) {
    return P.fill(msg.deal, { hand: hand.hand_no, dealer: players[hand.dealer],
      size: msg.hand_sizes[String(hand.hand_no)], contract: msg.contracts[String(hand.hand_no)] });
  };
})();
