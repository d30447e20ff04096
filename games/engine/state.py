"""The state of a hand: the deal (R4), turns (R6, R7), ends (R8), scores (R9.1).

A hand on its own is a simulator (the bots play hands out with it); a game of five
hands is :class:`~games.engine.game.GameState`, which owns its hands.
``HandState.apply`` checks every action against the rules and raises
:class:`IllegalActionError` naming the rule; ``legal_actions`` (see ``generate.py``)
lists representative legal actions for players and bots.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, NamedTuple

from .actions import (
    PUSHES,
    TAKES,
    Action,
    Discard,
    LayContract,
    LayMelds,
    LayOff,
    Push,
    Swap,
    Take,
)
from .cards import Card, is_full_pack, penalty
from .errors import IllegalActionError
from .melds import Kind, MeldSpec, Placed, TableMeld, build_meld, layoff, swap

#: R3.2: the contract of each hand, as (kind, minimum length) per meld.
CONTRACTS: Final[dict[int, tuple[tuple[Kind, int], ...]]] = {
    1: (("set", 3), ("set", 3)),
    2: (("set", 3), ("run", 4)),
    3: (("run", 4), ("run", 4)),
    4: (("set", 3), ("set", 3), ("set", 3)),
    5: (("run", 5), ("run", 5)),
}


# Run once per hand while the module is imported (CONTRACT_TEXT), before mutmut can switch
# a mutant on, so mutmut cannot test it; test_contracts.py checks every text.
def _contract_text(hand_no: int) -> str:  # pragma: no mutate block
    """The contract in the engine's own (English) words, for its refusals: "two sets of 3";
    people read it translated, from ``games.vocabulary.contract_words``."""
    counts = {1: "a", 2: "two", 3: "three"}
    shapes = Counter(CONTRACTS[hand_no])  # in the contract's order
    return " and ".join(f"{counts[n]} {kind}{'s' if n > 1 else ''} of {size}"
                        for (kind, size), n in shapes.items())


CONTRACT_TEXT: Final = {hand_no: _contract_text(hand_no) for hand_no in CONTRACTS}
HANDS_PER_GAME: Final = len(CONTRACTS)  # R3.1: one hand per contract
MAX_TURNS: Final = 400  # R8.3

Phase = Literal["draw", "play", "over"]


def hand_size(hand_no: int) -> int:
    """R3.1: hand h deals 5 + h cards."""
    return 5 + hand_no


def dealer_of(first_dealer: int, hand_no: int) -> int:
    """R3.3: the deal passes to the left."""
    return (first_dealer + hand_no - 1) % 4


def team_of(seat: int) -> int:
    """R1.1: seats 0 and 2 are team 0; seats 1 and 3 are team 1."""
    return seat % 2


@dataclass(frozen=True, slots=True, init=False)  # init=False: see melds.Placed
class HandOutcome:
    """How a hand ended (R8) and the two team scores (R9.1)."""

    hand: int
    ended_by: Literal["out", "stock"]
    out_seat: int | None
    scores: tuple[int, int]

    def __init__(self, hand: int, ended_by: Literal["out", "stock"], out_seat: int | None,
                 scores: tuple[int, int]) -> None:
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "ended_by", ended_by)
        object.__setattr__(self, "out_seat", out_seat)
        object.__setattr__(self, "scores", scores)


@dataclass(frozen=True, slots=True, init=False)  # init=False: see melds.Placed
class Event:
    """One action in a hand's history. ``card`` is public (the card taken or the
    discard pushed); ``private`` is the stock card a push hands to the left,
    which only that seat sees (R6.3)."""

    action: Action
    card: Card | None
    private: Card | None

    def __init__(self, action: Action, card: Card | None = None,
                 private: Card | None = None) -> None:
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "private", private)


@dataclass(slots=True)
class HandState:
    """One hand in play. Stock and discard pile are lists whose *last* item is the top."""

    hand_no: int
    dealer: int
    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    melds: list[TableMeld] = field(default_factory=list)
    contract_down: list[bool] = field(default_factory=lambda: [False] * 4)
    seat: int = 0
    phase: Phase = "draw"
    taken: Card | None = None  # taken from the pile this turn and not discardable (R6.5)
    pending: list[tuple[Card, int]] = field(default_factory=list)  # swapped wilds (R7.4)
    turns: int = 0
    outcome: HandOutcome | None = None
    history: list[Event] = field(default_factory=list)
    seen: list[list[Event]] = field(default_factory=lambda: [[], [], [], []])  # per seat
    buried: tuple[Card, ...] = ()  # wild upcards put under the stock, seen by all (R4.3)

    @classmethod
    def deal(cls, hand_no: int, dealer: int, deck: Sequence[Card]) -> HandState:
        """Deal ``deck`` (top first, R4.1) as R4.2 and R4.3 say."""
        if not is_full_pack(deck):
            raise ValueError("a deck must be exactly the 108 cards of R2.1")
        n = hand_size(hand_no)
        hands: list[list[Card]] = [[] for _ in range(4)]
        for i in range(4 * n):
            hands[(dealer + 1 + i) % 4].append(deck[i])
        rest = list(deck[4 * n:])
        buried = []
        while rest[0].is_wild:  # R4.3: a wild upcard goes under the stock
            buried.append(rest.pop(0))
        upcard = rest.pop(0)
        stock = rest + buried
        stock.reverse()
        return cls(hand_no, dealer, hands, stock, [upcard], seat=(dealer + 1) % 4,
                   buried=tuple(buried))

    def copy(self) -> HandState:
        return HandState(
            self.hand_no, self.dealer, [list(h) for h in self.hands], list(self.stock),
            list(self.discard), list(self.melds), list(self.contract_down),
            self.seat, self.phase, self.taken, list(self.pending), self.turns, self.outcome,
            list(self.history), [list(s) for s in self.seen], self.buried)

    @property
    def end_rule(self) -> str:
        """The rule that ended the hand: out (R8.1), the 400-turn bound (R8.3) or an
        exhausted stock (R8.2); ``""`` while it goes on."""
        if self.outcome is None:
            return ""
        if self.outcome.ended_by == "out":
            return "R8.1"
        return "R8.3" if self.turns >= MAX_TURNS else "R8.2"

    # -- applying actions ---------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action``; ``IllegalActionError`` (and no change) if the rules forbid it."""
        if self.outcome is not None:
            # cite the rule that ended it: out (R8.1), stock (R8.2) or 400 turns (R8.3)
            raise IllegalActionError(self.end_rule,
                                     f"hand {self.hand_no} has already ended")
        if action.seat != self.seat:
            raise IllegalActionError("R6.1", f"it is seat {self.seat}'s turn, not seat "
                                             f"{action.seat}'s")
        if isinstance(action, (Take, Push)):
            if self.phase != "draw":
                raise IllegalActionError("R6.2", "a turn has exactly one draw, at its start")
            self._take() if isinstance(action, Take) else self._push()
            return
        if self.phase != "play":
            raise IllegalActionError("R6.2", "a turn starts with a draw: take or push")
        if isinstance(action, Discard):
            self._discard(action.card)
        elif isinstance(action, LayContract):
            self._contract(action.melds)
        elif isinstance(action, LayMelds):
            self._need_contract()
            self._lay(action.melds, "R7.3")
        elif isinstance(action, LayOff):
            self._layoff(action.meld, action.cards)
        else:
            self._swap(action)
        self._log(Event(action))

    def _take(self) -> None:
        card = self.discard.pop()
        hand = self.hands[self.seat]
        # R6.5: the taken card may be discarded only by one who already held a copy.
        self.taken = None if card in hand else card
        hand.append(card)
        self.phase = "play"
        self._log(Event(TAKES[self.seat], card))

    def _push(self) -> None:
        if len(self.stock) < 2:  # R6.4: pushing on a short stock exhausts it
            self._log(Event(PUSHES[self.seat]))
            self._end(None)
            return
        left = (self.seat + 1) % 4
        stock_card, discard_card = self.stock.pop(), self.discard.pop()
        self.hands[left] += [stock_card, discard_card]
        self.hands[self.seat].append(self.stock.pop())
        self.taken = None
        self.phase = "play"
        self._log(Event(PUSHES[self.seat], discard_card, stock_card))

    def _log(self, event: Event) -> None:
        self.history.append(event)
        if event.private is None:
            for seen in self.seen:
                seen.append(event)
            return
        public = Event(event.action, event.card)
        left = (event.action.seat + 1) % 4
        for seat, seen in enumerate(self.seen):
            seen.append(event if seat == left else public)

    def _discard(self, card: Card) -> None:
        if self.pending:
            raise IllegalActionError(
                "R7.4", f"the swapped {self.pending[0][0]} must be played into a meld "
                        "before the discard")
        hand = self.hands[self.seat]
        if card not in hand:
            raise IllegalActionError("R6.6", f"{card} is not in seat {self.seat}'s hand")
        if card is self.taken:
            raise IllegalActionError(
                "R6.5", f"{card} was taken from the discard pile this turn and may not be "
                        "discarded")
        hand.remove(card)
        self.discard.append(card)
        self.turns += 1
        if not hand:
            self._end(self.seat)  # out by discarding the last card
        elif self.turns >= MAX_TURNS:
            self._end(None)
        else:
            self.seat = (self.seat + 1) % 4
            self.phase = "draw"
            self.taken = None

    def _need_contract(self) -> None:
        if not self.contract_down[self.seat]:
            partner = (self.seat + 2) % 4
            if self.contract_down[partner]:
                raise IllegalActionError(
                    "R7.2", f"seat {self.seat} must lay down their own contract "
                            f"({CONTRACT_TEXT[self.hand_no]}); seat {partner}'s does not "
                            "count for them")
            raise IllegalActionError(
                "R7.1", f"seat {self.seat} must lay down the contract "
                        f"({CONTRACT_TEXT[self.hand_no]}) before any other meld action")

    def _contract(self, melds: Sequence[MeldSpec]) -> None:
        if self.contract_down[self.seat]:
            raise IllegalActionError("R7.1", f"seat {self.seat}'s contract is already down")
        need = CONTRACTS[self.hand_no]
        wanted = f"hand {self.hand_no} contract needs {CONTRACT_TEXT[self.hand_no]}"
        if sorted(m.kind for m in melds) != sorted(kind for kind, _n in need):
            raise IllegalActionError("R7.1", f"{wanted}; got {_kinds_text(melds)}")
        minimum = {kind: n for kind, n in need}
        for spec in melds:
            if len(spec.cards) < minimum[spec.kind]:
                raise IllegalActionError(
                    "R7.1", f"{wanted}; the {spec.kind} {spec} has only {len(spec.cards)} cards")
        self._lay(melds, "R7.1")
        self.contract_down[self.seat] = True

    def _lay(self, specs: Sequence[MeldSpec], rule: str) -> None:
        if not specs:
            raise IllegalActionError(rule, "lay down at least one meld")
        new = [build_meld(spec, meld_id=len(self.melds) + i, owner=self.seat)
               for i, spec in enumerate(specs)]
        self._spend([p for spec in specs for p in spec.cards], None, rule)
        self.melds.extend(new)
        self._maybe_out()

    def _layoff(self, meld_id: int, cards: Sequence[Placed]) -> None:
        self._need_contract()
        meld = self._meld(meld_id)
        grown = layoff(meld, cards)
        self._spend(cards, meld_id, "R7.3")
        self.melds[meld_id] = grown
        self._maybe_out()

    def _swap(self, action: Swap) -> None:
        self._need_contract()
        meld = self._meld(action.meld)
        if action.card not in self.hands[self.seat]:
            raise IllegalActionError(
                "R7.4", f"{action.card} is not in seat {self.seat}'s hand")
        self.melds[action.meld] = swap(meld, action.card, action.wild)
        self.hands[self.seat].remove(action.card)
        self.pending.append((action.wild, action.meld))

    def _meld(self, meld_id: int) -> TableMeld:
        if not 0 <= meld_id < len(self.melds):
            raise IllegalActionError("R7.3", f"there is no meld {meld_id} on the table "
                                             f"({len(self.melds)} melds)")
        return self.melds[meld_id]

    def _spend(self, cards: Sequence[Placed], target: int | None, rule: str) -> None:
        """Take ``cards`` from the pending swapped wilds (first) and the hand, or raise."""
        hand = list(self.hands[self.seat])
        pending = list(self.pending)
        for p in cards:
            card = p.card
            from_pending = next((i for i, (c, src) in enumerate(pending)
                                 if c is card and src != target), None)
            if from_pending is not None:
                pending.pop(from_pending)
            elif card in hand:
                hand.remove(card)
            elif any(c is card for c, _src in pending):
                raise IllegalActionError(
                    "R7.4", f"the {card} taken from meld {target} must go into a different meld")
            else:
                raise IllegalActionError(rule, f"{card} is not in seat {self.seat}'s hand")
        self.hands[self.seat] = hand
        self.pending = pending

    def _maybe_out(self) -> None:
        # R8.1 / R7.4: out once the hand is empty and no swapped wild waits to be played.
        if not self.hands[self.seat] and not self.pending:
            self._end(self.seat)

    def _end(self, out_seat: int | None) -> None:
        self.phase = "over"
        scores = [penalty(self.hands[s]) + penalty(self.hands[s + 2]) for s in (0, 1)]
        if out_seat is not None:
            scores[team_of(out_seat)] = 0  # R9.1
        self.outcome = HandOutcome(
            self.hand_no, "stock" if out_seat is None else "out", out_seat,
            (scores[0], scores[1]))

    # -- what a seat may see --------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know (see :class:`Observation`), nothing more."""
        mover = seat == self.seat
        # In the order of Observation's fields: by keyword, building one takes twice as long,
        # and one is made for every decision.
        return Observation(
            seat, self.hand_no, self.dealer,
            tuple(self.hands[seat]),  # hand
            tuple(self.melds),
            tuple(self.discard),
            tuple(map(len, self.hands)),  # hand_sizes
            len(self.stock),  # stock_size
            tuple(self.contract_down),
            self.seat, self.phase, self.turns,  # to_move, phase, turns
            self.taken if mover else None,
            tuple(self.pending) if mover else (),
            tuple(self.seen[seat]),  # history
            self.buried,
        )


def _kinds_text(melds: Sequence[MeldSpec]) -> str:
    return ", ".join(f"a {m.kind} of {len(m.cards)}" for m in melds) or "no melds"


class Observation(NamedTuple):
    """One seat's view of a hand: its own hand, the table, the discard pile, the
    other hands' and the stock's sizes, contracts down, the public history and the wilds
    buried under the stock at the deal (R4.3; they lie at its bottom in this order, so
    the last ``stock_size`` of them are still there). A push's stock card appears in
    ``history`` only for the seat that received it.
    (An immutable named tuple: one is made for every decision, so it must be cheap.)"""

    seat: int
    hand_no: int
    dealer: int
    hand: tuple[Card, ...]
    melds: tuple[TableMeld, ...]
    discard: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    contract_down: tuple[bool, ...]
    to_move: int
    phase: Phase
    turns: int
    taken: Card | None
    pending: tuple[tuple[Card, int], ...]
    history: tuple[Event, ...]
    buried: tuple[Card, ...]
