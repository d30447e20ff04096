"""Legal actions for the seat to move.

``apply`` accepts every legal action, in any of its equivalent spellings. The
generator lists a representative set: one spelling per distinct move (which
copy of a duplicated card is irrelevant), melds in canonical shapes (a set of
all the naturals of a rank, padded with wilds to its minimum; runs from each
natural card, as short as allowed and as long as the wilds can bridge),
single-card lay-offs at each open end, and wild swaps only where the freed
wild has a meld to go to. It never offers a move that leaves the player stuck
(R6.5, R7.4), so a game played from it always ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .actions import Action, Discard, LayContract, LayMelds, LayOff, Push, Swap, Take
from .cards import SUITS, Card
from .melds import Kind, MeldSpec, Placed, TableMeld, declare, plain
from .state import CONTRACTS, HandState, Observation, Phase


def legal_actions(state: HandState) -> list[Action]:
    """Representative legal actions of the seat to move (none once the hand is over)."""
    return generate(state.seat, state.hand_no, state.phase, state.hands[state.seat],
                    state.melds, state.contract_down[state.seat], state.taken, state.pending)


def observed_legal_actions(obs: Observation) -> list[Action]:
    """The same, from the mover's observation alone (what a bot or a browser has)."""
    if obs.to_move != obs.seat:
        return []
    return generate(obs.seat, obs.hand_no, obs.phase, obs.hand, obs.melds,
                    obs.contract_down[obs.seat], obs.taken, obs.pending)


def generate(seat: int, hand_no: int, phase: Phase, hand: Sequence[Card],
             melds: Sequence[TableMeld], contract_down: bool, taken: Card | None,
             pending: Sequence[tuple[Card, int]]) -> list[Action]:
    if phase == "draw":
        return [Take(seat), Push(seat)]
    if phase == "over":
        return []
    if pending:
        return [LayOff(seat, meld.id, (p,)) for wild, source in dict(pending).items()
                for meld in melds if meld.id != source for p in _placements(meld, [wild])]
    index = HandIndex(hand)
    plays: list[Action] = []
    if not contract_down:
        plays += (LayContract(seat, c) for c in contracts(hand_no, hand, index))
    else:
        plays += (LayMelds(seat, (spec,)) for spec in candidate_melds(index, "set", 3))
        plays += (LayMelds(seat, (spec,)) for spec in candidate_melds(index, "run", 3))
        plays += (LayOff(seat, meld.id, (p,)) for meld in melds
                  for p in _placements(meld, index.distinct))
        plays += _swaps(seat, index, melds)
    if taken is not None:
        plays = [a for a in plays if not _strands(a, hand, taken)]
    plays += (Discard(seat, c) for c in index.distinct if c is not taken)
    return plays


class HandIndex:
    """One pass over a hand: its wilds, its naturals by rank, and per suit a bitmask of the
    run positions it holds naturally (an ace at 1 and 14, a 2 at 2 of its own suit)."""

    __slots__ = ("cards", "distinct", "wilds", "jokers", "by_rank", "masks", "aces")

    def __init__(self, hand: Sequence[Card]) -> None:
        self.cards = hand
        self.distinct = list(dict.fromkeys(hand))
        self.wilds = [c for c in hand if c.is_wild]
        self.jokers = sum(c.is_joker for c in self.wilds)
        self.by_rank: dict[int, list[Card]] = {}
        self.masks = dict.fromkeys(SUITS, 0)
        self.aces = dict.fromkeys(SUITS, 0)
        for card in hand:
            if not card.is_joker:
                self.by_rank.setdefault(card.rank, []).append(card)
                self.masks[card.suit] |= card.run_bits
        for ace in self.by_rank.get(1, ()):
            self.aces[ace.suit] += 1

    def wild_pool(self, shapes: Sequence[Shape]) -> list[Card]:
        """The wilds less those the shapes use as natural 2s; 2s before jokers."""
        pool = sorted(self.wilds, key=lambda c: c.is_joker)
        for shape in shapes:
            for card in shape.naturals:
                if card.is_wild:
                    pool.remove(card)
        return pool


