"""Melds: sets and runs with wilds and natural 2s (R5), lay-offs and wild swaps (R7.3, R7.4).

A card in a meld is a :class:`Placed`: the card itself and, for a wild, what it
stands for. In a set a wild stands for a rank (``JK=7``); in a run for a card
(``JK=6H``). Run positions go from 1 (ace low) to 14 (ace high) (R5.3).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from .cards import ALL_CARDS, Card, parse_rank, rank_char
from .errors import IllegalActionError

Kind = Literal["set", "run"]
KINDS: tuple[Kind, ...] = ("set", "run")

_TOKEN = re.compile(
    r"(?P<card>JK|(?:10|[A2-9TJQK])[SHDC])(?:=(?P<rank>10|[A2-9TJQK])(?P<suit>[SHDC])?)?"
)


# The classes made while legal actions are listed and actions applied (here, in actions.py
# and state.py) have their own __init__ (init=False): mypyc compiles a written __init__,
# where the one a dataclass generates runs as interpreted Python, five to seven times slower.
# Frozen, they set their fields with object.__setattr__ (which mypyc makes a plain store).
@dataclass(frozen=True, slots=True, init=False)
class Placed:
    """A card as written in a meld: ``7H``, ``2H`` (natural 2), ``JK=7``, ``2C=TS``.

    ``rank``/``suit`` are the declaration after ``=``: ``None`` for a card written
    plainly; ``suit`` is ``None`` for a set declaration (a rank alone).
    """

    card: Card
    rank: int | None
    suit: str | None

    def __init__(self, card: Card, rank: int | None = None, suit: str | None = None) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)

    # Written, so that mypyc compiles them (a dataclass's stay interpreted): the legal swaps
    # compare a meld's wilds.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Placed):
            return NotImplemented
        return self.card is other.card and self.rank == other.rank and self.suit == other.suit

    def __hash__(self) -> int:
        return hash((self.card, self.rank, self.suit))

    def __str__(self) -> str:
        if self.rank is None:
            return self.card.code
        return f"{self.card.code}={rank_char(self.rank)}{self.suit or ''}"

    @classmethod
    def parse(cls, text: str) -> Placed:
        """Parse a card as written in a meld; ``ValueError`` when malformed."""
        match = _TOKEN.fullmatch(text)
        if match is None:
            raise ValueError(f"malformed meld card {text!r}")
        card = Card.parse(match["card"])
        if match["rank"] is None:
            return cls(card)
        return cls(card, parse_rank(match["rank"]), match["suit"])


@dataclass(frozen=True, slots=True, init=False)
class MeldSpec:
    """A meld as laid down in an action: its declared kind and its cards in order."""

    kind: Kind
    cards: tuple[Placed, ...]

    def __init__(self, kind: Kind, cards: tuple[Placed, ...]) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return f"{self.kind}({' '.join(str(p) for p in self.cards)})"

    @classmethod
    def parse(cls, text: str) -> MeldSpec:
        """Parse ``set(7H 7S JK=7)`` or ``run(4H 5H JK=6H)``."""
        match = re.fullmatch(r"(set|run)\((.*)\)", text.strip())
        if match is None:
            raise ValueError(f"malformed meld {text!r}")
        kind: Kind = "set" if match[1] == "set" else "run"
        return cls(kind, tuple(Placed.parse(t) for t in match[2].split()))


@dataclass(frozen=True, slots=True, init=False)
class TableMeld:
    """A meld on the table (immutable: a lay-off or swap makes a new one). A set has
    its ``rank``; a run its ``suit`` and ``low``, the position of ``cards[0]``, with
    its cards kept in position order."""

    id: int
    owner: int
    kind: Kind
    rank: int
    suit: str
    low: int
    cards: tuple[Placed, ...]
    #: the wilds standing for a card or rank, the ones a swap may take (R7.4, R7.5)
    wilds: tuple[Placed, ...] = field(init=False, repr=False, compare=False)

    def __init__(self, id: int, owner: int, kind: Kind, rank: int, suit: str, low: int,
                 cards: tuple[Placed, ...]) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "owner", owner)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "wilds", tuple([p for p in cards if p.rank is not None]))

    def with_cards(self, cards: tuple[Placed, ...], low: int | None = None) -> TableMeld:
        """This meld holding ``cards`` instead (from position ``low``, if given)."""
        return TableMeld(self.id, self.owner, self.kind, self.rank, self.suit,
                         self.low if low is None else low, cards)

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1

    def spec(self) -> MeldSpec:
        return MeldSpec(self.kind, tuple(self.cards))

    def __str__(self) -> str:
        return f"#{self.id} {self.spec()}"


def _illegal_decl(p: Placed, why: str) -> IllegalActionError:
    return IllegalActionError("R5.6", f"{p}: {why}")


def set_rank_of(p: Placed) -> tuple[int, bool]:
    """The rank ``p`` stands for in a set, and whether it is natural (R5.2, R5.4, R5.6)."""
    card = p.card
    if p.rank is None:
        if card.is_joker:
            raise _illegal_decl(p, "a joker must declare the rank it stands for")
        return card.rank, True  # a plain 2 claims to be natural: only in a set of 2s
    if not card.is_wild:
        raise _illegal_decl(p, "a natural card takes no declaration")
    if p.suit is not None:
        raise _illegal_decl(p, "a wild in a set declares a rank, not a card")
    if card.rank == 2 and p.rank == 2:
        raise _illegal_decl(p, "a 2 in a set of 2s is natural; write it plainly")
    return p.rank, False


def run_card_of(p: Placed) -> tuple[int, str, bool]:
    """The rank and suit ``p`` stands for in a run, and whether it is natural (R5.3-R5.6)."""
    card = p.card
    if p.rank is None:
        if card.is_joker:
            raise _illegal_decl(p, "a joker must declare the card it stands for")
        return card.rank, card.suit, True
    if not card.is_wild:
        raise _illegal_decl(p, "a natural card takes no declaration")
    if p.suit is None:
        raise _illegal_decl(p, "a wild in a run declares a card, not a rank")
    if card.rank == 2 and p.rank == 2 and p.suit == card.suit:
        raise _illegal_decl(p, "a 2 standing for itself is natural; write it plainly")
    return p.rank, p.suit, False


def build_set(cards: Sequence[Placed]) -> tuple[int, tuple[Placed, ...]]:
    """Check a set (R5.1, R5.2, R5.4-R5.6); return its rank and cards."""
    if len(cards) < 3:
        raise IllegalActionError("R5.1", f"a meld needs at least 3 cards, got {len(cards)}")
    ranks = [set_rank_of(p) for p in cards]
    rank = next((r for r, natural in ranks if natural and r != 2), None)
    if rank is None:
        rank = next((r for r, natural in ranks if natural), None)
    if rank is None:
        raise IllegalActionError("R5.5", "a meld needs at least one natural card")
    for p, (r, natural) in zip(cards, ranks, strict=True):
        if r != rank:
            if natural and p.card.rank == 2:
                raise IllegalActionError(
                    "R5.4", f"{p} is a wild in a set of {rank_char(rank)}s: declare it")
            raise IllegalActionError(
                "R5.2", f"a set holds one rank: {p} is not a {rank_char(rank)}")
    return rank, tuple(cards)


def _positions(cards: Sequence[Placed], represented: Sequence[tuple[int, str, bool]],
               first: int | None) -> list[int]:
    """Positions of a run's represented cards listed in ascending order (R5.3)."""
    positions = []
    expected = first
    for p, (rank, _suit, _natural) in zip(cards, represented, strict=True):
        if expected is None:
            position = rank  # the first card: an ace is low
        elif rank == expected or (rank == 1 and expected == 14):
            position = expected
        elif _plain_two(p):
            # a 2 written plainly claims its own place (R5.4); away from it, it is a wild
            raise _wild_two(p)
        else:
            raise IllegalActionError(
                "R5.3", f"a run is one unbroken sequence: {rank_char(rank)} does not follow "
                        f"{rank_char(expected - 1)} (no wrap-around past the ace)")
        positions.append(position)
        expected = position + 1
    return positions


