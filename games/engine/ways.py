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
R7.4). Results are distinct by text, in a fixed order, at most ``limit``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import product
from typing import TypeVar

from .actions import Action, LayContract, LayMelds, LayOff, Swap
from .cards import Card
from .errors import IllegalActionError
from .generate import generate
from .melds import MeldSpec, Placed, TableMeld, build_meld, declare, plain
from .state import CONTRACTS, HandState, Observation

T = TypeVar("T")
LIMIT = 24
#: At most this many candidate melds per group of cards (wild permutations grow fast).
_PER_GROUP = 200


def ways(obs: Observation, cards: Sequence[Card], meld: int | None = None,
         limit: int = LIMIT) -> list[Action]:
    """The legal actions of ``obs.seat`` that use exactly ``cards`` (a multiset), with
    ``meld`` the target of a lay-off or swap (``None``: new melds or the contract).
    ``IllegalActionError`` when it is not this seat's turn to meld (R6.1, R6.2), the cards
    are not its own (R7.3) or the meld does not exist; ``[]`` when no way is legal."""
    _check_request(obs, cards, meld)
    probe = _probe(obs)
    found: dict[str, Action] = {}
    for action in _candidates(obs, cards, meld):
        text = str(action)
        if text not in found and _accepted(probe, action):
            found[text] = action
            if len(found) >= limit:
                break
    return list(found.values())


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


def _candidates(obs: Observation, cards: Sequence[Card], meld: int | None) -> Iterator[Action]:
    seat = obs.seat
    ordered = sorted(cards, key=_order)
    if meld is not None:
        target = obs.melds[meld]
        for placed in _layoff_placements(target, ordered):
            yield LayOff(seat, meld, placed)
        if len(ordered) == 1 and not ordered[0].is_joker:
            for wild in dict.fromkeys(p.card for p in target.wilds):
                yield Swap(seat, meld, ordered[0], wild)
        return
    if obs.contract_down[seat]:
        for groups in _partitions(tuple(ordered), None):
            for specs in product(*(_group_melds(g) for g in groups)):
                yield LayMelds(seat, specs)
        return
    need = CONTRACTS[obs.hand_no]
    for groups in _partitions(tuple(ordered), len(need)):
        options = [_group_melds(g) for g in groups]
        for kinds in dict.fromkeys(_permutations(tuple(kind for kind, _n in need))):
            minimum = dict(need)
            fitting = [[s for s in specs if s.kind == kind and len(s.cards) >= minimum[kind]]
                       for specs, kind in zip(options, kinds, strict=True)]
            for chosen in product(*fitting):
                yield LayContract(seat, chosen)


def _order(card: Card) -> tuple[int, int]:
    """Naturals first, then 2s, then jokers; by index within each."""
    return (2 if card.is_joker else 1 if card.is_wild else 0), card.index


# -- splitting the cards into groups, one meld each ---------------------------------------


def _partitions(cards: tuple[Card, ...], count: int | None) -> Iterator[list[tuple[Card, ...]]]:
    """Splits of ``cards`` (in :func:`_order`) into groups that can each make a meld
    (exactly ``count`` groups, or any number). Each split once: a group holds the first
    card left, and groups are sub-multisets."""
    if not cards:
        if count in (None, 0):
            yield []
        return
    if count == 0:
        return
    first, rest = cards[0], cards[1:]
    for group in _groups_with(first, rest):
        if not _group_melds(group):
            continue
        left = list(rest)
        for card in group[1:]:
            left.remove(card)
        for split in _partitions(tuple(left), None if count is None else count - 1):
            yield [group, *split]