@dataclass(frozen=True, slots=True)
class Shape:
    """A meld the hand can make, before choosing wilds: each cell is a natural card or the
    (rank, suit) a wild must stand for (suit ``""`` in a set)."""

    kind: Kind
    cells: tuple[Card | tuple[int, str], ...]
    naturals: tuple[Card, ...]
    holes: int
    natural_wilds: int  # natural 2s among the naturals: wild cards the shape does not free

    def realize(self, wilds: Iterator[Card]) -> MeldSpec:
        return MeldSpec(self.kind, tuple(
            plain(c) if isinstance(c, Card) else declare(next(wilds), self.kind, *c)
            for c in self.cells))


def _shape(kind: Kind, cells: Sequence[Card | tuple[int, str]]) -> Shape:
    naturals = tuple(c for c in cells if isinstance(c, Card))
    return Shape(kind, tuple(cells), naturals, len(cells) - len(naturals),
                 sum(c.is_wild for c in naturals))


def candidate_melds(index: HandIndex, kind: Kind, minimum: int) -> list[MeldSpec]:
    """Canonical melds of ``kind`` and at least ``minimum`` cards that the hand can make."""
    return [shape.realize(iter(index.wild_pool([shape])))
            for shape in candidate_shapes(index, kind, minimum)]


def candidate_shapes(index: HandIndex, kind: Kind, minimum: int) -> list[Shape]:
    if kind == "set":
        return _set_shapes(index, minimum)
    return [shape for suit in SUITS for shape in _run_shapes(index, suit, minimum)]


def _set_shapes(index: HandIndex, minimum: int) -> list[Shape]:
    shapes = []
    for rank, naturals in index.by_rank.items():
        pool = index.jokers if rank == 2 else len(index.wilds)
        need = max(0, minimum - len(naturals))
        if need <= pool:
            shapes.append(_shape("set", [*naturals, *[(rank, "")] * need]))
    return shapes


def _run_shapes(index: HandIndex, suit: str, minimum: int) -> tuple[Shape, ...]:
    if not index.masks[suit]:
        return ()
    return _suit_run_shapes(suit, index.masks[suit], index.aces[suit] < 2, len(index.wilds),
                            minimum)


@lru_cache(maxsize=1 << 16)
def _suit_run_shapes(suit: str, mask: int, one_ace: bool, wilds: int,
                     minimum: int) -> tuple[Shape, ...]:
    """Run shapes of one suit: a pure function of which positions the hand holds (``mask``),
    whether it holds a single ace, and how many wilds it has, so it is cached."""
    starts = [p for p in range(1, 15) if mask >> p & 1]
    windows: set[tuple[int, int]] = set()
    for start in starts:
        # the shortest run from this natural, padded with wilds above (below near the ace) ...
        windows.add((start, start + minimum - 1) if start + minimum <= 15
                    else (15 - minimum, 14))
        # ... and the longest one the wilds can bridge, ending on a natural
        gaps, end = 0, None
        for position in range(start, 15):
            if mask >> position & 1:
                if position - start + 1 >= minimum:
                    end = position
            else:
                gaps += 1
                if gaps > wilds:
                    break
        if end is not None:
            windows.add((start, end))
    shapes = []
    for low, high in sorted(windows):
        width = high - low + 1
        holes = width - (mask & ((1 << width) - 1) << low).bit_count()
        ace_once = low == 1 and high == 14 and one_ace  # one ace card can't stand at both ends
        holes += ace_once
        natural_two = low <= 2 <= high and mask >> 2 & 1
        if holes < width and holes <= wilds - natural_two:
            shapes.append(_shape("run", [
                Card.of(p, suit) if mask >> p & 1 and not (p == 14 and ace_once) else (p, suit)
                for p in range(low, high + 1)]))
    return tuple(shapes)


def contracts(hand_no: int, hand: Sequence[Card],
              index: HandIndex | None = None) -> list[tuple[MeldSpec, ...]]:
    """Ways ``hand`` can lay down hand ``hand_no``'s contract (R7.1), canonical melds only."""
    index = index or HandIndex(hand)
    need = CONTRACTS[hand_no]
    groups = []
    for kind in ("set", "run"):
        count = sum(k == kind for k, _n in need)
        if count:
            minimum = next(n for k, n in need if k == kind)
            shapes = sorted(candidate_shapes(index, kind, minimum), key=_cost)
            # two equal runs can be made from two copies of each card; two sets of one rank
            # would need every natural of it twice.
            groups.append((shapes, count, kind == "run"))
    found = []
    for combo in _combos(groups, len(index.wilds)):
        if _no_card_twice(combo, index):
            pool = iter(index.wild_pool(combo))
            found.append(tuple(shape.realize(pool) for shape in combo))
    return found


