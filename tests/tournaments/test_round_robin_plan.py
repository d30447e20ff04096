"""A round robin's rounds still to come, re-planned after a draft swap changed who meets whom
(formats/round_robin_plan.py): every pair still meets exactly once a cycle, or the swap is
refused, saying why."""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.formats import Pairing, format_of
from tournaments.formats.draft import Draw, DrawTable, SeatSpec, Side, swap_teams
from tournaments.formats.round_robin import round_robin_schedule
from tournaments.formats.round_robin_plan import ScheduleError, meeting, plan_rest

from .test_format_registry import Data

BOTS = (SeatSpec(None), SeatSpec(None))


def draw_of(pairings: list[Pairing]) -> Draw:
    """A round's tables as the draft module edits them (byes have no table)."""
    return tuple(DrawTable(number, number, (Side(p.home, f"T{p.home}", BOTS),
                                            Side(p.away, f"T{p.away}", BOTS)))
                 for number, p in enumerate((p for p in pairings if p.away is not None), 1))


def round_of(draw: Draw, pairings: list[Pairing]) -> list[Pairing]:
    teams = [(table.sides[0].team, table.sides[1].team) for table in draw]
    return [Pairing(home, away) for home, away in teams if home is not None] + [
        p for p in pairings if p.is_bye]


def swapped(rounds: list[list[Pairing]], first: int, second: int) -> list[Pairing]:
    """The last of ``rounds`` with ``first`` and ``second`` trading places."""
    return round_of(swap_teams(draw_of(rounds[-1]), first, second), rounds[-1])


def check_every_pair_meets_once_a_cycle(teams: list[int], rounds: list[list[Pairing]]) -> None:
    n = len(teams)
    per_cycle = n - 1 + n % 2
    assert len(rounds) % per_cycle == 0
    for start in range(0, len(rounds), per_cycle):
        cycle = rounds[start:start + per_cycle]
        games = Counter(frozenset(p.teams) for r in cycle for p in r if p.away is not None)
        assert games == Counter(frozenset(pair) for pair in combinations(teams, 2))
        assert Counter(p.home for r in cycle for p in r if p.is_bye) == (
            Counter(teams) if n % 2 else Counter())
    for paired in rounds:
        assert sorted(team for p in paired for team in p.teams) == sorted(teams)


def test_without_a_swap_the_plan_is_the_circle() -> None:
    teams = list(range(1, 8))
    circle = round_robin_schedule(teams, cycles=2)
    for done in range(len(circle) + 1):
        assert plan_rest(teams, circle, circle[:done]) == circle[done:]


def test_a_swap_re_plans_the_rounds_to_come_so_the_swapped_pairs_meet_once() -> None:
    # six teams: round 1 is 1-6, 2-5, 3-4; swapping 1 and 2 pairs 2-6 and 1-5, which the
    # circle had due later, and parts 1-6 and 2-5, which it had now
    teams = list(range(1, 7))
    circle = round_robin_schedule(teams)
    first = swapped(circle[:1], 1, 2)
    assert {meeting(p) for p in first} == {frozenset(p) for p in ((2, 6), (1, 5), (3, 4))}

    plan = plan_rest(teams, circle, [first])

    check_every_pair_meets_once_a_cycle(teams, [first, *plan])
    sides = {meeting(p): p for r in circle for p in r}
    assert all(p == sides[meeting(p)] for r in plan for p in r)  # each pair's sides kept


def test_an_odd_field_keeps_one_bye_a_team() -> None:
    teams = list(range(1, 8))
    circle = round_robin_schedule(teams)
    tables = [p for p in circle[0] if p.away is not None]
    first = swapped(circle[:1], tables[0].home, tables[1].away)
    plan = plan_rest(teams, circle, [first])
    check_every_pair_meets_once_a_cycle(teams, [first, *plan])
    assert all(r[-1].is_bye for r in plan)  # the bye is listed last


def test_a_swap_that_pairs_teams_who_met_is_refused_naming_them() -> None:
    teams = list(range(1, 7))
    circle = round_robin_schedule(teams)
    home, away = circle[0][0].teams  # 1 and 6 met in round 1
    second = circle[1]
    table = next(p for p in second if home in p.teams)
    opponent = next(t for t in table.teams if t != home)  # 6 takes their place: 1 v 6
    edited = swapped([circle[0], second], opponent, away)
    assert frozenset((home, away)) in {meeting(p) for p in edited}
    with pytest.raises(ScheduleError,
                       match="^round 2 pairs two teams that met earlier in the cycle$") as error:
        plan_rest(teams, circle, [circle[0], edited])
    assert error.value.rematch == frozenset((home, away))


