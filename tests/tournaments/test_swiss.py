"""Swiss pairing: pairs to keep apart, rematches, byes, score groups and seed order, checked
against brute force."""

import functools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.swiss_field import bench_swiss_input
from tests.examples import examples
from tournaments.formats import Pairing, PairingError, SwissTeam
from tournaments.formats import swiss as swiss_module
from tournaments.formats.swiss import pair_swiss_round, unkept_apart

CHECKS = settings(max_examples=examples(120), deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class Team:
    """A stub implementing the SwissTeam protocol."""

    id: int
    points: float = 0
    seed: int = 0
    previous_opponents: frozenset[int] = field(default_factory=frozenset)
    byes: int = 0
    withdrawn: bool = False
    avoid: frozenset[int] = field(default_factory=frozenset)


@st.composite
def fields(draw: st.DrawFn, max_teams: int = 12) -> list[Team]:
    """Up to ``max_teams`` active teams (and maybe a withdrawn one) with a random past, and
    pairs to keep apart, each listed by one team of the pair only (either is enough)."""
    n = draw(st.integers(min_value=2, max_value=max_teams))
    ids = draw(st.lists(st.integers(1, 999), min_size=n, max_size=n, unique=True))
    points = draw(st.lists(st.sampled_from([0, 0.5, 1, 2, 3]), min_size=n, max_size=n))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    met: dict[int, set[int]] = {i: set() for i in ids}
    for a_index, a in enumerate(ids):
        for b in ids[a_index + 1 :]:
            if rng.random() < density:
                met[a].add(b)
                met[b].add(a)
    apart = draw(st.sampled_from([0.0, 0.0, 0.15, 0.4, 0.7]))
    avoid: dict[int, set[int]] = {i: set() for i in ids}
    for a_index, a in enumerate(ids):
        for b in ids[a_index + 1 :]:
            if rng.random() < apart:
                lister, listed = (a, b) if rng.random() < 0.5 else (b, a)
                avoid[lister].add(listed)
    byes = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=n, max_size=n))
    seeds = draw(st.permutations(range(1, n + 1)))
    teams = [Team(i, p, s, frozenset(met[i]), b, avoid=frozenset(avoid[i]))
             for i, p, s, b in zip(ids, points, seeds, byes, strict=True)]
    if draw(st.booleans()):
        teams.append(Team(1000, 9, 1, frozenset(ids[:1]), withdrawn=True,
                          avoid=frozenset(ids[1:2])))
    return teams


def ranked(teams: Sequence[SwissTeam]) -> list[SwissTeam]:
    return sorted((t for t in teams if not t.withdrawn), key=lambda t: (-t.points, t.seed, t.id))


Tiers = tuple[int, int, int, int, int, int]


def keep_apart(first: SwissTeam, second: SwissTeam) -> bool:
    return first.id in second.avoid or second.id in first.avoid