def _cost(shape: Shape) -> int:
    """Wild cards a shape takes: its holes and the 2s it uses as naturals."""
    return shape.holes + shape.natural_wilds


def _combos(groups: Sequence[tuple[list[Shape], int, bool]],
            budget: int) -> Iterator[tuple[Shape, ...]]:
    """Choices of ``count`` shapes from each group whose wild costs fit ``budget``."""
    if not groups:
        yield ()
        return
    (shapes, count, repeat), rest = groups[0], groups[1:]
    for chosen in _pick(shapes, count, budget, repeat, 0):
        for more in _combos(rest, budget - sum(_cost(s) for s in chosen)):
            yield chosen + more


def _pick(shapes: list[Shape], count: int, budget: int, repeat: bool,
          start: int) -> Iterator[tuple[Shape, ...]]:
    if count == 0:
        yield ()
        return
    for i in range(start, len(shapes)):
        cost = _cost(shapes[i])
        if cost > budget:
            break  # sorted by cost: the rest cost more
        for rest in _pick(shapes, count - 1, budget - cost, repeat, i if repeat else i + 1):
            yield (shapes[i], *rest)


def _no_card_twice(shapes: Sequence[Shape], index: HandIndex) -> bool:
    """Does the hand hold every natural card the shapes use together?"""
    used = Counter(card for shape in shapes for card in shape.naturals)
    if sum(used.values()) == len(used):
        return True
    have = Counter(index.cards)
    return all(n <= have[card] for card, n in used.items())


def _placements(meld: TableMeld, cards: Iterable[Card]) -> Iterator[Placed]:
    """Ways to lay each of ``cards`` off alone onto ``meld``: one per open end."""
    if meld.kind == "set":
        for card in cards:
            if card.is_wild or card.rank == meld.rank:
                yield declare(card, "set", meld.rank, "")
        return
    ends = [p for p in (meld.low - 1, meld.high + 1) if 1 <= p <= 14]
    for card in cards:
        for position in ends:
            rank = 1 if position == 14 else position
            if card.is_joker or (card.rank == 2 and (position, card.suit) != (2, meld.suit)):
                yield Placed(card, rank, meld.suit)
            elif card.suit == meld.suit and card.rank == rank:
                yield plain(card)


def _swaps(seat: int, index: HandIndex, melds: Sequence[TableMeld]) -> Iterator[Action]:
    open_melds = sum(m.kind == "set" or len(m.cards) < 14 for m in melds)
    for meld in melds:
        if open_melds - (meld.kind == "set" or len(meld.cards) < 14) == 0:
            continue  # the freed wild would have nowhere to go (R7.4)
        for p in dict.fromkeys(p for p in meld.cards if p.rank is not None):
            natural = _natural_for(p, meld, index)
            if natural is not None:
                yield Swap(seat, meld.id, natural, p.card)


def _natural_for(p: Placed, meld: TableMeld, index: HandIndex) -> Card | None:
    if meld.kind == "set":
        return next(iter(index.by_rank.get(meld.rank, ())), None)
    assert p.rank is not None and p.suit is not None
    natural = Card.of(p.rank, p.suit)
    return natural if natural in index.cards else None


def _strands(action: Action, hand: Sequence[Card], taken: Card) -> bool:
    """Would ``action`` leave only the undiscardable taken card in hand (R6.5)?"""
    if isinstance(action, LayContract | LayMelds):
        used = [p.card for spec in action.melds for p in spec.cards]
    elif isinstance(action, LayOff):
        used = [p.card for p in action.cards]
    elif isinstance(action, Swap):
        used = [action.card]
    else:
        return False
    if len(hand) - len(used) != 1:
        return False
    rest = list(hand)
    for card in used:
        rest.remove(card)
    return rest[0] is taken