def _plain_two(p: Placed) -> bool:
    return p.rank is None and p.card.rank == 2


def _wild_two(p: Placed) -> IllegalActionError:
    return IllegalActionError("R5.4", f"{p} is a wild here and must declare what it stands for")


def run_cards(cards: Sequence[Placed]) -> list[tuple[int, str, bool]]:
    """Represented cards of a run, all of one suit (R5.3); a plainly written 2 of another
    suit than the rest is a wild that was not declared (R5.4)."""
    represented = [run_card_of(p) for p in cards]
    suits = {suit for p, (_r, suit, _n) in zip(cards, represented, strict=True)
             if not _plain_two(p)}
    if len(suits) == 1:
        for p in cards:
            if _plain_two(p) and p.card.suit not in suits:
                raise _wild_two(p)
    suits |= {suit for _r, suit, _n in represented}
    if len(suits) > 1:
        raise IllegalActionError("R5.3", f"a run holds one suit, got {''.join(sorted(suits))}")
    return represented


def build_run(cards: Sequence[Placed]) -> tuple[str, int, tuple[Placed, ...]]:
    """Check a run (R5.1, R5.3-R5.6); return its suit, low position and cards."""
    if len(cards) < 3:
        raise IllegalActionError("R5.1", f"a meld needs at least 3 cards, got {len(cards)}")
    represented = run_cards(cards)
    if not any(natural for _r, _s, natural in represented):
        raise IllegalActionError("R5.5", "a meld needs at least one natural card")
    positions = _positions(cards, represented, None)
    _check_natural_twos(cards, positions)
    return represented[0][1], positions[0], tuple(cards)


