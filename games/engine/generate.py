"""Legal actions for the seat to move.

``apply`` accepts every legal action, in any of its equivalent spellings. The
generator lists a representative set: one spelling per distinct move (which
copy of a duplicated card is irrelevant), melds in canonical shapes, single-card
lay-offs at each open end, and wild swaps only where the freed wild has a meld
to go to. It never offers a move that leaves the player stuck (R6.5, R7.4), so a
game played from it always ends.

Melds are found in two steps. A *slot* is where a meld can go: a rank for a set,
a suit and a window of run positions for a run. A choice of slots (one for a
further meld, the contract's count for a contract, R7.1) is then *filled* from
the hand's card counts: runs take their natural cards first, sets take every
natural of their rank that is left (split between two sets of one rank; a set
of 2s takes three, as 2s are wilds too), and wilds fill the holes. Because a
natural card saves exactly one wild wherever it goes, filling runs first never
needs more wilds than any other way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, final

from .actions import DISCARDS, PUSHES, TAKES, Action, LayContract, LayMelds, LayOff, Swap
from .cards import ALL_CARDS, JOKER, SUITS, Card
from .melds import MeldSpec, Placed, TableMeld, declare, plain
from .state import CONTRACTS, HandState, Observation, Phase

#: The card at run position p (1..14) of each suit; None off the ends.
_AT: Final[dict[str, tuple[Card | None, ...]]] = {
    suit: (None, *(ALL_CARDS[i * 13 + (p - 1) % 13] for p in range(1, 15)), None)
    for i, suit in enumerate(SUITS)
}
_TWOS: Final = tuple([c for c in ALL_CARDS if c.rank == 2])
#: The four natural cards of each rank 1..13, by rank (a tuple: quicker to index than a dict).
_OF_RANK: Final = ((), *(tuple([ALL_CARDS[i * 13 + rank - 1] for i in range(4)])
                         for rank in range(1, 14)))

RunSlot = tuple[str, int, int]  # suit, lowest and highest position
Slot = int | RunSlot  # a set's rank, or a run's window


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
        return [TAKES[seat], PUSHES[seat]]
    if phase == "over":
        return []
    if pending:
        return [play for wild, source in dict(pending).items()
                for play in _layoffs(seat, [m for m in melds if m.id != source], (wild,), None)]
    index = HandIndex(hand)
    plays: list[Action] = []
    if not contract_down:
        plays += (LayContract(seat, c) for c in contracts(hand_no, hand, index))
    else:
        plays += (LayMelds(seat, (spec,)) for spec in candidate_melds(index))
        plays += _layoffs(seat, melds, index.wilds, index.counts)
        plays += _swaps(seat, index, melds)
    if taken is not None:
        plays = [a for a in plays if not _strands(a, hand, taken)]
    discards = DISCARDS[seat]
    plays += [discards[c.index] for c in index.distinct if c is not taken]
    return plays


@final
class HandIndex:
    """One pass over a hand: how many of each card it holds (by ``Card.index``) and of each
    rank (2s included), its distinct cards and distinct wilds, how many wilds in all and in
    what order they fill holes, and per suit (by its place in ``SUITS``) bitmasks of the run
    positions it holds, and holds twice (an ace at 1 and 14)."""

    __slots__ = ("cards", "counts", "ranks", "distinct", "wilds", "n_wilds", "masks", "doubles",
                 "pool")

    def __init__(self, hand: Sequence[Card]) -> None:
        self.cards = hand
        self.counts = counts = [0] * 53
        self.distinct: list[Card] = []
        self.wilds: list[Card] = []
        self.n_wilds = 0
        self.ranks = ranks = [0] * 14
        self.masks = masks = [0, 0, 0, 0]
        self.doubles = doubles = [0, 0, 0, 0]
        for card in hand:
            n = counts[card.index] = counts[card.index] + 1
            if n == 1:
                self.distinct.append(card)
            if card.is_wild:
                self.n_wilds += 1
                if n == 1:
                    self.wilds.append(card)
                if card.is_joker:
                    continue
            ranks[card.rank] += 1
            if n == 1:
                masks[card.index // 13] |= card.run_bits
            elif n == 2:
                doubles[card.index // 13] |= card.run_bits
        # the wild cards in the order they fill holes: 2s (by suit), then jokers
        self.pool = [c for c in _TWOS for _ in range(counts[c.index])]
        self.pool += [JOKER] * counts[JOKER.index]

    def of_rank(self, rank: int) -> list[Card]:
        """The distinct cards of ``rank`` held."""
        return [c for c in _OF_RANK[rank] if self.counts[c.index]]


# -- slots ------------------------------------------------------------------------------


def _set_slots(index: HandIndex) -> list[tuple[int, int]]:
    """(wilds it takes at least, rank) for each rank held. A set of 2s is three wild cards:
    its natural 2s and jokers."""
    return [(3 if rank == 2 else max(0, 3 - n), rank)
            for rank, n in enumerate(index.ranks) if n]


def _run_slots(index: HandIndex, minimum: int) -> list[tuple[int, RunSlot]]:
    """(wilds it takes at least, window) for the run windows worth trying (see below)."""
    slots: list[tuple[int, RunSlot]] = []
    for number, mask in enumerate(index.masks):
        if mask:
            suit = SUITS[number]
            slots += [(cost, (suit, low, high)) for cost, low, high in
                      _windows(mask, index.counts[number * 13] < 2, index.n_wilds, minimum)]
    return slots


Windows = tuple[tuple[int, int, int], ...]
#: What _windows found, by its arguments packed in one number: asked again and again, and a
#: dict of numbers is quicker to ask than functools.lru_cache, whose key is a tuple.
_WINDOWS: Final[dict[int, Windows]] = {}
_WINDOWS_KEPT: Final = 1 << 16


def _windows(mask: int, one_ace: bool, wilds: int, minimum: int) -> Windows:
    """Run windows of a suit, a pure function of the positions held (``mask``), whether a
    single ace is held, and how many wilds (any past 14 fill no more holes, so they share
    a key): from each natural, the shortest run (padded above, or below near the ace) and
    the longest one the wilds can bridge that ends on a natural. Each comes with the wilds
    it takes: holes, plus a natural 2 (a wild card)."""
    key = ((mask << 1 | one_ace) << 4 | min(wilds, 15)) << 4 | minimum
    found = _WINDOWS.get(key)
    if found is None:
        if len(_WINDOWS) >= _WINDOWS_KEPT:
            _WINDOWS.clear()
        found = _WINDOWS[key] = _find_windows(mask, one_ace, wilds, minimum)
    return found


def _find_windows(mask: int, one_ace: bool, wilds: int, minimum: int) -> Windows:
    windows: set[tuple[int, int]] = set()
    holes = ~mask & _POSITIONS
    for start in range(1, 15):
        if not mask >> start & 1:
            continue
        windows.add((start, start + minimum - 1) if start + minimum <= 15
                    else (15 - minimum, 14))
        unbridged = holes >> start << start
        for _ in range(wilds):
            unbridged &= unbridged - 1  # a wild fills the lowest hole
        stop = (unbridged & -unbridged).bit_length() - 1 if unbridged else 15
        end = (mask & ((1 << stop) - 1)).bit_length() - 1  # the last natural before it
        if end - start + 1 >= minimum:
            windows.add((start, end))
    found: list[tuple[int, int, int]] = []
    plain_mask = mask & ~(1 << 2)  # a natural 2 is still one of the hand's wild cards
    for low, high in sorted(windows):
        width = high - low + 1
        held = (mask >> low & ((1 << width) - 1)).bit_count()
        cost = width - (plain_mask >> low & ((1 << width) - 1)).bit_count()
        cost += low == 1 and high == 14 and one_ace  # one ace card can't stand at both ends
        if held and cost <= wilds:
            found.append((cost, low, high))
    return tuple(found)


# -- filling slots from the hand -------------------------------------------------------------

_PLAIN: Final = tuple([plain(c) for c in ALL_CARDS])  # by Card.index
Row = list[Placed | int | None]  # a natural card, a run hole (its position) or a set hole


def _fill(slots: Sequence[Slot], index: HandIndex) -> tuple[MeldSpec, ...] | None:
    """The melds ``slots`` make from the hand, or None when it lacks the cards (R5.5, wilds)."""
    left = list(index.counts)
    rows: list[Row] = [[] for _ in slots]
    runs: list[tuple[int, RunSlot]] = []
    sets: dict[int, list[int]] = {}
    for i, slot in enumerate(slots):
        if isinstance(slot, int):
            sets.setdefault(slot, []).append(i)
        else:
            runs.append((i, slot))
    holes = 0
    for i, (suit, low, high) in runs:
        row, at, before = rows[i], _AT[suit], holes
        for position in range(low, high + 1):
            card = at[position]
            if card is not None and left[card.index]:
                left[card.index] -= 1
                row.append(_PLAIN[card.index])
            else:
                row.append(position)
                holes += 1
        if holes - before == len(row):
            return None  # R5.5: a meld holds a natural card
    for rank, where in sets.items():
        naturals = [_PLAIN[c.index] for c in _OF_RANK[rank] for _ in range(left[c.index])]
        if rank == 2:  # 2s are wilds too: a set of 2s takes only the three it needs
            del naturals[3 * len(where):]
        for p in naturals:
            left[p.card.index] -= 1
        if not naturals and len(where) == 1:
            naturals = _steal(rank, runs, rows)
            holes += len(naturals)
        if len(naturals) < len(where):
            return None  # R5.5
        sizes = _split(len(naturals), len(where)) if len(where) > 1 else [len(naturals)]
        for i, size in zip(where, sizes, strict=True):
            rows[i] += naturals[:size]
            if size < 3:
                rows[i] += [None] * (3 - size)
                holes += 3 - size
            del naturals[:size]
    if any(left[c.index] < index.counts[c.index] for c in index.wilds):  # natural 2s used
        pool = [c for c in _TWOS for _ in range(left[c.index])] + [JOKER] * left[JOKER.index]
    else:
        pool = index.pool
    if holes > len(pool):
        return None
    wilds = iter(pool)
    return tuple([_spec(slots[i], rows[i], wilds) for i in range(len(slots))])


def _split(naturals: int, sets: int) -> list[int]:
    """Naturals of one rank for each of ``sets`` sets: one each, then up to 3 each, then the
    rest to the first (fewest holes, every set with a natural card)."""
    sizes = [1] * sets
    rest = naturals - sets
    for i in range(sets):
        more = min(2, rest)
        sizes[i] += more
        rest -= more
    sizes[0] += rest
    return sizes


def _steal(rank: int, runs: Sequence[tuple[int, RunSlot]], rows: list[Row]) -> list[Placed]:
    """A natural of ``rank`` that a run with another natural can give up for a wild."""
    for i, (_suit, low, _high) in runs:
        row = rows[i]
        if sum(type(p) is Placed for p in row) > 1:
            for j, p in enumerate(row):
                if type(p) is Placed and p.card.rank == rank:
                    row[j] = low + j
                    return [p]
    return []


def _spec(slot: Slot, row: Row, wilds: Iterator[Card]) -> MeldSpec:
    """A filled slot as a meld: naturals written plainly, a wild in each hole."""
    if isinstance(slot, int):
        return MeldSpec("set", tuple([p if type(p) is Placed
                                      else declare(next(wilds), "set", slot, "") for p in row]))
    suit, low, _high = slot  # a run's row holds its positions in order, from low
    return MeldSpec("run", tuple([p if type(p) is Placed
                                  else declare(next(wilds), "run", low + i, suit)
                                  for i, p in enumerate(row)]))


# -- melds and contracts -------------------------------------------------------------------


def candidate_melds(index: HandIndex) -> list[MeldSpec]:
    """Canonical single melds (R7.3: any set or run of at least 3) the hand can make."""
    slots: list[Slot] = [slot for cost, slot in _set_slots(index) if cost <= index.n_wilds]
    slots += [slot for _cost, slot in _run_slots(index, 3)]  # windows fit the wilds
    return [melds[0] for melds in (_fill((slot,), index) for slot in slots) if melds]


def contracts(hand_no: int, hand: Sequence[Card],
              index: HandIndex | None = None) -> list[tuple[MeldSpec, ...]]:
    """Ways ``hand`` can lay down hand ``hand_no``'s contract (R7.1), canonical melds only:
    each choice of slots (two sets of one rank, or two runs over one window, included)
    filled as :func:`_fill` says."""
    index = index or HandIndex(hand)
    need = CONTRACTS[hand_no]
    n_sets = sum(kind == "set" for kind, _n in need)
    n_runs = len(need) - n_sets
    run_length = max(n for kind, n in need) if n_runs else 0
    choice = _Choice(index, sorted(_set_slots(index)) if n_sets else [],
                     sorted(_run_slots(index, run_length)) if n_runs else [])
    choices: list[tuple[Slot, ...]] = []
    choice.runs(n_runs, n_sets, 0, index.n_wilds, choice.free, (), choices)
    found = []
    for slots in choices:
        melds = _fill(slots, index)
        if melds is not None:
            found.append(melds)
    return found


_ACE_BITS: Final = 1 << 1 | 1 << 14
_POSITIONS: Final = (1 << 15) - 2  # run positions 1..14 as bits
_TWO_BIT: Final = 1 << 2  # a natural 2 in a run is still one of the hand's wild cards
Free = list[tuple[int, int]]  # per suit (SUITS' order): positions held at least once, twice
_SUIT_NUMBER: Final = {suit: number for number, suit in enumerate(SUITS)}


@final
class _Choice:
    """Choices of slots for a contract, cheapest first, each costed as :func:`_fill` will
    fill it: a run takes the naturals its window still finds free, a set the naturals of
    its rank the runs left. A choice whose wilds can't fit is cut as soon as it shows.
    Each choice is added to ``found``, depth first (lists, not generators: mypyc makes an
    object of each generator call)."""

    def __init__(self, index: HandIndex, sets: list[tuple[int, int]],
                 runs: list[tuple[int, RunSlot]]) -> None:
        self.index, self.set_slots, self.run_slots = index, sets, runs
        self.free: Free = list(zip(index.masks, index.doubles, strict=True))

    def runs(self, count: int, sets: int, start: int, budget: int, free: Free,
             chosen: tuple[Slot, ...], found: list[tuple[Slot, ...]]) -> None:
        if count == 0:
            self.sets(sets, 0, budget, free, (), chosen, found)
            return
        for i in range(start, len(self.run_slots)):
            least, slot = self.run_slots[i]
            if least > budget:
                break  # sorted by the wilds they take at least: the rest take more
            suit, low, high = slot
            number = _SUIT_NUMBER[suit]
            once, twice = free[number]
            window = ((1 << (high - low + 1)) - 1) << low
            cost = ((window & ~once).bit_count() + (window & once & _TWO_BIT != 0)
                    + (window & _ACE_BITS == _ACE_BITS and not twice & 2))
            if cost <= budget:
                left = list(free)
                left[number] = _take(once, twice, window & once)
                self.runs(count - 1, sets, i, budget - cost, left, chosen + (slot,), found)

    def sets(self, count: int, start: int, budget: int, free: Free, chosen: tuple[Slot, ...],
             runs: tuple[Slot, ...], found: list[tuple[Slot, ...]]) -> None:
        if count == 0:
            found.append(chosen + runs)
            return
        for i in range(start, len(self.set_slots)):
            least, rank = self.set_slots[i]
            again = chosen.count(rank)  # sets of this rank chosen already
            if least > budget and not again:
                break  # sorted by the wilds they take at least: the rest take more
            naturals = self.index.ranks[rank] if free is self.free else sum(
                [(once >> rank & 1) + (twice >> rank & 1) for once, twice in free])
            if rank == 2:  # R5.4: three wild cards, its natural 2s and jokers (see _fill)
                cost = 3
            else:
                cost = max(0, 3 * again + 3 - naturals) - max(0, 3 * again - naturals)
            if not naturals and not again and self.run_slots:
                naturals, cost = 1, 3  # a natural the runs took, given back (see _steal)
            if naturals > again and cost <= budget:
                self.sets(count - 1, i, budget - cost, free, chosen + (rank,), runs, found)


def _take(once: int, twice: int, used: int) -> tuple[int, int]:
    """Free positions of a suit after a run takes ``used`` (an ace is one card at 1 and 14)."""
    aces = (once >> 1 & 1) + (twice >> 1 & 1) - (used >> 1 & 1) - (used >> 14 & 1)
    once, twice = (once & ~used) | (twice & used), twice & ~used
    if used & _ACE_BITS:
        once = once & ~_ACE_BITS | (_ACE_BITS if aces >= 1 else 0)
        twice = twice & ~_ACE_BITS | (_ACE_BITS if aces >= 2 else 0)
    return once, twice


# -- lay-offs and swaps ----------------------------------------------------------------------


def _layoffs(seat: int, melds: Sequence[TableMeld], wilds: Sequence[Card],
             counts: Sequence[int] | None) -> list[Action]:
    """One-card lay-offs (R7.3) onto each of ``melds``, at each open end of a run: a natural
    held (``counts``, by card index) or one of ``wilds``."""
    plays: list[Action] = []
    for meld in melds:
        if meld.kind == "set":
            rank = meld.rank
            if rank != 2 and counts:  # a 2 is a wild here, listed with the wilds (R5.4)
                plays += [LayOff(seat, meld.id, (_PLAIN[c.index],))
                          for c in _OF_RANK[rank] if counts[c.index]]
            plays += [LayOff(seat, meld.id, (declare(w, "set", rank, ""),)) for w in wilds]
            continue
        low, high, at = meld.low - 1, meld.high + 1, _AT[meld.suit]
        for position in (1,) if low == 1 and high == 14 else (low, high):  # one ace, 2 ways
            natural = at[position]  # None off either end
            if natural is None:
                continue
            if counts and not natural.is_wild and counts[natural.index]:
                plays.append(LayOff(seat, meld.id, (_PLAIN[natural.index],)))
            plays += [LayOff(seat, meld.id, (declare(w, "run", position, meld.suit),))
                      for w in wilds]
    return plays


def _swaps(seat: int, index: HandIndex, melds: Sequence[TableMeld]) -> list[Action]:
    open_melds = sum([m.kind == "set" or len(m.cards) < 14 for m in melds])
    counts = index.counts
    swaps: list[Action] = []
    for meld in melds:
        if open_melds - (meld.kind == "set" or len(meld.cards) < 14) == 0:
            continue  # the freed wild would have nowhere to go (R7.4)
        declared = meld.wilds
        if not declared:
            continue
        # each distinct wild once, in the meld's order (a few: a list is quicker than a dict)
        if meld.kind == "set":  # any card of the set's rank will do (R7.4)
            held = index.of_rank(meld.rank)
            if held:
                wilds: list[Card] = []
                for p in declared:
                    if p.card not in wilds:
                        wilds.append(p.card)
                        swaps.append(Swap(seat, meld.id, held[0], p.card))
            continue
        at = _AT[meld.suit]
        done: list[Placed] = []
        for p in declared:
            if p in done:
                continue
            done.append(p)
            natural = at[p.rank or 0]
            if natural is not None and counts[natural.index]:
                swaps.append(Swap(seat, meld.id, natural, p.card))
    return swaps


def _strands(action: Action, hand: Sequence[Card], taken: Card) -> bool:
    """Would ``action`` leave only the undiscardable taken card in hand (R6.5)?"""
    if isinstance(action, (LayContract, LayMelds)):
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
