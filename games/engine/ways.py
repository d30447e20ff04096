"""Ways to play chosen cards: every legal meld action of the seat to move that uses
exactly a given multiset of cards (what a player who picked cards in a browser may do).

Without a target meld: lay the contract (R7.1) while it is not down, else lay one or
more further melds (R7.3), in every split of the cards into melds and every wild
declaration that makes them legal. With a target meld: lay the cards off onto it (R7.3,
each wild position) and, for one natural card, swap it for each wild it may replace
(R7.4). Cards are taken from the swapped wilds waiting to be played first, then the hand,
as ``HandState.apply`` does, so in the pending phase a swapped wild has its lay-offs.

Candidates are only proposed here; the engine decides. Each is applied to a hand rebuilt
from the seat's observation (``apply`` needs nothing else for a meld action), and kept
only if accepted and if the turn can still go on afterwards (the generator has a move
left: no stranding with the taken card, R6.5, nor a swapped wild with nowhere to go,
R7.4). Results are distinct moves (melds in another order are the same move), in a fixed
order, at most ``limit``.

Wilds are interchangeable (R2.3, R5.6) except where a 2 stands for itself (R5.4: at the
2-position of a run of its suit, or in a set of 2s). So the search first chooses which 2s
stand for themselves and counts them as naturals; it then splits the naturals into groups,
each with a number of wild places, and gives each group its shapes (a set, or a run window
with its holes): a *skeleton*. The candidates of one skeleton differ only in which wild
fills which hole, never where a 2 would stand for itself, so the engine accepts all of them
or none (the rules read a wild's declaration, not its card; the cards spent are the same).
One is checked first, and only when accepted are the others offered (each still checked).
And when the cards would leave only the card taken this turn, which may not be discarded
(R6.5), and no meld on the table can take it, only skeletons with a meld of its rank, or of
its suit and reaching it, are tried: the engine would refuse the others.

Work is bounded, as the search runs in the server's database thread: every step (a group
of cards, a shape, a candidate) costs a unit and each candidate the engine refuses
:data:`CHECK` units more, at most ``budget`` plus :data:`PER_WAY` for each of the ``limit``
ways it may return (a way found costs no check units: there are at most ``limit``). Units,
not the clock, so the answer is the same on any machine and in tests; the default stops
within some 10 to 20 ms on the reference machine (``manage.py bench_engine --ways``).
When the units run out, :func:`ways` returns the ways found so far, if any; having found
none, it refuses with ``IllegalActionError`` (:data:`TOO_MANY_WAYS`, rule R7.1 or R7.3),
asking the player to select fewer cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import product

from .actions import Action, LayContract, LayMelds, LayOff, Swap
from .cards import Card
from .errors import IllegalActionError
from .generate import generate
from .melds import MeldSpec, Placed, TableMeld, declare, plain
from .scoresheet import gettext_noop
from .skeletons import (
    KINDS,
    OutOfWork,
    Shape,
    Splits,
    Work,
    fill,
    melds_of,
    minus,
    permutations,
    placings,
    submultisets,
)
from .state import CONTRACTS, HandState, Observation

LIMIT = 24
#: Work units one search may spend (see the module's docstring); what one refused candidate
#: costs of them (a check by the engine: ``apply`` and the generator after it); and what each
#: way it may return adds (a way found is bounded by ``limit``, so its check is free).
BUDGET = 3_000
CHECK = 40
PER_WAY = 4
TOO_MANY_WAYS = gettext_noop("too many ways to use these cards to go through them all; "
                             "select fewer cards (or fewer wilds) and try again")


@dataclass(frozen=True, slots=True)
class Search:
    """What a search found: the ways, the work units it spent of those it was allowed, and
    whether they ran out before every candidate was looked at (the ways may then be only
    some of them)."""

    actions: list[Action]
    work: int
    allowed: int
    exhausted: bool


def ways(obs: Observation, cards: Sequence[Card], meld: int | None = None,
         limit: int = LIMIT, budget: int = BUDGET) -> list[Action]:
    """The legal actions of ``obs.seat`` that use exactly ``cards`` (a multiset), with
    ``meld`` the target of a lay-off or swap (``None``: new melds or the contract).
    ``IllegalActionError`` when it is not this seat's turn to meld (R6.1, R6.2), the cards
    are not its own (R7.3) or the meld does not exist; ``[]`` when no way is legal. When the
    work budget runs out the ways found so far are the answer, and when there are none
    ``IllegalActionError`` (:data:`TOO_MANY_WAYS`) says to choose fewer cards."""
    found = search(obs, cards, meld, limit, budget)
    if found.exhausted and not found.actions:
        contract = meld is None and not obs.contract_down[obs.seat]
        raise IllegalActionError("R7.1" if contract else "R7.3", TOO_MANY_WAYS)
    return found.actions


def search(obs: Observation, cards: Sequence[Card], meld: int | None = None,
           limit: int = LIMIT, budget: int = BUDGET) -> Search:
    """:func:`ways` with the work it took, and no refusal when the budget runs out."""
    _check_request(obs, cards, meld)
    work = Work(budget + PER_WAY * limit)
    probe = _probe(obs)
    found: dict[Hashable, Action] = {}
    seen: dict[Hashable, bool] = {}
    try:
        for family in _families(obs, sorted(cards, key=_order), meld, work):
            _examine(family, probe, found, seen, work, limit)
            if len(found) >= limit:
                break
    except OutOfWork:
        return Search(list(found.values()), work.spent, work.budget, True)
    return Search(list(found.values()), work.spent, work.budget, False)


def _check_request(obs: Observation, cards: Sequence[Card], meld: int | None) -> None:
    if obs.to_move != obs.seat:
        raise IllegalActionError("R6.1", f"it is not seat {obs.seat}'s turn")
    if obs.phase != "play":
        raise IllegalActionError("R6.2", "melds come after the draw and before the discard"
                                 if obs.phase == "draw" else "the hand is over")
    if not cards:
        raise IllegalActionError("R7.3", "choose at least one card")
    held = Counter(obs.hand) + Counter(wild for wild, _source in obs.pending)
    missing = Counter(cards) - held
    if missing:
        raise IllegalActionError(
            "R7.3", f"{' '.join(str(c) for c in sorted(missing.elements()))} "
                    f"not in seat {obs.seat}'s hand")
    if meld is not None and not 0 <= meld < len(obs.melds):
        raise IllegalActionError(
            "R7.3", f"there is no meld {meld} on the table ({len(obs.melds)} melds)")


def _probe(obs: Observation) -> HandState:
    """A hand with the seat's own part of the state: all that ``apply`` reads for a meld
    action (the other hands are empty; they only score a hand that ends)."""
    hands: list[list[Card]] = [[], [], [], []]
    hands[obs.seat] = list(obs.hand)
    return HandState(obs.hand_no, obs.dealer, hands, [], list(obs.discard), list(obs.melds),
                     list(obs.contract_down), obs.seat, obs.phase, obs.taken,
                     list(obs.pending), obs.turns)


def _examine(family: Iterator[Action], probe: HandState, found: dict[Hashable, Action],
             seen: dict[Hashable, bool], work: Work, limit: int) -> None:
    """Check the candidates of one skeleton: all of them when its first is accepted (up to
    ``limit`` ways in all), none after it when it is not."""
    first = True
    for action in family:
        work.spend()
        key = _move(action)
        if key not in seen:
            seen[key] = _accepted(probe, action)
            if not seen[key]:
                work.spend(CHECK)  # a way found is paid for by ``limit`` instead
            else:
                found[key] = action
                if len(found) >= limit:
                    return
        if first and not seen[key]:
            return
        first = False


def _move(action: Action) -> Hashable:
    """An action up to the order of its melds (the same move, however listed)."""
    if isinstance(action, LayContract | LayMelds):
        return type(action).__name__, tuple(sorted(str(spec) for spec in action.melds))
    return str(action)


def _accepted(probe: HandState, action: Action) -> bool:
    state = probe.copy()
    try:
        state.apply(action)
    except IllegalActionError:
        return False
    if state.outcome is not None:
        return True  # out (R8.1)
    seat = state.seat
    return bool(generate(seat, state.hand_no, state.phase, state.hands[seat], state.melds,
                         state.contract_down[seat], state.taken, state.pending))


def _order(card: Card) -> tuple[int, int]:
    """Naturals first, then 2s, then jokers; by index within each."""
    return (2 if card.is_joker else 1 if card.is_wild else 0), card.index


def _families(obs: Observation, cards: list[Card], meld: int | None,
              work: Work) -> Iterator[Iterator[Action]]:
    """The candidates, by skeleton (each an iterator of actions alike for the engine).

    Each family is a lazy ``map`` (here and in ``_layoff_rows``), not a generator
    expression: mypyc builds those as whole lists at once, and a family must make its
    candidates, and spend their work units, only as far as ``_examine`` looks."""
    seat = obs.seat
    if meld is not None:
        target = obs.melds[meld]
        for row in _layoff_rows(target, cards, work):
            yield map(partial(LayOff, seat, meld), row)
        if len(cards) == 1 and not cards[0].is_joker:
            for wild in dict.fromkeys(p.card for p in target.wilds):
                yield iter((Swap(seat, meld, cards[0], wild),))
        return
    down = obs.contract_down[seat]
    need = None if down else CONTRACTS[obs.hand_no]
    kinds = KINDS if need is None else frozenset(kind for kind, _n in need)
    naturals = tuple(c for c in cards if not c.is_wild)
    twos = tuple(c for c in cards if c.is_wild and not c.is_joker)
    jokers = tuple(c for c in cards if c.is_joker)
    splits = Splits(work, kinds, len(jokers))
    homeless = _homeless(obs, cards)
    for standing in reversed(submultisets(twos)):  # fewest 2s standing for themselves first
        pool = minus(twos, standing) + jokers
        held = tuple(sorted(naturals + standing, key=lambda c: c.index))
        if homeless is not None and not any(c.suit == homeless.suit or c.rank == homeless.rank
                                            for c in held):
            continue  # no meld of these may take it
        for groups in splits.partitions(held, len(pool), None if need is None else len(need)):
            options = [splits.shapes(*group) for group in groups]
            if need is None:
                for skeleton in _skeletons(options, homeless, work):
                    work.spend()
                    yield map(partial(LayMelds, seat), fill(skeleton, pool, work))
                continue
            minimum = dict(need)
            for wanted in dict.fromkeys(permutations(tuple(kind for kind, _n in need))):
                fitting = [[s for s in shapes if s.kind == kind and len(s.row) >= minimum[kind]]
                           for shapes, kind in zip(options, wanted, strict=True)]
                for skeleton in _skeletons(fitting, homeless, work):
                    work.spend()
                    yield map(partial(LayContract, seat), fill(skeleton, pool, work))


def _homeless(obs: Observation, cards: Sequence[Card]) -> Card | None:
    """The card taken this turn when melding ``cards`` would leave it alone in hand and no
    meld on the table could take it (a lay-off or a swap): then it may not be discarded
    (R6.5), so a way must lay a meld that may take it. ``None`` when that need not be so."""
    taken = obs.taken
    if taken is None or taken.is_wild or obs.pending:
        return None
    if list((Counter(obs.hand) - Counter(cards)).elements()) != [taken]:
        return None
    if generate(obs.seat, obs.hand_no, "play", [taken], obs.melds, True, taken, ()):
        return None  # a lay-off or swap for it on the table already
    if any(p.rank == taken.rank and (meld.kind == "set" or p.suit == taken.suit)
           for meld in obs.melds for p in meld.wilds):
        return None  # a swap, once a new meld gives the freed wild somewhere to go (R7.4)
    return taken


def _skeletons(options: Sequence[Sequence[Shape]], homeless: Card | None,
               work: Work) -> Iterator[tuple[Shape, ...]]:
    """A shape for each group, every way; with a ``homeless`` card, only those with a meld
    that may take it (each once: by the first such meld)."""
    work.spend(len(options))
    if homeless is None:
        yield from product(*options)
        return
    for i, shapes in enumerate(options):
        taking = [s for s in shapes if _may_take(s, homeless)]
        if taking:
            before = [[s for s in o if not _may_take(s, homeless)] for o in options[:i]]
            yield from product(*before, taking, *options[i + 1:])


def _may_take(shape: Shape, card: Card) -> bool:
    """Whether a meld of ``shape`` might take the natural ``card`` later this turn: a set of
    its rank, or a run of its suit that reaches next to it (a lay-off) or over it (a swap)."""
    if shape.kind == "set":
        return shape.rank == card.rank
    places = (1, 14) if card.rank == 1 else (card.rank,)
    return shape.suit == card.suit and any(
        shape.low - 1 <= p <= shape.low + len(shape.row) for p in places)


# -- lay-offs -----------------------------------------------------------------------------


def _layoff_rows(meld: TableMeld, cards: list[Card],
                 work: Work) -> Iterator[Iterator[tuple[Placed, ...]]]:
    """The cards written for a lay-off onto ``meld``, by skeleton: in a set each stands
    for its rank; on a run they take ``k`` places below it and the rest above, naturals
    (and a 2 of the run's suit at its own place, or not) where they belong, the wilds in
    every order in the others."""
    if meld.kind == "set":
        yield iter((tuple(declare(c, "set", meld.rank, "") for c in cards),))
        return
    naturals = tuple(c for c in cards if not c.is_wild)
    wilds = tuple(c for c in cards if c.is_wild)
    own_twos = [c for c in wilds if c.rank == 2 and c.suit == meld.suit][:1]
    n = len(cards)
    for below in range(n + 1):
        places = [*range(meld.low - below, meld.low), *range(meld.high + 1,
                                                            meld.high + 1 + n - below)]
        if places[0] < 1 or places[-1] > 14:
            continue
        for standing in ((), tuple(own_twos)) if own_twos and 2 in places else ((),):
            held, pool = naturals + standing, minus(wilds, standing)
            for placing in placings(held):
                work.spend()
                if len(set(placing)) != len(placing) or not set(placing) <= set(places):
                    continue
                at = dict(zip(placing, held, strict=True))
                row = Shape("run", 0, meld.suit, places[0],
                            tuple(plain(at[p]) if p in at else p for p in places))
                yield map(_cards_of, melds_of(row, pool, work))


def _cards_of(spec: MeldSpec) -> tuple[Placed, ...]:
    return spec.cards
