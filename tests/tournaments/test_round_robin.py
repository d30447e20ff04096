"""Round robin by the circle method: pairs, byes, cycles and sides."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.formats import Pairing, PairingError
from tournaments.formats.round_robin import (
    round_robin_round,
    round_robin_round_count,
    round_robin_schedule,
)

TEAM_IDS = st.lists(st.integers(min_value=1, max_value=10**6), min_size=2, max_size=40, unique=True)


def games(rounds: list[list[Pairing]]) -> Counter[frozenset[int]]:
    return Counter(frozenset(p.teams) for r in rounds for p in r if p.away is not None)


def byes(rounds: list[list[Pairing]]) -> Counter[int]:
    return Counter(p.home for r in rounds for p in r if p.is_bye)


@settings(max_examples=examples(60), deadline=None)
@given(ids=TEAM_IDS, cycles=st.integers(min_value=1, max_value=2))
def test_it_meets_every_pair_exactly_once_per_cycle(ids: list[int], cycles: int) -> None:
    n = len(ids)
    schedule = round_robin_schedule(ids, cycles=cycles)
    per_cycle = n - 1 + n % 2
    assert len(schedule) == per_cycle * cycles == round_robin_round_count(n, cycles=cycles)
    for c in range(cycles):
        cycle = schedule[c * per_cycle : (c + 1) * per_cycle]
        assert games(cycle) == Counter(frozenset(pair) for pair in combinations(ids, 2))
        assert byes(cycle) == (Counter(ids) if n % 2 else Counter())
    for pairings in schedule:
        seen = [team for p in pairings for team in p.teams]
        assert sorted(seen) == sorted(ids)  # everyone, once, every round
        assert sum(p.is_bye for p in pairings) == n % 2
        assert not any(p.against_bot for p in pairings)


@pytest.mark.parametrize("n", range(2, 41))
def test_it_covers_every_field_size_from_2_to_40(n: int) -> None:
    ids = list(range(100, 100 + n))
    schedule = round_robin_schedule(ids)
    assert max(games(schedule).values()) == 1
    assert len(games(schedule)) == n * (n - 1) // 2
    assert byes(schedule) == (Counter(ids) if n % 2 else Counter())
    home = Counter(p.home for r in schedule for p in r if p.away is not None)
    played = n - 1
    assert all(played // 2 <= home[t] <= (played + 1) // 2 for t in ids)  # sides balanced


@pytest.mark.parametrize("n", [2, 5, 8, 11])
def test_it_swaps_home_and_away_in_the_second_cycle(n: int) -> None:
    ids = list(range(1, n + 1))
    schedule = round_robin_schedule(ids, cycles=2)
    half = len(schedule) // 2
    for first, second in zip(schedule[:half], schedule[half:], strict=True):
        assert [(p.away, p.home) for p in first if p.away is not None] == [
            (p.home, p.away) for p in second if p.away is not None
        ]
        assert [p for p in first if p.is_bye] == [p for p in second if p.is_bye]
    assert all(count == 2 for count in games(schedule).values())
    sides = Counter((p.home, p.away) for r in schedule for p in r if p.away is not None)
    assert set(sides.values()) == {1}  # each ordered pair once: home once, away once


@settings(max_examples=examples(40), deadline=None)
@given(ids=TEAM_IDS, cycles=st.integers(min_value=1, max_value=3), data=st.data())
def test_it_gives_round_k_alone_equal_to_the_schedule(
    ids: list[int], cycles: int, data: st.DataObject
) -> None:
    schedule = round_robin_schedule(ids, cycles=cycles)
    k = data.draw(st.integers(min_value=1, max_value=len(schedule)))
    assert round_robin_round(ids, k, cycles=cycles) == schedule[k - 1]


def test_it_pairs_round_one_by_seed() -> None:
    assert round_robin_round([1, 2, 3, 4, 5, 6], 1) == [
        Pairing(1, 6), Pairing(2, 5), Pairing(4, 3)
    ]
    # Odd field: the lowest seed has the first bye, listed last.
    assert round_robin_round([1, 2, 3, 4, 5], 1) == [Pairing(1, 4), Pairing(3, 2), Pairing(5)]


def test_it_respects_the_given_seed_order() -> None:
    assert round_robin_schedule([3, 1, 2, 4]) != round_robin_schedule([1, 2, 3, 4])
    assert round_robin_schedule([3, 1, 2, 4]) == round_robin_schedule([3, 1, 2, 4])


def test_it_alternates_sides_with_at_most_one_break() -> None:
    schedule = round_robin_schedule(list(range(12)))
    for team in range(12):
        sides = "".join("H" if p.home == team else "A"
                        for r in schedule for p in r if team in p.teams)
        assert sum(a == b for a, b in zip(sides, sides[1:], strict=False)) <= 1


@pytest.mark.parametrize(
    ("ids", "kwargs", "message"),
    [
        ([1], {}, "at least 2 teams"),
        ([1, 2, 1], {}, "team 1 is entered twice"),
        ([1, 2, 3], {"cycles": 0}, "at least one cycle"),
    ],
)
def test_it_rejects_impossible_schedules(
    ids: list[int], kwargs: dict[str, int], message: str
) -> None:
    with pytest.raises(PairingError, match=message):
        round_robin_schedule(ids, **kwargs)


@pytest.mark.parametrize("k", [0, 4, -1])
def test_it_rejects_a_round_that_does_not_exist(k: int) -> None:
    with pytest.raises(PairingError, match="does not exist"):
        round_robin_round([1, 2, 3, 4], k)


@pytest.mark.parametrize("n", [3, 4])
def test_further_cycles_keep_alternating_home_and_away(n: int) -> None:
    ids = list(range(1, n + 1))
    first = round_robin_schedule(ids)
    per_cycle = len(first)
    for number in range(1, 4 * per_cycle + 1):
        cycle, index = divmod(number - 1, per_cycle)
        expected = [Pairing(p.away, p.home) if cycle % 2 and p.away is not None else p
                    for p in first[index]]
        assert round_robin_round(ids, number, cycles=4) == expected, number
        assert round_robin_schedule(ids, cycles=4)[number - 1] == expected, number