def _groups_with(first: Card, rest: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
    """Groups of at least 3 cards holding ``first`` and cards of ``rest`` that could be one
    meld: with a natural, other naturals of its rank (a set) or of its suit at other ranks
    (a run); any wilds. Without one (only wilds left), any of them."""
    naturals = [c for c in rest if not c.is_wild]
    wilds = [c for c in rest if c.is_wild]
    if first.is_wild:
        partners: list[tuple[Card, ...]] = [()]
    else:
        same_rank = [c for c in naturals if c.rank == first.rank]
        same_suit = [c for c in naturals if c.suit == first.suit and c.rank != first.rank]
        partners = sorted(dict.fromkeys([*_submultisets(same_rank),
                                         *(s for s in _submultisets(same_suit)
                                           if _distinct_ranks(s))]), key=len, reverse=True)
    for others in partners:
        for extra in _submultisets(wilds):
            group = (first, *others, *extra)
            if len(group) >= 3:
                yield group


def _distinct_ranks(cards: tuple[Card, ...]) -> bool:
    ranks = Counter(c.rank for c in cards)
    return all(n == 1 or (rank == 1 and n == 2) for rank, n in ranks.items())


def _submultisets(cards: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every sub-multiset of ``cards`` (sorted), largest first (fewest melds first), each once."""
    counts = sorted(Counter(cards).items(), key=lambda item: _order(item[0]))
    choices = [range(n, -1, -1) for _card, n in counts]
    picks = sorted(product(*choices), key=sum, reverse=True)
    for pick in picks:
        yield tuple(card for (card, _n), k in zip(counts, pick, strict=True)
                    for _ in range(k))


# -- one group of cards as a meld ----------------------------------------------------------


@lru_cache(maxsize=4096)
def _group_melds(group: tuple[Card, ...]) -> tuple[MeldSpec, ...]:
    """Every legal meld (R5) of exactly ``group``: a set, and runs in each suit, window and
    placement of the wilds; checked by ``build_meld``."""
    specs: list[MeldSpec] = []
    for spec in _meld_shapes(group):
        try:
            build_meld(spec, meld_id=0, owner=0)
        except IllegalActionError:
            continue
        specs.append(spec)
        if len(specs) >= _PER_GROUP:
            break
    return tuple(dict.fromkeys(specs))


def _meld_shapes(group: tuple[Card, ...]) -> Iterator[MeldSpec]:
    naturals = [c for c in group if not c.is_wild]
    wilds = [c for c in group if c.is_wild]
    ranks = {c.rank for c in naturals}
    if len(ranks) <= 1:
        rank = ranks.pop() if ranks else 2  # only wilds: a set of 2s (R5.4)
        yield MeldSpec("set", tuple(plain(c) for c in naturals)
                       + tuple(declare(w, "set", rank, "") for w in wilds))
    suits = {c.suit for c in naturals} or {w.suit for w in wilds if not w.is_joker}
    for suit in sorted(suits):
        for positions in _run_positions(naturals, len(group)):
            yield from _runs(suit, positions, naturals, wilds)


def _run_positions(naturals: list[Card], length: int) -> Iterator[tuple[int, int, list[int]]]:
    """(low, high, natural positions) of each window of ``length`` holding the naturals,
    each ace at 1 or at 14 (R5.3)."""
    for placing in _placings(naturals):
        taken = list(placing)
        if len(set(taken)) != len(taken):
            continue
        lowest, highest = min(taken, default=14), max(taken, default=1)
        for low in range(max(1, highest - length + 1), min(lowest, 15 - length) + 1):
            yield low, low + length - 1, taken


def _placings(naturals: list[Card]) -> Iterator[tuple[int, ...]]:
    """The run positions of ``naturals``, each ace at 1 or at 14 (R5.3)."""
    return product(*((1, 14) if c.rank == 1 else (c.rank,) for c in naturals))


def _runs(suit: str, window: tuple[int, int, list[int]], naturals: list[Card],
          wilds: list[Card]) -> Iterator[MeldSpec]:
    low, high, taken = window
    at = dict(zip(taken, naturals, strict=True))
    holes = [p for p in range(low, high + 1) if p not in at]
    for arrangement in _permutations(tuple(wilds)):
        row = dict(at)
        row.update(zip(holes, arrangement, strict=True))
        yield MeldSpec("run", tuple(
            plain(row[p]) if p in at else declare(row[p], "run", p, suit)
            for p in range(low, high + 1)))


def _permutations(items: tuple[T, ...]) -> Iterator[tuple[T, ...]]:
    """Distinct orderings of ``items`` (a multiset), in lexicographic order of first
    appearance."""
    counts = Counter(items)
    keys = list(dict.fromkeys(items))

    def place(chosen: list[T]) -> Iterator[tuple[T, ...]]:
        if len(chosen) == len(items):
            yield tuple(chosen)
            return
        for key in keys:
            if counts[key]:
                counts[key] -= 1
                chosen.append(key)
                yield from place(chosen)
                chosen.pop()
                counts[key] += 1

    return place([])


# -- lay-offs -----------------------------------------------------------------------------


def _layoff_placements(meld: TableMeld, cards: list[Card]) -> Iterator[tuple[Placed, ...]]:
    """The cards written for a lay-off onto ``meld``: in a set each stands for its rank; on
    a run they take ``k`` places below it and the rest above, naturals at their own place
    and the wilds in every order in the others."""
    if meld.kind == "set":
        yield tuple(declare(c, "set", meld.rank, "") for c in cards)
        return
    naturals = [c for c in cards if not c.is_wild]
    wilds = [c for c in cards if c.is_wild]
    n = len(cards)
    for below in range(n + 1):
        places = [*range(meld.low - below, meld.low), *range(meld.high + 1,
                                                            meld.high + 1 + n - below)]
        if places[0] < 1 or places[-1] > 14:
            continue
        for placing in _placings(naturals):
            if len(set(placing)) != len(placing) or not set(placing) <= set(places):
                continue
            at = dict(zip(placing, naturals, strict=True))
            holes = [p for p in places if p not in at]
            for arrangement in _permutations(tuple(wilds)):
                row = dict(at)
                row.update(zip(holes, arrangement, strict=True))
                yield tuple(plain(row[p]) if p in at else declare(row[p], "run", p, meld.suit)
                            for p in places)