def test_a_swap_after_which_no_plan_exists_is_refused() -> None:
    # six teams, round 3 (1-4, 5-3, 2-6): 5-4 and 1-3 leave two rounds that cannot hold
    # the pairs left, each team once a round
    teams = list(range(1, 7))
    circle = round_robin_schedule(teams)
    assert {meeting(p) for p in circle[2]} == {frozenset(p) for p in ((1, 4), (5, 3), (2, 6))}
    edited = swapped(circle[:3], 1, 5)
    with pytest.raises(ScheduleError, match="^the pairs of teams that have not met yet cannot "
                       "be split into the 2 rounds left of the cycle, one meeting a team each "
                       "round$"):
        plan_rest(teams, circle, [*circle[:2], edited])


def test_the_last_round_of_a_cycle_is_checked_too() -> None:
    teams = list(range(1, 5))
    circle = round_robin_schedule(teams, cycles=2)
    tables = circle[2]
    last = swapped(circle[:3], tables[0].home, tables[1].home)
    with pytest.raises(ScheduleError, match="met earlier in the cycle"):
        plan_rest(teams, circle, [*circle[:2], last])


def test_a_field_that_changed_is_refused_so_the_format_keeps_its_circle() -> None:
    teams = list(range(1, 7))
    old = round_robin_schedule(teams)
    with pytest.raises(ScheduleError, match=re.escape(
            "round 1 is not a round of the teams still in (the field changed since)")):
        plan_rest(teams[:-1], round_robin_schedule(teams[:-1]), old[:2])
    four = teams[:4]  # as many rounds as six teams played, more than four teams have
    with pytest.raises(ScheduleError, match=re.escape(
            "there are more rounds than a round robin of the teams still in has (the field "
            "changed since)")):
        plan_rest(four, round_robin_schedule(four), old[:4])
    spec, data = format_of("round_robin"), Data(teams[:-1])
    data.paired = [list(r) for r in old[:2]]
    assert spec.pairings(data, 3) == [(None, p) for p in round_robin_schedule(teams[:-1])[2]]


@settings(max_examples=examples(120), deadline=None)
@given(n=st.integers(min_value=3, max_value=10), double=st.booleans(), data=st.data())
def test_after_any_accepted_swap_every_pair_meets_exactly_once(n: int, double: bool,
                                                               data: st.DataObject) -> None:
    """A tournament run through the format: each round's draft may be swapped (any two
    teams at different tables, now and again); a swap is taken when the format can re-plan
    after it, else refused. Whatever was taken, every pair meets exactly once a cycle, and
    the rounds paired after a swap are the plan made at the swap."""
    teams = list(range(101, 101 + n))
    spec = format_of("double_round_robin" if double else "round_robin")
    tournament = Data(teams)
    plan: list[list[Pairing]] = []
    for number in range(1, spec.rounds_total(tournament) + 1):
        draft = [p for _slot, p in spec.pairings(tournament, number)]
        if plan:  # the plan made at the last accepted swap is what is paired
            assert draft == plan.pop(0)
        at_tables = [team for p in draft if p.away is not None for team in p.teams]
        for _swap in range(data.draw(st.integers(min_value=0, max_value=2))):
            first, second = data.draw(st.lists(st.sampled_from(at_tables), min_size=2,
                                               max_size=2, unique=True))
            if any(set(p.teams) == {first, second} for p in draft):
                continue  # they play each other: the draft module refuses that swap
            edited = swapped([*tournament.paired, draft], first, second)
            try:
                plan = spec.replanned(tournament, [*tournament.paired, edited])
            except ScheduleError as refused:
                assert str(refused)
                continue
            draft = edited
        tournament.paired.append(draft)
    check_every_pair_meets_once_a_cycle(teams, tournament.paired)


def test_a_double_round_robin_re_plans_both_cycles() -> None:
    # a swap in round 1 re-plans every round still to come, the second cycle's too
    teams = list(range(1, 7))
    spec, data = format_of("double_round_robin"), Data(teams)
    first = swapped(round_robin_schedule(teams)[:1], 1, 2)

    plan = spec.replanned(data, [first])

    assert len(plan) == spec.rounds_total(data) - 1 == 9
    check_every_pair_meets_once_a_cycle(teams, [first, *plan])


def test_a_rounds_pairings_depend_only_on_the_rounds_before_it() -> None:
    # round 1 was swapped and rounds 2 and 3 paired on the plan made then: asked again for
    # round 2, the format answers from round 1 alone, not from the rounds drawn after it
    teams = list(range(1, 7))
    spec, data = format_of("round_robin"), Data(teams)
    data.paired = [swapped(round_robin_schedule(teams)[:1], 1, 2)]
    second = spec.pairings(data, 2)
    assert second != [(None, p) for p in round_robin_schedule(teams)[1]]  # the plan's
    data.paired.append([p for _slot, p in second])
    data.paired.append([p for _slot, p in spec.pairings(data, 3)])

    assert spec.pairings(data, 2) == second
