"""A duplicate round's boards as a deal file, ``push-deals/1``: the PBN idea for Push,
plain text a person can read and a program can parse (docs/api/files.md gives the grammar).

The first line is ``% push-deals/1``; tag lines ``[Name "value"]`` follow, the event's, then
one block a board, blocks separated by a blank line. A value is a JSON string (RFC 8259: a
``"`` or ``\\`` in a name is escaped as JSON escapes it). Cards are written as the game
records write them (``AS``, ``TH``, ``JK``), separated by single spaces. A board's block
gives its number, the hand of the game it is (which fixes the cards dealt, R3.1), its
dealer's seat (R3.3), the four seats' cards as dealt (R4.2, in the order each seat got them),
the upcard and the wild cards turned before it and put under the stock (R4.3), the stock
(top first) and the whole pack (top first, R4.1), from which the rest follows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from games.engine import Card, HandState
from tournaments.duplicate import Board

FIRST_LINE = "% push-deals/1"


def _tag(name: str, value: str | int) -> str:
    return f"[{name} {json.dumps(str(value), ensure_ascii=False)}]"


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)


def board_block(board: Board) -> list[str]:
    """One board's tag lines."""
    dealt = HandState.deal(board.hand, board.dealer, board.pack)
    return [_tag("Board", board.number), _tag("Hand", board.hand),
            _tag("Dealer", board.dealer),
            *(_tag(f"Seat{seat}", _cards(dealt.hands[seat])) for seat in range(4)),
            _tag("Upcard", dealt.discard[-1].code), _tag("Buried", _cards(dealt.buried)),
            _tag("Stock", _cards(reversed(dealt.stock))), _tag("Pack", _cards(board.pack))]


def deal_file(*, event: str, round_number: int, boards: Sequence[Board]) -> str:
    """The deal file of a round's ``boards`` (of the tournament named ``event``)."""
    lines = [FIRST_LINE, _tag("Event", event), _tag("Round", round_number)]
    for board in boards:
        lines += ["", *board_block(board)]
    return "\n".join(lines) + "\n"