def _check_natural_twos(cards: Sequence[Placed], positions: Sequence[int]) -> None:
    for p, position in zip(cards, positions, strict=True):
        if _plain_two(p) and position != 2:
            raise _wild_two(p)


def build_meld(spec: MeldSpec, *, meld_id: int, owner: int) -> TableMeld:
    """Check a meld as declared (R5) and make the table meld."""
    if spec.kind == "set":
        rank, cards = build_set(spec.cards)
        return TableMeld(meld_id, owner, "set", rank, "", 0, cards)
    suit, low, cards = build_run(spec.cards)
    return TableMeld(meld_id, owner, "run", 0, suit, low, cards)


def layoff(meld: TableMeld, cards: Sequence[Placed]) -> TableMeld:
    """The meld with ``cards`` laid off onto it (R7.3), or ``IllegalActionError``."""
    if not cards:
        raise IllegalActionError("R7.3", "a lay-off needs at least one card")
    if meld.kind == "set":
        for p in cards:
            rank, natural = set_rank_of(p)
            if rank != meld.rank:
                if natural and p.card.rank == 2:
                    raise IllegalActionError("R5.4", f"{p} is a wild here: declare it")
                raise IllegalActionError(
                    "R7.3", f"{p} does not fit the set of {rank_char(meld.rank)}s (meld {meld.id})")
        return meld.with_cards(meld.cards + tuple(cards))
    return _layoff_run(meld, cards)


def _layoff_run(meld: TableMeld, cards: Sequence[Placed]) -> TableMeld:
    represented = run_cards(cards)
    if represented[0][1] != meld.suit:
        raise IllegalActionError(
            "R7.3", f"{cards[0]} is not of the run's suit {meld.suit} (meld {meld.id})")
    fixed = [r for r, _s, _n in represented if r != 1]
    aces = len(represented) - len(fixed)
    ace_options: list[list[tuple[int, ...]]] = [[()], [(1,), (14,)], [(1, 14)]]
    for ace_positions in ace_options[aces] if aces <= 2 else []:
        taken = sorted(fixed + list(ace_positions))
        low = min(taken[0], meld.low)
        high = max(taken[-1], meld.high)
        span = set(range(meld.low, meld.high + 1))
        if (len(set(taken)) == len(taken) and not span & set(taken)
                and high - low + 1 == len(taken) + len(meld.cards) and low >= 1 and high <= 14):
            return _place_run(meld, cards, represented, ace_positions)
    raise IllegalActionError(
        "R7.3", f"{' '.join(str(p) for p in cards)} do not extend the run "
                f"{rank_char(meld.low)}{meld.suit}-{rank_char(meld.high)}{meld.suit} "
                f"(meld {meld.id}) into one unbroken sequence")


