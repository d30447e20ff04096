"""Legal actions for the seat to move.

``apply`` accepts every legal action, in any of its equivalent spellings. The
generator lists a representative set: one spelling per distinct move (which
copy of a duplicated card is irrelevant), melds in canonical shapes (a set of
all the naturals of a rank, padded with wilds to its minimum; runs spanning
natural cards, padded to their minimum), single-card lay-offs, and wild swaps
only where the freed wild has a meld to go to. It never offers a move that
leaves the player stuck (R6.5, R7.4), so a game played from it always ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product

from .actions import Action, Discard, LayContract, LayMelds, LayOff, Push, Swap, Take
from .cards import SUITS, Card
from .melds import Kind, MeldSpec, Placed, TableMeld, declare
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
        return [LayOff(seat, m.id, (p,)) for wild, source in dict(pending).items()
                for m in melds if m.id != source for p in _fits(wild, m)]
    plays: list[Action] = []
    if not contract_down:
        plays += (LayContract(seat, c) for c in contracts(hand_no, hand))
    else:
        plays += (LayMelds(seat, (spec,)) for spec in candidate_melds(hand, "set", 3))
        plays += (LayMelds(seat, (spec,)) for spec in candidate_melds(hand, "run", 3))
        plays += _layoffs(seat, hand, melds)
        plays += _swaps(seat, hand, melds)
    if taken is not None:
        plays = [a for a in plays if not _strands(a, hand, taken)]
    plays += (Discard(seat, c) for c in dict.fromkeys(hand) if c is not taken)
    return plays


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


def _fits(card: Card, meld: TableMeld) -> list[Placed]:
    """Ways to lay ``card`` off alone onto ``meld``: one per open end."""
    if meld.kind == "set":
        if card.is_wild or card.rank == meld.rank:
            return [declare(card, "set", meld.rank, "")]
        return []
    ways = []
    for position in (meld.low - 1, meld.high + 1):
        if not 1 <= position <= 14:
            continue
        rank = 1 if position == 14 else position
        if card.is_joker or (card.rank == 2 and (position, card.suit) != (2, meld.suit)):
            ways.append(Placed(card, rank, meld.suit))
        elif card.suit == meld.suit and card.rank == rank:
            ways.append(Placed(card))
    return ways


def _layoffs(seat: int, hand: Sequence[Card], melds: Sequence[TableMeld]) -> Iterable[Action]:
    for card in dict.fromkeys(hand):
        for meld in melds:
            for placed in _fits(card, meld):
                yield LayOff(seat, meld.id, (placed,))


def _swaps(seat: int, hand: Sequence[Card], melds: Sequence[TableMeld]) -> Iterable[Action]:
    for meld in melds:
        if not any(other.id != meld.id and (other.kind == "set" or len(other.cards) < 14)
                   for other in melds):
            continue  # the freed wild would have nowhere to go (R7.4)
        for p in dict.fromkeys(p for p in meld.cards if p.rank is not None):
            natural = _natural_for(p, meld, hand)
            if natural is not None:
                yield Swap(seat, meld.id, natural, p.card)


def _natural_for(p: Placed, meld: TableMeld, hand: Sequence[Card]) -> Card | None:
    if meld.kind == "set":
        return next((c for c in hand if c.rank == meld.rank and not c.is_joker
                     and (not c.is_wild or meld.rank == 2)), None)
    assert p.rank is not None and p.suit is not None
    wanted = Card.of(p.rank, p.suit)
    return wanted if wanted in hand else None


@dataclass(frozen=True, slots=True)
class Shape:
    """A meld the hand can make, before choosing wilds: each cell is a natural card or the
    (rank, suit) a wild must stand for (suit ``""`` in a set)."""

    kind: Kind
    cells: tuple[Card | tuple[int, str], ...]
    naturals: Counter[Card]
    holes: int

    def realize(self, wilds: Iterator[Card]) -> MeldSpec:
        return MeldSpec(self.kind, tuple(
            Placed(c) if isinstance(c, Card) else declare(next(wilds), self.kind, *c)
            for c in self.cells))


def _shape(kind: Kind, cells: Sequence[Card | tuple[int, str]]) -> Shape:
    naturals = Counter(c for c in cells if isinstance(c, Card))
    return Shape(kind, tuple(cells), naturals, len(cells) - sum(naturals.values()))


def _wild_pool(hand: Sequence[Card], shapes: Sequence[Shape]) -> list[Card]:
    """The hand's wilds less those the shapes use as natural 2s; 2s before jokers."""
    pool = sorted((c for c in hand if c.is_wild), key=lambda c: c.is_joker)
    for shape in shapes:
        for card, n in shape.naturals.items():
            if card.is_wild:
                for _ in range(n):
                    pool.remove(card)
    return pool


def candidate_melds(hand: Sequence[Card], kind: Kind, minimum: int) -> list[MeldSpec]:
    """Canonical melds of ``kind`` and at least ``minimum`` cards that ``hand`` can make."""
    return [shape.realize(iter(_wild_pool(hand, [shape])))
            for shape in candidate_shapes(hand, kind, minimum)]


def candidate_shapes(hand: Sequence[Card], kind: Kind, minimum: int) -> list[Shape]:
    wilds = sum(c.is_wild for c in hand)
    if kind == "set":
        return _set_shapes(hand, wilds, minimum)
    return [shape for suit in SUITS for shape in _run_shapes(hand, wilds, suit, minimum)]