def pair_tiers(order: list[SwissTeam]) -> dict[tuple[int, int], Tiers]:
    """The priorities of the module contract, computed independently, for every pair
    of ranks ``a < b``: (a pair to keep apart, rematch, odd team's earlier byes, odd
    team's places above the bottom, score groups apart squared, seed cost). Rank
    ``len(order)`` stands for the odd team out."""
    n = len(order)
    groups = sorted({t.points for t in order}, reverse=True)
    group = [groups.index(t.points) for t in order]
    start = {g: group.index(g) for g in set(group)}
    size = {g: group.count(g) for g in set(group)}
    table: dict[tuple[int, int], Tiers] = {}
    for a in range(n):
        table[a, n] = (0, 0, order[a].byes, n - 1 - a, 0, 0)
        for b in range(a + 1, n):
            ga, gb = group[a], group[b]
            pa, pb = a - start[ga], b - start[gb]
            seed_cost = abs(pb - pa - size[ga] // 2) if ga == gb else size[ga] - 1 - pa + pb
            rematch = order[b].id in order[a].previous_opponents
            table[a, b] = (int(keep_apart(order[a], order[b])), int(rematch), 0, 0,
                           (gb - ga) ** 2, seed_cost)
    return table


def total(costs: Sequence[Tiers]) -> Tiers:
    k, r, b, p, f, s = (sum(column) for column in zip(*costs, strict=True))
    return k, r, b, p, f, s


def best_tiers(table: dict[tuple[int, int], Tiers], nodes: int) -> Tiers:
    """The lexicographically least total over every perfect matching of ``nodes``
    nodes, by brute force (dynamic programming over the set of unpaired nodes)."""

    @functools.cache
    def best(unpaired: frozenset[int]) -> Tiers:
        if not unpaired:
            return (0, 0, 0, 0, 0, 0)
        first = min(unpaired)
        rest = unpaired - {first}
        return min(total([table[first, other], best(rest - {other})]) for other in rest)

    return best(frozenset(range(nodes)))


def as_ranks(order: list[SwissTeam], pairings: list[Pairing]) -> list[tuple[int, int]]:
    rank = {t.id: r for r, t in enumerate(order)}
    return [(rank[p.home], len(order) if p.away is None else rank[p.away]) for p in pairings]


def check_everyone_once(teams: Sequence[SwissTeam], pairings: list[Pairing]) -> None:
    active = sorted(t.id for t in teams if not t.withdrawn)
    assert sorted(t for p in pairings for t in p.teams) == active
    assert sum(p.away is None for p in pairings) == len(active) % 2
    assert all(p.away is not None for p in pairings[:-1])  # the odd team out is last


@CHECKS
@given(teams=fields())
def test_it_matches_the_brute_force_optimum_on_small_fields(teams: list[Team]) -> None:
    order = ranked(teams)
    pairings = pair_swiss_round(teams)
    check_everyone_once(teams, pairings)
    table = pair_tiers(order)
    got = total([table[min(p), max(p)] for p in as_ranks(order, pairings)])
    assert got == best_tiers(table, len(order) + len(order) % 2)


@CHECKS
@given(teams=fields())
def test_it_keeps_rematch_and_bye_rules_on_the_pruned_path(teams: list[Team]) -> None:
    # Force the big-field path (brackets, pruned graphs, fallbacks) on small fields.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(swiss_module, "COMPLETE_GRAPH_UP_TO", 0)
        patch.setattr(swiss_module, "WINDOWS", ((1, 1), (2, 1)))
        pairings = pair_swiss_round(teams)
    check_everyone_once(teams, pairings)
    order = ranked(teams)
    table = pair_tiers(order)
    got = total([table[min(p), max(p)] for p in as_ranks(order, pairings)])
    # Pairs kept apart and no rematch while avoidable, no second bye while avoidable, odd
    # team as low as possible.
    assert got[:4] == best_tiers(table, len(order) + len(order) % 2)[:4]


@CHECKS
@given(teams=fields(max_teams=10), data=st.data())
def test_it_is_deterministic_whatever_the_input_order(
    teams: list[Team], data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(teams))
    assert pair_swiss_round(shuffled) == pair_swiss_round(teams)


@CHECKS
@given(teams=fields(max_teams=9))
def test_the_bot_policy_picks_the_same_odd_team(teams: list[Team]) -> None:
    with_bye, with_bot = pair_swiss_round(teams), pair_swiss_round(teams, odd="bot")
    assert [p.teams for p in with_bye] == [p.teams for p in with_bot]
    assert all(p.against_bot == (p.away is None) for p in with_bot)
    assert all(p.is_bye == (p.away is None) for p in with_bye)


def test_round_one_pairs_top_half_against_bottom_half() -> None:
    teams = [Team(100 + s, seed=s) for s in range(1, 9)]
    assert pair_swiss_round(teams) == [
        Pairing(101, 105), Pairing(102, 106), Pairing(103, 107), Pairing(104, 108)
    ]


def test_it_floats_the_lowest_of_an_odd_group_to_the_top_of_the_next() -> None:
    teams = [Team(1, 2, 1), Team(2, 2, 2), Team(3, 2, 3),
             Team(4, 1, 4), Team(5, 1, 5), Team(6, 1, 6)]
    assert pair_swiss_round(teams) == [Pairing(1, 2), Pairing(3, 4), Pairing(5, 6)]


def test_it_avoids_a_rematch_by_pairing_within_the_group_differently() -> None:
    teams = [Team(s, seed=s, previous_opponents=frozenset({s + 2 if s <= 2 else s - 2}))
             for s in range(1, 5)]  # 1 met 3 and 2 met 4
    assert pair_swiss_round(teams) == [Pairing(1, 4), Pairing(2, 3)]


def test_a_meeting_either_team_remembers_is_a_rematch() -> None:
    """Only team 1 lists team 3 among its past opponents (and only team 4 lists team 2):
    either side's memory is enough to keep them apart."""
    teams = [Team(1, seed=1, previous_opponents=frozenset({3})), Team(2, seed=2),
             Team(3, seed=3), Team(4, seed=4, previous_opponents=frozenset({2}))]
    assert pair_swiss_round(teams) == [Pairing(1, 4), Pairing(2, 3)]


def test_the_bye_goes_to_the_lowest_team_without_one() -> None:
    teams = [Team(1, 2, 1), Team(2, 1, 2), Team(3, 0, 3, byes=1), Team(4, 0, 4, byes=1),
             Team(5, 1, 5)]
    assert pair_swiss_round(teams)[-1] == Pairing(5)


def test_withdrawn_teams_are_left_out() -> None:
    teams = [Team(1, seed=1), Team(2, seed=2), Team(3, seed=3, withdrawn=True)]
    assert pair_swiss_round(teams) == [Pairing(1, 2)]


def test_a_forced_rematch_is_the_only_one() -> None:
    everyone = frozenset({1, 2, 3, 4})
    teams = [Team(s, seed=s, previous_opponents=everyone - {s}) for s in range(1, 5)]
    assert pair_swiss_round(teams) == [Pairing(1, 3), Pairing(2, 4)]


def keep_apart_draw_exists(teams: Sequence[SwissTeam]) -> bool:
    """Whether some draw of the active teams keeps every pair to keep apart apart, by brute
    force over every draw (with an odd count, any one team may be the odd one out)."""
    active = [t for t in teams if not t.withdrawn]

    @functools.cache
    def exists(unpaired: frozenset[int], odd_one_left: bool) -> bool:
        if not unpaired:
            return True
        first = min(unpaired)
        rest = unpaired - {first}
        if odd_one_left and exists(rest, False):  # ``first`` is the odd one out
            return True
        return any(exists(rest - {other}, odd_one_left) for other in rest
                   if not keep_apart(active[first], active[other]))

    return exists(frozenset(range(len(active))), len(active) % 2 == 1)


@CHECKS
@given(teams=fields(max_teams=8), pruned=st.booleans())
def test_it_keeps_every_pair_apart_whenever_some_draw_does(teams: list[Team],
                                                           pruned: bool) -> None:
    with pytest.MonkeyPatch.context() as patch:
        if pruned:  # the big-field steps (brackets, pruned graphs) on a small field
            patch.setattr(swiss_module, "COMPLETE_GRAPH_UP_TO", 0)
            patch.setattr(swiss_module, "WINDOWS", ((1, 1), (2, 1)))
        pairings = pair_swiss_round(teams)
    check_everyone_once(teams, pairings)
    together = unkept_apart(pairings, teams)
    assert (together == []) == keep_apart_draw_exists(teams)
    by_id = {t.id: t for t in teams}
    assert together == [(p.home, p.away) for p in pairings
                        if p.away is not None and keep_apart(by_id[p.home], by_id[p.away])]


def test_keeping_a_pair_apart_outranks_avoiding_a_rematch() -> None:
    """Of the three draws of four teams only 1-3, 2-4 keeps 1 away from 2 and 4, and 1
    and 3 met before: without the pairs to keep apart the rematch is avoided; with them,
    it is the price of keeping them apart."""
    teams = [Team(1, seed=1, previous_opponents=frozenset({3})), Team(2, seed=2),
             Team(3, seed=3, previous_opponents=frozenset({1})), Team(4, seed=4)]
    assert Pairing(1, 3) not in pair_swiss_round(teams)
    teams[0] = replace(teams[0], avoid=frozenset({2, 4}))
    assert pair_swiss_round(teams) == [Pairing(1, 3), Pairing(2, 4)]


def test_the_odd_team_out_moves_up_to_keep_a_pair_apart() -> None:
    """Three teams, 1 and 2 kept apart: the lowest team can no longer sit out (1 would
    meet 2), so the lowest of those that can does; and fewer byes still come first."""
    teams = [Team(1, seed=1, avoid=frozenset({2})), Team(2, seed=2), Team(3, seed=3)]
    assert pair_swiss_round([replace(t, avoid=frozenset()) for t in teams]) == [
        Pairing(1, 2), Pairing(3)]
    assert pair_swiss_round(teams) == [Pairing(1, 3), Pairing(2)]
    assert pair_swiss_round(teams, odd="bot") == [Pairing(1, 3), Pairing(2, against_bot=True)]
    teams[1] = replace(teams[1], byes=1)
    assert pair_swiss_round(teams) == [Pairing(2, 3), Pairing(1)]


def test_a_pair_no_draw_keeps_apart_meets_and_is_named() -> None:
    teams = [Team(1, seed=1), Team(2, seed=2, avoid=frozenset({1}))]
    pairings = pair_swiss_round(teams)
    assert pairings == [Pairing(1, 2)]
    assert unkept_apart(pairings, teams) == [(1, 2)]


def test_it_brings_together_as_few_pairs_to_keep_apart_as_any_draw() -> None:
    """1 is to be kept from everyone, and 2 from 4: every draw brings 1 together with
    someone, and the draw seed order likes best, 1-3 with 2-4, would bring two pairs
    together."""
    teams = [Team(1, seed=1, avoid=frozenset({2, 3, 4})), Team(2, seed=2, avoid=frozenset({4})),
             Team(3, seed=3), Team(4, seed=4)]
    pairings = pair_swiss_round(teams)
    assert len(unkept_apart(pairings, teams)) == 1
    assert Pairing(2, 4) not in pairings


def test_unkept_apart_names_the_pairs_either_team_lists_in_table_order() -> None:
    teams = [Team(1), Team(2, avoid=frozenset({1})), Team(3), Team(4, avoid=frozenset({3, 9})),
             Team(5, avoid=frozenset({1}))]
    pairings = [Pairing(3, 4), Pairing(2, 5), Pairing(1, 2), Pairing(5, against_bot=True)]
    assert unkept_apart(pairings, teams) == [(3, 4), (1, 2)]


def test_a_big_field_keeps_its_pairs_apart_without_a_rematch() -> None:
    """Above COMPLETE_GRAPH_UP_TO teams: forbid ten of the pairs the round would have had,
    and it pairs again keeping every one apart, still without a rematch."""
    teams = bench_swiss_input(teams=99, rounds=6, seed=1)
    forbidden = [p for p in pair_swiss_round(teams) if p.away is not None][:10]
    avoid = {p.home: frozenset({p.away}) for p in forbidden if p.away is not None}
    teams = [replace(t, avoid=avoid.get(t.id, frozenset())) for t in teams]
    pairings = pair_swiss_round(teams)
    check_everyone_once(teams, pairings)
    assert unkept_apart(pairings, teams) == []
    assert not set(forbidden) & set(pairings)
    by_id = {t.id: t for t in teams}
    assert not any(p.away in by_id[p.home].previous_opponents for p in pairings)


@pytest.mark.parametrize(("size", "rounds", "seed"), [(99, 6, 1), (150, 7, 2), (257, 9, 3)])
def test_big_fields_pair_without_rematches(size: int, rounds: int, seed: int) -> None:
    teams = bench_swiss_input(teams=size, rounds=rounds, seed=seed)
    pairings = pair_swiss_round(teams)
    check_everyone_once(teams, pairings)
    by_id = {t.id: t for t in teams}
    assert not any(p.away in by_id[p.home].previous_opponents for p in pairings)
    if size % 2:
        fewest = min(t.byes for t in teams)
        lowest = ranked([t for t in teams if t.byes == fewest])[-1]
        assert pairings[-1] == Pairing(lowest.id)
    # Floats only where a group's parity forces one, and only to the next group.
    odd_team = pairings[-1].home if size % 2 else None
    points = sorted({t.points for t in teams}, reverse=True)
    counts = [sum(t.points == p and t.id != odd_team for t in teams) for p in points]
    forced = sum(sum(counts[:i]) % 2 for i in range(1, len(counts)))
    floats = [(points.index(by_id[p.home].points), points.index(by_id[p.away].points))
              for p in pairings if p.away is not None]
    assert sum(a != b for a, b in floats) == forced
    assert all(b - a in (0, 1) for a, b in floats)


def test_the_benchmark_input_looks_like_a_swiss_after_its_rounds() -> None:
    teams = bench_swiss_input(teams=65, rounds=5, seed=7)
    assert [t.seed for t in teams] == list(range(1, 66))
    assert all(len(t.previous_opponents) + t.byes == 5 for t in teams)
    assert sum(t.byes for t in teams) == 5
    assert sum(t.points for t in teams) == 32 * 5 + 5  # one point per game and per bye
    assert bench_swiss_input(teams=65, rounds=5, seed=7) == teams


@pytest.mark.parametrize(
    ("teams", "odd", "message"),
    [
        ([], "bye", "at least 2 active teams are needed, got 0"),
        ([Team(1)], "bye", "at least 2 active teams are needed, got 1"),
        ([Team(1), Team(2, withdrawn=True)], "bye", "at least 2 active teams are needed, got 1"),
        ([Team(1), Team(1)], "bye", "team 1 is entered twice"),
        ([Team(1), Team(2)], "robot", "unknown odd-team policy 'robot'; use 'bye' or 'bot'"),
    ],
)
def test_it_rejects_fields_it_cannot_pair(teams: list[Team], odd: str, message: str) -> None:
    with pytest.raises(PairingError, match=f"^{re.escape(message)}$"):
        pair_swiss_round(teams, odd=odd)  # type: ignore[arg-type]


def test_stub_replace_keeps_the_protocol() -> None:
    team = replace(Team(1), points=1.5)
    assert pair_swiss_round([team, Team(2)]) == [Pairing(1, 2)]


def tiers_of(teams: Sequence[SwissTeam], pairings: list[Pairing]) -> Tiers:
    """The total of :func:`pair_tiers` over a round's pairings (a bye: the odd team out)."""
    order = ranked(teams)
    rank = {t.id: i for i, t in enumerate(order)}
    table = pair_tiers(order)
    return total([table[min(rank[p.home], rank[p.away]), max(rank[p.home], rank[p.away])]
                  if p.away is not None else table[rank[p.home], len(order)]
                  for p in pairings])


def not_needed(*args: object, **kwargs: object) -> None:
    raise AssertionError("the pairing by brackets should have paired this field")


@settings(max_examples=examples(30), deadline=None)
@given(points=st.lists(st.sampled_from([0, 1, 2, 3]), min_size=65, max_size=90),
       data=st.data())
def test_a_big_field_with_no_past_pairs_by_brackets_as_well_as_the_complete_graph(
        points: list[int], data: st.DataObject) -> None:
    """Above COMPLETE_GRAPH_UP_TO teams the pairing goes by score brackets; with no
    rematch to avoid, the brackets alone pair it (no slower step needed), each floating its
    lowest team to the top of the next, which is what the complete graph finds too: the
    same total of every priority."""
    byes = data.draw(st.lists(st.sampled_from([0, 1]), min_size=len(points),
                              max_size=len(points)))
    teams = [Team(i, p, i, byes=b) for i, (p, b) in enumerate(zip(points, byes, strict=True), 1)]
    with pytest.MonkeyPatch.context() as patch:
        # the fast path alone pairs such a field: the whole-field steps are never needed
        patch.setattr(swiss_module._Round, "whole", not_needed)
        by_brackets = pair_swiss_round(teams)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(swiss_module, "COMPLETE_GRAPH_UP_TO", len(teams))
        complete = pair_swiss_round(teams)

    assert tiers_of(teams, by_brackets) == tiers_of(teams, complete)
