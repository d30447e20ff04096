"""Stacked packs and hand-built records for the rules tests.

``stack`` lays out a 108-card pack so that a deal (R4.2, R4.3) gives exactly the
cards a test names; everything it does not name is filler from the rest of the
pack. ``record`` writes a ``push-record/1`` document through the engine's own
``Record``/``action_to_json``, so tests feed the verifier what the platform would.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.engine import (
    Action,
    Card,
    ClaimedResult,
    HandRecord,
    HandState,
    Record,
    full_pack,
    hand_size,
    parse_action,
)


def cards(text: str) -> list[Card]:
    """``"7H 7S JK"`` as cards (``10H`` accepted, R2.2)."""
    return [Card.parse(code) for code in text.split()]


def _take(pool: Counter[Card], wanted: Iterable[Card], what: str) -> list[Card]:
    taken = []
    for card in wanted:
        if pool[card] == 0:
            raise ValueError(f"stack(): no {card} left in the pack for {what}")
        pool[card] -= 1
        taken.append(card)
    return taken


def stack(dealer: int, hand_no: int, hands: Mapping[int, str] | None = None,
          upcard: str | None = None, stock: str = "", buried: str = "") -> list[Card]:
    """A full pack that deals ``hands[seat]`` to each named seat (R4.2).

    A seat given fewer than ``5 + hand_no`` cards gets its named cards first and
    filler after them. ``buried`` are wilds turned up and buried before ``upcard``
    (R4.3); ``upcard`` (a non-wild filler card when not given) is the first card
    left face up; ``stock`` follows it, top card first. Filler is the rest of the
    pack, naturals before wilds, so unnamed hands and the upper stock hold no wild.
    """
    n = hand_size(hand_no)
    pool: Counter[Card] = Counter(full_pack())
    deck: list[Card | None] = [None] * 108
    for seat, text in (hands or {}).items():
        named = _take(pool, cards(text), f"seat {seat}")
        if len(named) > n:
            raise ValueError(f"stack(): seat {seat} gets {n} cards in hand {hand_no}")
        slots = [i for i in range(4 * n) if (dealer + 1 + i) % 4 == seat]
        for i, card in zip(slots, named, strict=False):
            deck[i] = card
    at = 4 * n
    for card in _take(pool, cards(buried), "buried"):
        if not card.is_wild:
            raise ValueError(f"stack(): only wilds are buried (R4.3), not {card}")
        deck[at] = card
        at += 1
    if upcard is not None:
        (deck[at],) = _take(pool, cards(upcard), "the upcard")
    else:
        deck[at] = _take(pool, [next(c for c in full_pack() if not c.is_wild and pool[c])],
                         "the upcard")[0]
    for i, card in enumerate(_take(pool, cards(stock), "the stock"), start=at + 1):
        deck[i] = card
    filler = iter(sorted(pool.elements(), key=lambda c: (c.is_wild, c.index)))
    return [card if card is not None else next(filler) for card in deck]


def deal(hand_no: int = 1, dealer: int = 3, *, hands: Mapping[int, str] | None = None,
         upcard: str | None = None, stock: str = "", buried: str = "") -> HandState:
    """The hand dealt from ``stack(...)``; with the default dealer 3, seat 0 moves first."""
    return HandState.deal(hand_no, dealer, stack(dealer, hand_no, hands, upcard, stock, buried))


def play(state: HandState, *actions: str | Action) -> HandState:
    """Apply actions given in text form (``"0 push"``) or as objects; return the state."""
    for action in actions:
        state.apply(parse_action(action) if isinstance(action, str) else action)
    return state


def record(first_dealer: int, hands: Sequence[tuple[Sequence[Card], Sequence[str | Action]]],
           result: Mapping[str, Any] | None = None,
           players: Sequence[str] | None = None) -> dict[str, Any]:
    """A ``push-record/1`` document: one ``(deck, actions)`` per hand, an optional claimed
    ``result`` (``{"hands": [[t0, t1], ...], "totals": [t0, t1]}``)."""
    claim = None
    if result is not None:
        claim = ClaimedResult(tuple((a, b) for a, b in result["hands"]),
                              (result["totals"][0], result["totals"][1]))
    return Record(
        first_dealer,
        tuple(HandRecord(tuple(deck), tuple(parse_action(a) if isinstance(a, str) else a
                                            for a in actions))
              for deck, actions in hands),
        tuple(players) if players is not None else None,
        claim,
    ).to_json()


#: For each hand, a first player's cards, an upcard and the contract that takes the
#: upcard and goes out at once by melding all of them (R7.1, R8.1).
OUT_AT_ONCE: dict[int, tuple[str, str, str]] = {
    1: ("7H 7S 7D QS QD QC", "7C", "set(7H 7S 7D 7C) set(QS QD QC)"),
    2: ("9C 9D 9S 4H 5H 6H 7H", "9H", "set(9C 9D 9S 9H) run(4H 5H 6H 7H)"),
    3: ("3S 4S 5S 6S 8D 9D TD JD", "7S", "run(3S 4S 5S 6S 7S) run(8D 9D TD JD)"),
    4: ("5C 5D 5H 8C 8S 8H KC KS KH", "KD", "set(5C 5D 5H) set(8C 8S 8H) set(KC KS KH KD)"),
    5: ("3C 4C 5C 6C 7C 9H TH JH QH KH", "AH", "run(3C 4C 5C 6C 7C) run(9H TH JH QH KH AH)"),
}


def out_at_once(hand_no: int, dealer: int,
                others: Mapping[int, str] | None = None) -> tuple[list[Card], list[str]]:
    """A deck and the two actions of a hand whose first player takes the upcard and goes
    out by laying down the contract; ``others`` names other seats' hands."""
    first = (dealer + 1) % 4
    hand, upcard, contract = OUT_AT_ONCE[hand_no]
    deck = stack(dealer, hand_no, {**(others or {}), first: hand}, upcard=upcard)
    return deck, [f"{first} take", f"{first} contract {contract}"]


def all_cards(state: HandState) -> Counter[Card]:
    """Every card of a hand in play: hands, stock, discard pile, melds and pending wilds."""
    counted: Counter[Card] = Counter(state.stock)
    counted.update(state.discard)
    for hand in state.hands:
        counted.update(hand)
    for meld in state.melds:
        counted.update(p.card for p in meld.cards)
    counted.update(card for card, _source in state.pending)
    return counted


FULL_PACK: Counter[Card] = Counter(full_pack())
