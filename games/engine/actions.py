"""Actions (R6, R7): value objects with a round-tripping text form and JSON form.

Text form, used in tests and logs: ``0 take``, ``0 push``, ``0 discard 4C``,
``0 contract set(7H 7S JK=7) set(QS QD QD)``, ``0 meld run(4H 5H 6H)``,
``2 layoff 3 JK=8 9S``, ``2 swap 0 7S JK``. The JSON form is push-record.md's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .cards import ALL_CARDS, Card
from .melds import MeldSpec, Placed


# Each action has its own __init__ (init=False): the legal actions are made afresh for every
# decision, and mypyc compiles a written __init__ where a dataclass's generated one runs as
# interpreted Python, several times slower (see melds.Placed).
@dataclass(frozen=True, slots=True, init=False)
class Take:
    """Draw the top discard (R6.3)."""

    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)

    def __str__(self) -> str:
        return f"{self.seat} take"


@dataclass(frozen=True, slots=True, init=False)
class Push:
    """Push the stock and discard tops to the left, then draw from the stock (R6.3, R6.4)."""

    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)

    def __str__(self) -> str:
        return f"{self.seat} push"


@dataclass(frozen=True, slots=True, init=False)
class Discard:
    """Discard one card, ending the turn (R6.6)."""

    seat: int
    card: Card

    def __init__(self, seat: int, card: Card) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)

    def __str__(self) -> str:
        return f"{self.seat} discard {self.card}"


@dataclass(frozen=True, slots=True, init=False)
class LayContract:
    """Lay down this hand's contract (R7.1)."""

    seat: int
    melds: tuple[MeldSpec, ...]

    def __init__(self, seat: int, melds: tuple[MeldSpec, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "melds", melds)

    def __str__(self) -> str:
        return f"{self.seat} contract {' '.join(str(m) for m in self.melds)}"


@dataclass(frozen=True, slots=True, init=False)
class LayMelds:
    """Lay down further melds after the contract (R7.3)."""

    seat: int
    melds: tuple[MeldSpec, ...]

    def __init__(self, seat: int, melds: tuple[MeldSpec, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "melds", melds)

    def __str__(self) -> str:
        return f"{self.seat} meld {' '.join(str(m) for m in self.melds)}"


@dataclass(frozen=True, slots=True, init=False)
class LayOff:
    """Add cards to a meld on the table (R7.3)."""

    seat: int
    meld: int
    cards: tuple[Placed, ...]

    def __init__(self, seat: int, meld: int, cards: tuple[Placed, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "meld", meld)
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return f"{self.seat} layoff {self.meld} {' '.join(str(p) for p in self.cards)}"


@dataclass(frozen=True, slots=True, init=False)
class Swap:
    """Replace ``wild`` in a meld by the natural ``card`` from hand (R7.4)."""

    seat: int
    meld: int
    card: Card
    wild: Card

    def __init__(self, seat: int, meld: int, card: Card, wild: Card) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "meld", meld)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "wild", wild)

    def __str__(self) -> str:
        return f"{self.seat} swap {self.meld} {self.card} {self.wild}"


Action = Take | Push | Discard | LayContract | LayMelds | LayOff | Swap

#: The actions without choices, made once and shared (actions are immutable): each seat's
#: take and push, and its discard of each card (by ``Card.index``).
TAKES: Final = tuple(Take(seat) for seat in range(4))
PUSHES: Final = tuple(Push(seat) for seat in range(4))
DISCARDS: Final = tuple(tuple(Discard(seat, card) for card in ALL_CARDS) for seat in range(4))

DO_NAMES: dict[type, str] = {
    Take: "take", Push: "push", Discard: "discard", LayContract: "contract",
    LayMelds: "meld", LayOff: "layoff", Swap: "swap",
}


def parse_action(text: str) -> Action:
    """Parse the text form; ``ValueError`` when malformed."""
    seat_text, _, rest = text.strip().partition(" ")
    do, _, args = rest.partition(" ")
    seat = int(seat_text)
    if do in ("take", "push") and not args:
        return Take(seat) if do == "take" else Push(seat)
    if do == "discard":
        return Discard(seat, Card.parse(args.strip()))
    if do in ("contract", "meld"):
        melds = tuple(MeldSpec.parse(part + ")") for part in args.split(")") if part.strip())
        return LayContract(seat, melds) if do == "contract" else LayMelds(seat, melds)
    words = args.split()
    if do == "layoff" and len(words) >= 2:
        return LayOff(seat, int(words[0]), tuple(Placed.parse(w) for w in words[1:]))
    if do == "swap" and len(words) == 3:
        return Swap(seat, int(words[0]), Card.parse(words[1]), Card.parse(words[2]))
    raise ValueError(f"malformed action {text!r}")


def _meld_json(spec: MeldSpec) -> dict[str, Any]:
    return {"kind": spec.kind, "cards": [str(p) for p in spec.cards]}


def action_to_json(action: Action) -> dict[str, Any]:
    """The push-record/1 form of an action."""
    data: dict[str, Any] = {"seat": action.seat, "do": DO_NAMES[type(action)]}
    if isinstance(action, Discard):
        data["card"] = action.card.code
    elif isinstance(action, (LayContract, LayMelds)):
        data["melds"] = [_meld_json(m) for m in action.melds]
    elif isinstance(action, LayOff):
        data["meld"] = action.meld
        data["cards"] = [str(p) for p in action.cards]
    elif isinstance(action, Swap):
        data.update(meld=action.meld, card=action.card.code, wild=action.wild.code)
    return data
