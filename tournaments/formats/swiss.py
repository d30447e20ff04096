"""Swiss pairing by maximum-weight matching with lexicographic integer weights.

Contract of :func:`pair_swiss_round`:

* Input: the teams, in any order (see :class:`~tournaments.formats.base.SwissTeam`),
  and the odd-team policy: ``"bye"`` (the odd team out sits out) or ``"bot"``
  (it plays the house bot team); both choose the odd team the same way.
  Withdrawn teams are left out; every other team is in exactly one pairing.
* Ranking: points (high first), then seed (low first), then id.
* Priorities, each strictly above the next:

  0. no pair the organiser asks to keep apart meets (either team lists the other in its
     ``avoid``: a pairing to avoid, or two teams of a club kept apart) while a draw that
     keeps every such pair apart exists (else as few such pairs as any draw allows);
  1. no rematch while a rematch-free pairing exists under 0 (else the fewest rematches);
  2. the odd team out has had no bye or bot game yet, while that is possible
     under 0 and 1 (else it has the fewest);
  3. the odd team out is the lowest-ranked team allowed by 0, 1 and 2;
  4. teams meet within their score group, floating as few groups as possible:
     cost ``d**2`` for a pair ``d`` score groups apart;
  5. seed order, like the Dutch system: in a score group of ``s`` teams, place
     ``p`` (from 0, by rank) meets place ``p + s//2``, top half v bottom half
     (cost ``|q - p - s//2|``); a pair across groups is the lowest of the upper
     group against the highest of the lower one (cost: places above the bottom
     of its group plus places below the top of its group).

* The higher-ranked team of a pair is home. Pairings are in table order (by
  the higher-ranked team) with the odd team out last, as a bye or a bot game.
* Deterministic: the same teams give the same pairings, whatever their order.
* :func:`unkept_apart` names the pairs to keep apart a round still brings together: by 0,
  no draw of the round's active teams brings together fewer.
* :class:`~tournaments.formats.base.PairingError` when fewer than two teams
  are active, an id is repeated or the policy is unknown.

Weights. A pair costs ``t0*W0 + t1*W1 + t2*W2 + t3*W3 + t4*W4 + t5`` and its edge
weighs ``K - cost``: ``t0`` is 1 for a pair to keep apart, ``t1`` 1 for a rematch;
``t2`` (earlier byes) and ``t3`` (places above the bottom of the ranking) are set
only on edges to a phantom node that stands for the odd team out; ``t4``, ``t5``
are the costs of 4 and 5. ``networkx.max_weight_matching(maxcardinality=True)``
returns a perfect matching of least total cost. With ``n`` teams, ``P = ceil(n/2)``
pairs and ``G`` score groups: ``W4 = 2nP + 1``, ``W3 = (P(G-1)**2 + 1) W4``,
``W2 = n W3``, ``W1 = (max byes + 1) W2``, ``W0 = (P + 1) W1``, ``K = (P + 1) W0``.
Each multiplier exceeds the largest total of all lower tiers over a round (at most
``P`` pairs are rematches, so ``W0`` outweighs them all), so the tiers are strictly
lexicographic and every weight is a positive integer.

Speed. The complete graph on 1,024 teams takes networkx about 50 s (and a
node joined to every other one slows the matcher badly), so above
:data:`COMPLETE_GRAPH_UP_TO` teams the search goes in steps, stopping at the
first that pairs everyone without a pair to keep apart or a rematch (the edges of
both are left out of the graphs of a and b):

a. by brackets (the fast path, ~0.3 s for 1,024 teams): the lowest-ranked
   team with the fewest byes is the odd one out; score groups are matched top
   down, each with the teams floated into it, on a pruned graph (see b) unless
   the bracket is small; in an odd bracket a phantom picks the floater (one of
   its lowest ``2w`` or a team floated in); a bracket that cannot be paired
   floats down whole into the next;
b. the whole field on pruned graphs (:data:`WINDOWS`): in-group partners
   within ``w`` places of the Dutch partner; the bottom ``w`` of a group
   against the top ``w`` of the next ``reach`` groups and the next ``w``
   ranks; the same odd team out as in a;
c. the complete graph without the edges of pairs to keep apart or of rematches, then
   with the rematch edges, then with every edge.

A success in a or b has the odd team that priorities 2 and 3 ask for, no pair to keep
apart and no rematch; a success in c leaves out only edges no least-cost matching needs
(none of its pairs to keep apart while a matching without one exists, none of its
rematches while one without exists). So priorities 0-3 always hold exactly. Up to
:data:`COMPLETE_GRAPH_UP_TO` teams only step c runs and 4 and 5 are exact
too; above it they are optimal among the pruned candidates of each step.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .base import Pairing, PairingError, SwissTeam, TeamId, check_team_ids
from .registry import STANDINGS_SETTINGS, TournamentData, TournamentFormat

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["COMPLETE_GRAPH_UP_TO", "OddPolicy", "Swiss", "SwissEntry",
           "pair_swiss_round", "unkept_apart"]

OddPolicy = Literal["bye", "bot"]
Mate = dict[int, int]  # rank -> rank of the opponent (or of the phantom)

#: Up to this many active teams the complete graph is matched directly.
COMPLETE_GRAPH_UP_TO = 64
#: The pruned graphs tried above that size: (rank window w, group reach).
WINDOWS: tuple[tuple[int, int], ...] = ((4, 2), (16, 4))


@dataclass(frozen=True, slots=True)
class SwissEntry:
    """A plain :class:`~tournaments.formats.base.SwissTeam` (for callers and benchmarks)."""

    id: TeamId
    points: float
    seed: int
    previous_opponents: frozenset[TeamId] = field(default_factory=frozenset)
    byes: int = 0
    withdrawn: bool = False
    avoid: frozenset[TeamId] = field(default_factory=frozenset)


def pair_swiss_round(teams: Iterable[SwissTeam], *, odd: OddPolicy = "bye") -> list[Pairing]:
    """Pair one Swiss round (see the module contract)."""
    if odd not in ("bye", "bot"):
        raise PairingError(_("unknown odd-team policy %(policy)r; use 'bye' or 'bot'")
                           % {"policy": odd})
    every = list(teams)
    check_team_ids((t.id for t in every), minimum=0)
    ranked = sorted((t for t in every if not t.withdrawn), key=lambda t: (-t.points, t.seed, t.id))
    if len(ranked) < 2:
        raise PairingError(_("at least 2 active teams are needed, got %(count)d")
                           % {"count": len(ranked)})
    problem = _Round(ranked)
    mate = None
    if len(ranked) > COMPLETE_GRAPH_UP_TO:
        mate = problem.by_brackets(WINDOWS[0])
        for window in WINDOWS:
            if mate is None:
                mate = problem.whole(window, rematches=False, apart=False)
    # Each step lets in the edges the one before left out, as few as it may: the graph
    # with every edge always has a perfect matching.
    for rematches, apart in ((False, False), (True, False), (True, True)):
        if mate is None:
            mate = problem.whole(None, rematches=rematches, apart=apart)
    if mate is None:
        raise AssertionError("no perfect matching on the complete graph")
    return problem.pairings(mate, odd)


def unkept_apart(pairings: Iterable[Pairing],
                 teams: Iterable[SwissTeam]) -> list[tuple[TeamId, TeamId]]:
    """The pairs to keep apart (either team lists the other in its ``avoid``) that
    ``pairings`` bring together, each as (home, away), in table order. For a round
    :func:`pair_swiss_round` paired, no draw of its active teams brings together fewer."""
    avoid = {team.id: team.avoid for team in teams}
    return [(p.home, p.away) for p in pairings
            if p.away is not None and (p.away in avoid.get(p.home, frozenset())
                                       or p.home in avoid.get(p.away, frozenset()))]


class _Round:
    """The ranked teams of one round and their pair costs. Nodes are ranks
    0..n-1; node n is a phantom: the odd team out, or (by brackets) a floater."""

    def __init__(self, ranked: list[SwissTeam]) -> None:
        self.n = n = len(ranked)
        self.phantom = n
        self.odd = n % 2 == 1
        self.ids = [t.id for t in ranked]
        self.met = [frozenset(t.previous_opponents) for t in ranked]
        self.avoid = [frozenset(t.avoid) for t in ranked]
        self.byes = [t.byes for t in ranked]
        fewest = min(self.byes)  # the odd one out by priorities 2 and 3, if it can be
        self.odd_one = max(a for a in range(n) if self.byes[a] == fewest)
        self.group: list[int] = []
        self.pos: list[int] = []
        self.starts: list[int] = []  # first rank of each score group
        for rank, team in enumerate(ranked):
            if rank == 0 or team.points != ranked[rank - 1].points:
                self.starts.append(rank)
            self.group.append(len(self.starts) - 1)
            self.pos.append(rank - self.starts[-1])
        self.ends = [*self.starts[1:], n]
        pairs, groups = (n + 1) // 2, len(self.starts)
        self.w4 = 2 * n * pairs + 1
        self.w3 = (pairs * (groups - 1) ** 2 + 1) * self.w4
        self.w2 = n * self.w3
        self.w1 = (max(self.byes) + 1) * self.w2
        self.w0 = (pairs + 1) * self.w1
        self.k = (pairs + 1) * self.w0

    def apart(self, a: int, b: int) -> bool:
        """Whether the organiser asks to keep the teams ranked ``a`` and ``b`` apart."""
        return self.ids[b] in self.avoid[a] or self.ids[a] in self.avoid[b]

    def rematch(self, a: int, b: int) -> bool:
        return self.ids[b] in self.met[a] or self.ids[a] in self.met[b]

    def cost(self, a: int, b: int) -> int:
        """The cost of pairing the teams ranked ``a < b``."""
        ga, gb = self.group[a], self.group[b]
        if ga == gb:
            seed_cost = abs(self.pos[b] - self.pos[a] - (self.ends[ga] - self.starts[ga]) // 2)
        else:
            seed_cost = self.ends[ga] - 1 - a + self.pos[b]
        return (self.apart(a, b) * self.w0 + self.rematch(a, b) * self.w1
                + (gb - ga) ** 2 * self.w4 + seed_cost)

    def bye_cost(self, a: int) -> int:
        return self.byes[a] * self.w2 + (self.n - 1 - a) * self.w3

    def candidates(
        self, members: list[int], window: tuple[int, int] | None, dense: list[int]
    ) -> Iterator[tuple[int, int]]:
        """Rank pairs ``a < b`` among ``members`` (sorted): all, or the pruned set.
        ``dense`` (the first members, floated into a bracket) also meet its top teams."""
        if window is None:
            yield from itertools.combinations(members, 2)
            return
        w, reach = window
        inside = set(members)
        for g in sorted({self.group[m] for m in members}):
            start, end = self.starts[g], self.ends[g]
            half = (end - start) // 2
            for a in range(start, end):  # in-group, near the Dutch partner a + half
                for b in range(a + max(1, half - w), min(end, a + half + w + 1)):
                    if a in inside and b in inside:
                        yield a, b
            tops = [b for h in range(g + 1, min(g + 1 + reach, len(self.starts)))
                    for b in range(self.starts[h], min(self.starts[h] + w, self.ends[h]))]
            for a in range(max(start, end - w), end):  # floaters: bottom v next tops
                near = range(end, min(self.n, a + w + 1))
                for b in itertools.chain(tops, near):
                    if a in inside and b in inside:
                        yield a, b
        for a in dense:  # teams floated into a bracket: against its top teams
            yield from ((a, b) for b in members[len(dense) : len(dense) + 2 * w] if a < b)

    def match(self, members: list[int], edges: Iterable[tuple[int, int]],
              phantom_costs: dict[int, int], *, rematches: bool, apart: bool) -> Mate | None:
        """A least-cost perfect matching of ``members`` (plus the phantom if any
        ``phantom_costs``) over ``edges`` (less rematches and pairs to keep apart unless
        ``rematches`` and ``apart`` let them in), or ``None``."""
        import networkx as nx  # here, not with the module: every process loads the formats

        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(members)
        for a, b in edges:
            if (rematches or not self.rematch(a, b)) and (apart or not self.apart(a, b)):
                graph.add_edge(a, b, weight=self.k - self.cost(a, b))
        for a, cost in phantom_costs.items():
            graph.add_edge(a, self.phantom, weight=self.k - cost)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) < graph.number_of_nodes():
            return None
        mate: Mate = {}
        for a, b in matching:
            mate[a], mate[b] = b, a
        return mate

    def whole(self, window: tuple[int, int] | None, *, rematches: bool,
              apart: bool) -> Mate | None:
        """Match the whole field at once, on the complete or a pruned graph."""
        members = list(range(self.n))
        odd: list[int] = []  # candidates for the odd one out: all, or on a pruned graph
        if self.odd:  # only the one priorities 2 and 3 want (so they hold when it pairs)
            odd = list(reversed(members)) if window is None else [self.odd_one]
        edges = self.candidates(members, window, [])
        return self.match(members, edges, {a: self.bye_cost(a) for a in odd},
                          rematches=rematches, apart=apart)

    def by_brackets(self, window: tuple[int, int]) -> Mate | None:
        """The fast path for big fields: the lowest-ranked team with the fewest byes is
        the odd one out, then score groups are matched top-down, each with the teams
        floated down from above (the phantom picks a floater when the count is odd;
        a bracket that cannot be paired floats down whole). ``None`` if the last
        bracket cannot be paired without rematches and pairs to keep apart."""
        mate: Mate = {}
        if self.odd:
            mate[self.odd_one], mate[self.phantom] = self.phantom, self.odd_one
        carry: list[int] = []
        for g, (start, end) in enumerate(zip(self.starts, self.ends, strict=True)):
            members = carry + [a for a in range(start, end) if a not in mate]
            floats: dict[int, int] = {}
            if len(members) % 2:  # one floats down: preferably the lowest resident
                floats = {a: (g + 1 - self.group[a]) ** 2 * self.w4 + len(members) - i
                          for i, a in enumerate(members)
                          if a in carry or i >= len(members) - 2 * window[0]}
            small = len(members) <= COMPLETE_GRAPH_UP_TO  # then the whole bracket graph
            edges = self.candidates(members, None if small else window, carry)
            found = (self.match(members, edges, floats, rematches=False, apart=False)
                     if members else {})
            if found is None:
                carry = members
                continue
            carry = [a for a in members if found[a] == self.phantom]
            mate.update((a, b) for a, b in found.items() if self.phantom not in (a, b))
        return None if carry else mate

    def pairings(self, mate: Mate, odd: OddPolicy) -> list[Pairing]:
        tables = [Pairing(home=self.ids[a], away=self.ids[b])
                  for a, b in sorted(mate.items()) if a < b < self.phantom]
        if self.odd:
            tables.append(Pairing(home=self.ids[mate[self.phantom]], against_bot=odd == "bot"))
        return tables


class Swiss(TournamentFormat):
    """As many rounds as the organiser plans, each paired on the standings so far."""

    key = "swiss"
    label = gettext_lazy("Swiss")
    settings = STANDINGS_SETTINGS | {"rounds_planned"}

    def rounds_total(self, data: TournamentData) -> int:
        return data.settings.rounds_planned

    def pairings(self, data: TournamentData, number: int) -> list[tuple[int | None, Pairing]]:
        odd = cast(OddPolicy, data.settings.bye_policy)  # a field choice: "bye" or "bot"
        return [(None, p) for p in pair_swiss_round(data.swiss_teams(), odd=odd)]

    def unkept_apart(self, data: TournamentData,
                     pairings: Sequence[Pairing]) -> list[tuple[TeamId, TeamId]]:
        return unkept_apart(pairings, data.swiss_teams())
