/* A live table's moves in words (the match replay's wording). The server sends every
   action in the engine's structured form (an event's "move", a view's "moves", a ways
   answer's "moves": "do", "seat" and by kind "card", "melds", "meld", "cards", "wild",
   plus "text", the form an "act" sends back), so nothing here reads the text. */

import { element, fill, text } from "../games/cards.js";

export function findMove(moves, kind, card) {
  // the legal move of this kind (with this card, for a discard), or null
  return (moves || []).find((m) => m.do === kind && (card === undefined || m.card === card)) ||
    null;
}

/* Words for the moves at a table: ``w`` is wordsFor(msg, players) (../games/cards.js);
   ``humans``: which seats people hold (a bot's move for a person is marked). */
export function moveWords(msg, players, w, humans) {
  function describeEvent(event) {
    const move = event.move;
    let template = msg[move.do];
    const values = w.moveValues(move.do === "take" ? { ...move, card: event.card } : move);
    if (move.do === "push") {
      if (!event.card) {
        template = msg.push_end;
      } else {
        values.left = players[(event.seat + 1) % 4];
        values.card = w.card(event.card);
        template = event.private ? msg.push_private : msg.push_public;
        values.stock_card = event.private ? w.card(event.private) : "";
      }
    }
    const out = fill(template, values);
    if (event.hand_result) {
      out.appendChild(document.createTextNode(" " + w.outcome(event.hand_result)));
    }
    if (event.bot && humans[event.seat]) {
      // a bot played it for a person: said, never hidden
      out.appendChild(document.createTextNode(" "));
      out.appendChild(element("span", "badge badge-bot", msg.played_by_bot));
    }
    return out;
  }

  function describeWay(move) {
    // one way of playing the selection, as a choice: "Lay down the contract: set ..."
    if (move.do === "contract" || move.do === "meld") {
      return fill(move.do === "contract" ? msg.way_contract : msg.way_meld,
        { melds: w.melds(move.melds) });
    }
    if (move.do === "layoff") {
      return fill(msg.way_layoff, { cards: w.cards(move.cards, " "), meld: move.meld });
    }
    return fill(msg.way_swap, { card: w.card(move.card), meld: move.meld, wild: w.card(move.wild) });
  }

  function dealLine(hand) {
    return fill(msg.deal, { hand: hand.hand_no, dealer: players[hand.dealer],
      size: msg.hand_sizes[String(hand.hand_no)], contract: msg.contracts[String(hand.hand_no)] });
  }

  function handResultLine(end) {
    return text(msg.hand_result_line, { hand: end.hand_no, outcome: w.outcome(end) });
  }

  return { describeEvent, describeWay, dealLine, handResultLine };
}
