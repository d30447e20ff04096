/* Cards and words, shared by the match replay (games/replay.js) and the live table
   (live/table.js): one way to put a template's words together with cards in it (fill),
   and one way to draw a card, inline in a sentence or as a playing card.

   No word is the script's own: every word comes from the page's messages (json_script,
   translated by the server), handed to wordsFor(). A card is written as the engine writes
   it: "7H", "TS", "JK", or a wild in a meld with what it stands for: "JK=7", "2C=TS". */

export const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const RED = { H: true, D: true };

export function text(template, values) {
  // "{n} cards" -> "7 cards"; a name with no value stays as it was
  return String(template).replace(/\{(\w+)\}/g, (all, key) =>
    values[key] === undefined ? all : String(values[key]));
}

export function fill(template, values) {
  // "{player} takes {card}" -> a fragment; a value may be a string or a DOM node, and one
  // that is missing or empty leaves nothing
  const out = document.createDocumentFragment();
  const parts = String(template).split(/\{(\w+)\}/);
  parts.forEach((part, i) => {
    const value = i % 2 ? values[part] : part;
    if (value === undefined || value === null || value === "") {
      return;
    }
    out.appendChild(typeof value === "object" ? value : document.createTextNode(String(value)));
  });
  return out;
}

export function element(tag, className, words) {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (words !== undefined && words !== null) {
    node.textContent = words;
  }
  return node;
}

export function splitCode(code) {
  const parts = String(code).split("=");
  const base = parts[0];
  const joker = base === "JK";
  return { base, rank: joker ? "JK" : base.charAt(0), suit: joker ? "" : base.charAt(1),
    as: parts[1] || "" };
}

export function face(rank, suit) {
  // the corner of a card: "10♥", "K♠", "JK"; a set's wild stands for a rank alone ("7")
  return rank === "JK" ? "JK" : (rank === "T" ? "10" : rank) + (suit ? SUITS[suit] : "");
}

export function isRed(suit) {
  return Boolean(RED[suit]);
}

export function clockText(seconds) {
  const left = Math.max(0, Math.round(seconds));
  const rest = left % 60;
  return Math.floor(left / 60) + ":" + (rest < 10 ? "0" : "") + rest;
}

function inlineFace(code) {
  // the card as words are (the log, the choices); its name goes on the element holding it
  const c = splitCode(code);
  const span = element("span", "card" + (c.base === "JK" ? " joker" : isRed(c.suit) ? " red" : ""),
    face(c.rank, c.suit));
  if (c.as) {
    span.appendChild(element("span", "as" + (isRed(c.as.charAt(1)) ? " red" : ""),
      "\u2192" + face(c.as.charAt(0), c.as.charAt(1))));
  }
  return span;
}

export function cardBack() {
  const back = element("span", "pcard back");
  back.setAttribute("aria-hidden", "true");
  return back;
}

/* The page's words with the cards and players in them. ``msg``: the page's messages
   (ranks, suits, card, joker, wild_as, and, set, run, cards_one, cards_other, teams, out,
   stock_end); ``players``: the four seats' names. */
export function wordsFor(msg, players) {
  function cardName(rank, suit) {
    if (rank === "JK") {
      return msg.joker;
    }
    const name = msg.ranks[rank] || rank;
    return suit ? text(msg.card, { rank: name, suit: msg.suits[suit] }) : name;
  }

  function asName(as) {
    // what a wild stands for: a rank in a set ("7"), a card in a run ("7H")
    return cardName(as.charAt(0), as.charAt(1));
  }

  function cardLabel(code) {
    const c = splitCode(code);
    const label = cardName(c.rank, c.suit);
    return c.as ? text(msg.wild_as, { card: label, what: asName(c.as) }) : label;
  }

  function named(node, code) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", cardLabel(code));
    node.title = cardLabel(code);
    return node;
  }

  function card(code) {
    return named(inlineFace(code), code);
  }

  function cards(codes, separator) {
    const out = document.createDocumentFragment();
    codes.forEach((code, i) => {
      if (i && separator) {
        out.appendChild(document.createTextNode(separator));
      }
      out.appendChild(card(code));
    });
    return out;
  }

  function playingCard(code, speaks) {
    // A card as a card: the rank and suit in the corner, the suit large in the middle, a
    // joker starred, a wild's meaning on a tab at its foot. ``speaks``: it is named itself
    // (role img); else its holder (a button) carries the name.
    const c = splitCode(code);
    const joker = c.base === "JK";
    const wild = joker || (c.rank === "2" && c.as !== "" && c.as !== c.base);
    const box = element("span", "pcard" + (joker ? " joker" : isRed(c.suit) ? " red" : " black") +
      (wild ? " wild" : ""));
    const corner = element("span", "pcard-corner");
    corner.appendChild(element("span", "pcard-rank", joker ? "JK" : c.rank === "T" ? "10" : c.rank));
    corner.appendChild(element("span", "pcard-suit", joker ? "\u2605" : SUITS[c.suit]));
    box.appendChild(corner);
    box.appendChild(element("span", "pcard-pip", joker ? "\u2605" : SUITS[c.suit]));
    if (c.as && c.as !== c.base) {
      box.appendChild(element("span", "pcard-as" + (isRed(c.as.charAt(1)) ? " red" : ""),
        "\u2192" + face(c.as.charAt(0), c.as.charAt(1))));
    }
    box.setAttribute("aria-hidden", "true");
    if (!speaks) {
      return box;
    }
    const holder = named(element("span", "pcard-holder"), code);
    holder.appendChild(box);
    return holder;
  }

  function melds(list, separator) {
    // "set 7♥ 7♠ JK→7 and run ..."; the replay writes a meld's cards side by side
    const out = document.createDocumentFragment();
    list.forEach((meld, i) => {
      if (i) {
        out.appendChild(document.createTextNode(msg.and));
      }
      out.appendChild(document.createTextNode(msg[meld.kind] + " "));
      out.appendChild(cards(meld.cards, separator === undefined ? " " : separator));
    });
    return out;
  }

  function countText(n) {
    return n === 1 ? msg.cards_one : text(msg.cards_other, { n });
  }

  function outcome(end) {
    // how a hand ended: who went out, or the stock ran out; the team scores
    const values = { team_a: msg.teams[0], team_b: msg.teams[1],
      score_a: end.scores[0], score_b: end.scores[1] };
    if (end.out_seat !== null && end.out_seat !== undefined) {
      values.player = players[end.out_seat];
      return text(msg.out, values);
    }
    return text(msg.stock_end, values);
  }

  function moveValues(move, separator) {
    // A move in the game record's form (the replay's frames' "act", the live table's
    // events' "move", both the engine's own): the values its sentence takes, all but a
    // push's, whose words differ between the replay and the table.
    const values = { player: players[move.seat] };
    if (move.do === "take" || move.do === "discard") {
      values.card = move.card ? card(move.card) : "";
    } else if (move.do === "contract" || move.do === "meld") {
      values.melds = melds(move.melds, separator);
    } else if (move.do === "layoff") {
      values.cards = cards(move.cards, " ");
      values.meld = move.meld;
    } else if (move.do === "swap") {
      values.card = card(move.card);
      values.wild = card(move.wild);
      values.meld = move.meld;
    }
    return values;
  }

  return { cardName, asName, cardLabel, card, cards, playingCard, melds, countText, outcome,
    moveValues };
}