def _place_run(meld: TableMeld, cards: Sequence[Placed],
               represented: Sequence[tuple[int, str, bool]],
               ace_positions: tuple[int, ...]) -> TableMeld:
    by_position: dict[int, Placed] = dict(enumerate(meld.cards, start=meld.low))
    aces = iter(ace_positions)
    for p, (rank, _suit, _natural) in zip(cards, represented, strict=True):
        by_position[next(aces) if rank == 1 else rank] = p
    low = min(by_position)
    ordered = [by_position[i] for i in range(low, low + len(by_position))]
    _check_natural_twos(ordered, range(low, low + len(ordered)))
    return meld.with_cards(tuple(ordered), low)


def swap(meld: TableMeld, natural: Card, wild: Card) -> TableMeld:
    """The meld with ``wild`` replaced by ``natural`` (R7.4, R7.5), or ``IllegalActionError``."""
    if not wild.is_wild:
        raise IllegalActionError("R7.4", f"{wild} is not a wild; only wilds are replaced")
    if natural.is_joker:
        raise IllegalActionError("R7.4", "a wild is replaced by a natural card, not a joker")
    wilds = [i for i, p in enumerate(meld.cards) if p.card is wild]
    if not wilds:
        raise IllegalActionError("R7.4", f"meld {meld.id} holds no {wild}")
    standing = [i for i in wilds if meld.cards[i].rank is not None]
    if not standing:
        raise IllegalActionError(
            "R7.5", f"the {wild} in meld {meld.id} stands for itself and cannot be replaced")
    for i in standing:
        p = meld.cards[i]
        if meld.kind == "set":
            fits = natural.rank == meld.rank and (not natural.is_wild or meld.rank == 2)
        else:
            fits = p.rank == natural.rank and p.suit == natural.suit
        if fits:
            return meld.with_cards(meld.cards[:i] + (Placed(natural),) + meld.cards[i + 1:])
    stands = ", ".join(str(meld.cards[i]) for i in standing)
    raise IllegalActionError(
        "R7.4", f"{natural} is not the card the {wild} in meld {meld.id} stands for ({stands})")


_PLAIN: Final = tuple([Placed(card) for card in ALL_CARDS])  # by Card.index


def plain(card: Card) -> Placed:
    """``card`` written plainly (a shared instance: placed cards are immutable)."""
    return _PLAIN[card.index]


#: What declare gave, by its arguments packed in one number (see generate._WINDOWS), with
#: each suit's number in it (a set's suit is "").
_DECLARED: Final[dict[int, Placed]] = {}
_SUIT_NUMBER: Final = {"": 0, "S": 1, "H": 2, "D": 3, "C": 4}


def declare(card: Card, kind: Kind, rank: int, suit: str) -> Placed:
    """``card`` placed to stand for ``rank`` (and ``suit`` in a run): plain when natural there."""
    suit_number = _SUIT_NUMBER.get(suit)
    if suit_number is None or not 0 <= rank < 16:
        return _declare(card, kind, rank, suit)  # nothing a meld holds: not kept
    key = ((card.index << 1 | (kind == "run")) << 4 | rank) << 3 | suit_number
    placed = _DECLARED.get(key)
    if placed is None:
        placed = _DECLARED[key] = _declare(card, kind, rank, suit)
    return placed


def _declare(card: Card, kind: Kind, rank: int, suit: str) -> Placed:
    if kind == "set":
        natural = not card.is_wild and card.rank == rank or (card.rank == 2 and rank == 2)
        return plain(card) if natural else Placed(card, rank)
    position_rank = 1 if rank == 14 else rank
    if card.rank == position_rank and card.suit == suit and not card.is_joker:
        return plain(card)
    return Placed(card, position_rank, suit)

