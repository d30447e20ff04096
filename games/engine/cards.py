"""Cards, the pack and penalty values (R2).

A :class:`Card` is one of 53 interned values: the 52 rank-suit pairs and the
joker. ``Card.parse("7H") is Card.parse("7H")``, so cards compare by identity,
which keeps hands (plain lists of cards) fast to search.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

SUITS: Final = "SHDC"
RANK_CHARS: Final = "?A23456789TJQK"  # index = rank; 1 = ace, 11 = jack, 13 = king
JOKER_CODE: Final = "JK"


def rank_char(rank: int) -> str:
    """The notation of a rank (R2.2); 14 (ace high) is written ``A``."""
    return RANK_CHARS[1 if rank == 14 else rank]


def parse_rank(text: str) -> int:
    """Parse a rank character (``10`` is accepted for ``T``, R2.2); ``ValueError`` if unknown."""
    if text == "10":
        return 10
    if len(text) == 1 and text in RANK_CHARS[1:]:
        return RANK_CHARS.index(text)
    raise ValueError(f"unknown rank {text!r}")


# Run once per rank while the module is imported, before mutmut can switch a mutant on,
# so mutmut cannot test it; test_cards.py checks every card's value (R2.4).
def _penalty(rank: int) -> int:  # pragma: no mutate block
    # R2.4: A = 15; K, Q, J, T = 10; 9 down to 3 = 5; every 2 and joker = 20.
    if rank in (0, 2):
        return 20
    if rank == 1:
        return 15
    return 10 if rank >= 10 else 5


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Card:
    """One card: ``rank`` 1..13 (ace = 1) and ``suit`` in ``SHDC``, or the joker (rank 0).

    Made only by :func:`_make` below (cards are interned: equal cards are the same object,
    so they compare by identity); frozen, so that no one can change a shared card."""

    rank: int
    suit: str
    code: str
    value: int
    is_wild: bool
    is_joker: bool
    index: int
    run_bits: int  # bit p set for each run position p the card can take naturally (R5.3)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Card.parse, (self.code,))

    def __hash__(self) -> int:
        # equal cards are the same card, so identity decides equality and the index,
        # unique to each card, can be the hash
        return self.index

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``7H``, ``TS``, ``10S`` or ``JK`` (R2.2); ``ValueError`` for anything else."""
        card = _BY_CODE.get(text)
        if card is None and text.startswith("10") and len(text) == 3:
            card = _BY_CODE.get("T" + text[2])
        if card is None:
            raise ValueError(f"unknown card code {text!r}")
        return card

    @classmethod
    def of(cls, rank: int, suit: str) -> Card:
        """The natural card of ``rank`` (1..14, 14 = ace) and ``suit``."""
        return _BY_CODE[RANK_CHARS[1 if rank == 14 else rank] + suit]


#: Every card by its code: the interned instances.
_BY_CODE: Final[dict[str, Card]] = {}


# Run once per card while the module is imported, before mutmut can switch a mutant on,
# so mutmut cannot test it; test_cards.py checks every card it built.
def _make(rank: int, suit: str, index: int) -> Card:  # pragma: no mutate block
    code = JOKER_CODE if rank == 0 else RANK_CHARS[rank] + suit
    run_bits = 0 if rank == 0 else (1 << 1 | 1 << 14) if rank == 1 else 1 << rank
    # R2.3: jokers and 2s are wild
    card = Card(rank, suit, code, _penalty(rank), rank in (0, 2), rank == 0, index, run_bits)
    _BY_CODE[code] = card
    return card


JOKER: Final = _make(0, "", 52)
ALL_CARDS: Final[tuple[Card, ...]] = tuple(
    _make(rank, suit, i * 13 + rank - 1)
    for i, suit in enumerate(SUITS)
    for rank in range(1, 14)
) + (JOKER,)


def card_of(code: Any) -> Card | None:
    """The card of ``code`` as records and the engine write it (``TS``, not ``10S``), else
    None (whatever ``code`` is)."""
    return _BY_CODE.get(code) if type(code) is str else None


def full_pack() -> list[Card]:
    """The 108-card pack of R2.1, in a fixed order: two of each card, four jokers."""
    return [c for c in ALL_CARDS[:52] for _ in range(2)] + [JOKER] * 4


def shuffled_pack(rng: random.Random) -> list[Card]:
    pack = full_pack()
    rng.shuffle(pack)
    return pack


def is_full_pack(cards: Sequence[Card]) -> bool:
    """True when ``cards`` is exactly the multiset of R2.1."""
    if len(cards) != 108:
        return False
    counts = [0] * 53
    for card in cards:
        counts[card.index] += 1
    return counts[52] == 4 and all(n == 2 for n in counts[:52])


def penalty(cards: Iterable[Card]) -> int:
    """Sum of penalty values (R2.4)."""
    return sum(card.value for card in cards)


def cards_str(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)


def parse_cards(text: str) -> list[Card]:
    return [Card.parse(code) for code in text.split()]
