/* Choosing among the ways a selection can be played at a live table. Pure functions of
   the server's structured moves (a ``ways`` answer's "moves": "do", "melds", "meld",
   "cards", "card", "wild", "text"), no page.

   Several ways often lead to the same table: two 2s that swap places, a set's naturals in
   another order, the two sets of a contract the other way round. Those are one way to a
   player: collapse() keeps one of each. What is left is asked one difference at a time:
   plan() offers the ways themselves when they are a handful, else asks what one wild
   stands for (the question that splits the ways best), and pages through them only when no
   question does. Two wild 2s are told apart by nothing once on the table (R5.4, R7.4: any
   natural card of its place replaces either), so a 2's suit counts only where it stands
   for itself; a set's naturals by their rank alone (R5.2: suits may repeat, and any card
   of the rank lays off or replaces a wild in it, R7.3, R7.4). */
import { splitCode as split } from "../games/cards.js";

const HANDFUL = 5;

function isWild(code) {
  // a joker, or a 2 standing for another card (a natural 2 is written without "=")
  var c = split(code);
  return c.base === "JK" || (c.base.charAt(0) === "2" && c.as !== "" && c.as !== c.base);
}

function cardKey(code, kind) {
  // a card as the table sees it: a wild by its kind and what it stands for; a natural in
  // a set by its rank
  var c = split(code);
  if (isWild(code)) {
    return (c.base === "JK" ? "JK" : "2") + "=" + c.as;
  }
  return kind === "set" ? c.base.charAt(0) : c.base;
}

function meldKey(kind, cards) {
  var keys = cards.map(function (code) { return cardKey(code, kind); });
  if (kind === "set") {
    keys.sort(); // a set has no order
  }
  return kind + "(" + keys.join(" ") + ")";
}

function read(move) {
  // the parts of a move that decide the table it leads to: its new melds, the cards it
  // takes from the hand (a swap's: the natural, then the wild it frees), the meld it goes
  // onto (as the answer's options name it: a string)
  const kind = move.do;
  const melds = kind === "contract" || kind === "meld" ? move.melds : [];
  let cards = [];
  if (melds.length) {
    cards = melds.reduce((all, meld) => all.concat(meld.cards), []);
  } else if (kind === "layoff") {
    cards = move.cards;
  } else if (kind === "swap") {
    cards = [move.card, move.wild];
  }
  const onto = kind === "layoff" || kind === "swap";
  return { kind, melds, cards, target: onto ? String(move.meld) : null };
}

function tableKey(move) {
  // the same key for two ways that leave the same melds on the table
  var a = read(move);
  if (a.kind === "contract" || a.kind === "meld") {
    return a.kind + ":" + a.melds.map(function (meld) {
      return meldKey(meld.kind, meld.cards);
    }).sort().join(" ");
  }
  if (a.kind === "layoff") {
    return "layoff:" + a.target + ":" + a.cards.map(function (code) {
      return cardKey(code, "run");
    }).sort().join(" ");
  }
  return move.text;
}

function collapse(moves) {
  var seen = {};
  return moves.filter(function (move) {
    var key = tableKey(move);
    if (seen[key]) {
      return false;
    }
    seen[key] = true;
    return true;
  });
}

function features(move) {
  // what each card of the selection is in this way: for each wild (the n-th JK, the
  // n-th 2C...), what it stands for; "" when it stands for itself
  var a = read(move);
  var count = {};
  var out = {};
  a.cards.forEach(function (code) {
    var c = split(code);
    if (c.base !== "JK" && c.base.charAt(0) !== "2") {
      return;
    }
    count[c.base] = (count[c.base] || 0) + 1;
    out[c.base + "#" + (count[c.base] - 1)] = isWild(code) ? c.as : "";
  });
  if (a.kind === "swap") {
    out["out#0"] = a.cards[1] || "";
  }
  out["onto#0"] = a.target === null ? "" : a.target; // a new meld, or which meld
  return out;
}

function question(ways) {
  // the feature that splits ``ways`` best: into 2 to HANDFUL groups, the largest as
  // small as can be; null when none does
  var all = {};
  var seen = ways.map(features);
  seen.forEach(function (f) {
    Object.keys(f).forEach(function (key) { all[key] = true; });
  });
  var best = null;
  Object.keys(all).sort().forEach(function (key) {
    var groups = {};
    var order = [];
    seen.forEach(function (f, i) {
      var value = f[key] === undefined ? "" : f[key];
      if (!groups[value]) {
        groups[value] = [];
        order.push(value);
      }
      groups[value].push(ways[i]);
    });
    if (order.length < 2 || order.length > HANDFUL) {
      return;
    }
    var largest = Math.max.apply(null, order.map(function (v) { return groups[v].length; }));
    if (best === null || largest < best.largest ||
        (largest === best.largest && order.length < best.options.length)) {
      best = { key: key, largest: largest, options: order.map(function (value) {
        return { value: value, ways: groups[value] };
      }) };
    }
  });
  return best;
}

function plan(moves, page) {
  // What to show for these ways: {play: move} when there is one; {choose: [...]} when
  // they are a handful; {ask: {card, options: [{value, ways}]}} for a wild's meaning;
  // else {choose: HANDFUL of them, page, pages} to page through.
  var ways = collapse(moves);
  if (ways.length === 1) {
    return { play: ways[0], ways: ways };
  }
  if (ways.length <= HANDFUL) {
    return { choose: ways, ways: ways };
  }
  var ask = question(ways);
  if (ask) {
    var card = ask.key.split("#")[0];
    return { ask: { key: ask.key, card: card === "out" || card === "onto" ? "" : card,
      about: card === "out" || card === "onto" ? card : "wild", options: ask.options },
    ways: ways };
  }
  var pages = Math.ceil(ways.length / HANDFUL);
  var at = Math.max(0, Math.min(page || 0, pages - 1));
  return { choose: ways.slice(at * HANDFUL, (at + 1) * HANDFUL), ways: ways, page: at,
    pages: pages };
}

export { HANDFUL, collapse, tableKey, features, question, plan, isWild };
