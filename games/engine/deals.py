"""Whether a game record was played on given deals: a first dealer and five packs (R3.3,
R4.1), e.g. the deals a tournament fixed for a match before it was played.

The answer is a :class:`SheetError` (a template the platform translates, its parameters and
the hand), not an English sentence. It names the first hand whose pack differs, and never
the cards that differ or the deals' own cards: those are secret until the match is over,
and a card-by-card answer would let repeated uploads read them out.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .record import Record
from .scoresheet import SheetError, gettext_noop


def deal_mismatch(record: Record, first_dealer: int,
                  decks: Sequence[Sequence[Card]]) -> SheetError | None:
    """What first differs between ``record`` and the deals, or ``None`` if it was played on
    them. Packs are compared before the first dealer, so only someone who already holds the
    right packs learns anything about the dealer."""
    for number, (hand, deck) in enumerate(zip(record.hands, decks, strict=False), start=1):
        if tuple(hand.deck) != tuple(deck):
            return SheetError(gettext_noop("the pack is not the one this match was dealt: a "
                                           "record must be played on its match's own deals "
                                           "(R4.1)"), {}, number)
    if record.first_dealer != first_dealer:
        return SheetError(gettext_noop("the first dealer is seat %(seat)s, not the seat this "
                                       "match's deals name (R3.3)"),
                          {"seat": record.first_dealer})
    return None