def _set_shapes(hand: Sequence[Card], wilds: int, minimum: int) -> list[Shape]:
    by_rank: dict[int, list[Card]] = {}
    for card in hand:
        if not card.is_joker:
            by_rank.setdefault(card.rank, []).append(card)
    shapes = []
    jokers = sum(c.is_joker for c in hand)
    for rank, naturals in by_rank.items():
        pool = jokers if rank == 2 else wilds
        need = max(0, minimum - len(naturals))
        if need <= pool:
            shapes.append(_shape("set", [*naturals, *[(rank, "")] * need]))
    return shapes


def _run_shapes(hand: Sequence[Card], wilds: int, suit: str, minimum: int) -> Iterable[Shape]:
    naturals: dict[int, Card] = {}
    aces = 0
    for card in hand:
        if card.suit == suit:
            aces += card.rank == 1
            for position in (1, 14) if card.rank == 1 else (card.rank,):
                naturals[position] = card
    present = [p in naturals for p in range(16)]
    windows: set[tuple[int, int]] = set()
    for start in sorted(naturals):
        # the shortest run from this natural, padded with wilds above (below near the ace) ...
        windows.add((start, start + minimum - 1) if start + minimum <= 15
                    else (15 - minimum, 14))
        # ... and the longest one the wilds can bridge, ending on a natural
        gaps, end = 0, None
        for position in range(start, 15):
            if present[position]:
                if position - start + 1 >= minimum:
                    end = position
            else:
                gaps += 1
                if gaps > wilds:
                    break
        if end is not None:
            windows.add((start, end))
    for low, high in sorted(windows):
        cells: list[Card | tuple[int, str]] = []
        for position in range(low, high + 1):
            # one ace card can't stand at both ends
            at = None if position == 14 and low == 1 and aces < 2 else naturals.get(position)
            cells.append(at if at is not None else (position, suit))
        shape = _shape("run", cells)
        natural_twos = sum(n for c, n in shape.naturals.items() if c.is_wild)
        if shape.naturals and shape.holes <= wilds - natural_twos:
            yield shape


def _feasible(hand_no: int, hand: Sequence[Card]) -> bool:
    """A quick necessary condition for the contract, to skip enumerating most hands."""
    wilds = sum(c.is_wild for c in hand)
    need = CONTRACTS[hand_no]
    sets = sum(kind == "set" for kind, _n in need)
    if sets:
        counts = Counter(c.rank for c in hand if not c.is_joker)
        costs = sorted(max(0, 3 - n) for n in counts.values())
        if len(costs) < sets or sum(costs[:sets]) > wilds:
            return False
    runs = [n for kind, n in need if kind == "run"]
    if runs:
        suited = {(c.rank, c.suit) for c in hand if not c.is_wild or c.rank == 2}
        return _fewest_wilds_for_runs(suited, len(runs), runs[0]) <= wilds
    return True


def _fewest_wilds_for_runs(suited: set[tuple[int, str]], count: int, length: int) -> int:
    """A lower bound on the wilds needed for ``count`` (1 or 2) disjoint runs of ``length``."""
    singles, pairs = [], []
    for suit in SUITS:
        present = [(1 if p == 14 else p, suit) in suited for p in range(15)]
        cost = [length - sum(present[lo:lo + length]) if any(present[lo:lo + length]) else 99
                for lo in range(1, 16 - length)]  # cost[i]: window starting at position i + 1
        singles.append(min(cost))
        pairs += [a + b for i, a in enumerate(cost) for b in cost[i + length:]]
    singles.sort()
    if count == 1:
        return singles[0]
    return min([singles[0] + singles[1], *pairs])
def contracts(hand_no: int, hand: Sequence[Card]) -> list[tuple[MeldSpec, ...]]:
    """Ways ``hand`` can lay down hand ``hand_no``'s contract (R7.1), canonical melds only."""
    if not _feasible(hand_no, hand):
        return []
    need = CONTRACTS[hand_no]
    have = Counter(hand)
    wilds = sum(c.is_wild for c in hand)
    groups = []
    for kind in ("set", "run"):
        count = sum(k == kind for k, _n in need)
        if count:
            minimum = next(n for k, n in need if k == kind)
            # two sets of one rank would need every natural of it twice; two equal runs can
            # be made from two copies of each card.
            pick = combinations_with_replacement if kind == "run" else combinations
            groups.append(list(pick(candidate_shapes(hand, kind, minimum), count)))
    found = []
    for combo in product(*groups):
        shapes = [shape for group in combo for shape in group]
        if _fits_hand(shapes, have, wilds):
            pool = iter(_wild_pool(hand, shapes))
            found.append(tuple(shape.realize(pool) for shape in shapes))
    return found


def _fits_hand(shapes: Sequence[Shape], have: Counter[Card], wilds: int) -> bool:
    """Can the hand supply all these shapes at once, wilds included? (Each alone it can.)"""
    used = dict(shapes[0].naturals)
    for shape in shapes[1:]:
        for card, n in shape.naturals.items():
            total = used.get(card, 0) + n
            if total > have[card]:
                return False
            used[card] = total
    natural_wilds = sum(n for card, n in used.items() if card.is_wild)
    return sum(shape.holes for shape in shapes) <= wilds - natural_wilds
