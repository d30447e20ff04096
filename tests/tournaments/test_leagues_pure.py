"""The pure league cores: a series' table of points per place and the moves between
divisions at the end of a season (tournaments.leagues)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.leagues import (
    DivisionResult,
    EventPlace,
    SeriesEvent,
    draft_moves,
    place_points,
    series_table,
)
from tournaments.leagues.divisions import LeagueError

POINTS = [Decimal(p) for p in (10, 7, 5, 3, 1)]


def event(key: int, *places: tuple[int, int, int]) -> SeriesEvent:
    """An event whose team ``t`` (players 10t and 10t+1) placed ``first``-``last``."""
    return SeriesEvent(key, tuple(EventPlace(team, (10 * team, 10 * team + 1), first, last)
                                  for team, first, last in places))


def test_shared_places_share_their_points_and_places_beyond_the_table_score_nothing() -> None:
    assert place_points(POINTS, 1, 1) == 10
    assert place_points(POINTS, 2, 3) == 6  # (7 + 5) / 2
    assert place_points(POINTS, 4, 7) == 1  # (3 + 1 + 0 + 0) / 4
    assert place_points(POINTS, 6, 6) == 0
    assert place_points(POINTS, 1, 3) == Decimal("7.33")  # rounded to two decimals
    with pytest.raises(ValueError):
        place_points(POINTS, 3, 2)


def test_the_table_adds_each_teams_points_over_the_events() -> None:
    table = series_table([event(1, (1, 1, 1), (2, 2, 2), (3, 3, 3)),
                          event(2, (2, 1, 1), (3, 2, 2), (1, 3, 3))], POINTS)
    assert [(line.key, line.rank, line.points) for line in table] == [
        (2, 1, Decimal(17)), (1, 2, Decimal(15)), (3, 3, Decimal(12))]
    assert [score.event for score in table[0].scores] == [1, 2]
    assert table[0].played == 2


def test_only_the_best_events_count_and_the_others_are_shown_dropped() -> None:
    events = [event(1, (1, 1, 1), (2, 2, 2)), event(2, (2, 1, 1), (1, 5, 5)),
              event(3, (1, 2, 2), (2, 3, 3))]
    table = {line.key: line for line in series_table(events, POINTS, best_of=2)}
    assert table[1].points == 17  # 10 and 7 count, 1 is dropped
    assert [score.counted for score in table[1].scores] == [True, False, True]
    assert table[2].points == 17  # 10 and 7; 5 dropped


def test_level_on_points_the_count_back_decides_then_the_rank_is_shared() -> None:
    # team 1: a first and a fifth (10 + 1); team 2: two fourths and a fourth... (3 + 3 + 5)
    events = [event(1, (1, 1, 1), (2, 4, 4), (3, 3, 3)),
              event(2, (1, 5, 5), (2, 4, 4), (3, 1, 1)),
              event(3, (2, 3, 3), (3, 5, 5))]
    table = series_table(events, POINTS)
    points = {line.key: line.points for line in table}
    assert points == {1: 11, 2: 11, 3: 16}
    assert [(line.key, line.rank) for line in table] == [(3, 1), (1, 2), (2, 3)]
    # the same places in another order: level on everything, the rank is shared
    twins = series_table([event(1, (1, 1, 1), (2, 2, 2)), event(2, (2, 1, 1), (1, 2, 2))],
                         POINTS)
    assert [line.rank for line in twins] == [1, 1]


def test_count_back_counts_every_place_down_to_the_deepest() -> None:
    # level on points and on firsts: the one with a third as well as a first ranks higher
    events = [event(1, (1, 1, 1), (2, 1, 1)), event(2, (2, 3, 3), (1, 4, 4)),
              event(3, (1, 3, 3))]
    points = [Decimal(5), Decimal(0), Decimal(1), Decimal(1)]
    table = series_table(events, points)
    assert [(line.key, line.points) for line in table] == [(1, 7), (2, 6)]
    events = [event(1, (1, 1, 1), (2, 1, 1)), event(2, (2, 3, 3), (1, 4, 4)),
              event(3, (1, 4, 4), (2, 4, 4))]
    table = series_table(events, [Decimal(5), Decimal(0), Decimal(1), Decimal(1)])
    assert [(line.key, line.points) for line in table] == [(2, 7), (1, 7)]


def test_a_player_scores_with_whichever_team_they_played_in() -> None:
    first = SeriesEvent(1, (EventPlace(1, (100, 101), 1, 1), EventPlace(2, (200, 201), 2, 2)))
    swapped = SeriesEvent(2, (EventPlace(3, (100, 200), 1, 1),
                              EventPlace(4, (101, 201), 2, 2)))
    table = {line.key: line.points for line in series_table([first, swapped], POINTS,
                                                            by="player")}
    assert table == {100: 20, 101: 17, 200: 17, 201: 14}


PLACES = st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=12)


@st.composite
def series(draw: st.DrawFn) -> list[SeriesEvent]:
    """Events of up to 12 teams out of 16, with places as a bracket or a table shares them."""
    events = []
    for key in range(draw(st.integers(min_value=1, max_value=5))):
        teams = draw(st.lists(st.integers(min_value=1, max_value=16), min_size=2,
                              max_size=12, unique=True))
        sizes = draw(st.lists(st.integers(min_value=1, max_value=4), min_size=len(teams),
                              max_size=len(teams)))
        places, first = [], 1
        index = 0
        while index < len(teams):
            group = teams[index:index + sizes[index]]
            places += [(team, first, first + len(group) - 1) for team in group]
            first += len(group)
            index += len(group)
        events.append(event(key, *places))
    return events


@settings(max_examples=examples(200), deadline=None)
@given(events=series(), best_of=st.none() | st.integers(min_value=1, max_value=5),
       points=st.lists(st.integers(min_value=0, max_value=30), max_size=10))
def test_a_series_table_is_the_sum_of_its_counted_events(
        events: list[SeriesEvent], best_of: int | None, points: list[int]) -> None:
    table_points = [Decimal(p) for p in sorted(points, reverse=True)]
    table = series_table(events, table_points, best_of)
    played = Counter(place.team for e in events for place in e.places)
    assert {line.key for line in table} == set(played)
    for line in table:
        assert line.played == played[line.key]
        counted = [score for score in line.scores if score.counted]
        assert len(counted) == min(line.played, best_of or line.played)
        assert line.points == sum((score.points for score in counted), Decimal(0))
        dropped = [score.points for score in line.scores if not score.counted]
        assert all(d <= c.points for d in dropped for c in counted)  # the best count
    ranks = [line.rank for line in table]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    for before, after in zip(table, table[1:], strict=False):
        assert before.points >= after.points
        # a shared rank only between teams level on points
        assert after.rank == before.rank or after.rank == table.index(after) + 1
        if after.rank == before.rank:
            assert after.points == before.points
    # shared places never create points: an event gives out what its places are worth
    for e in events:
        given_out = sum(place_points(table_points, p.first, p.last) for p in e.places)
        worth = sum(place_points(table_points, n, n) for n in range(1, len(e.places) + 1))
        assert abs(given_out - worth) <= Decimal("0.01") * len(e.places)


def division(level: int, *ranking: int, places: int | None = None) -> DivisionResult:
    return DivisionResult(level, ranking, len(ranking) if places is None else places)


def levels(moves: list) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for move in moves:
        out.setdefault(move.level, []).append(move.team)
    return out


def test_the_top_go_up_and_the_bottom_go_down_one_division() -> None:
    moves = draft_moves([division(1, 1, 2, 3, 4, 5, 6), division(2, 7, 8, 9, 10, 11, 12),
                         division(3, 13, 14, 15, 16, 17, 18)], promote=2, relegate=2)
    assert levels(moves) == {1: [1, 2, 3, 4, 7, 8], 2: [5, 6, 9, 10, 13, 14],
                             3: [11, 12, 15, 16, 17, 18]}
    kinds = {move.team: (move.came_from, move.kind) for move in moves}
    assert kinds[7] == (2, "up") and kinds[5] == (1, "down") and kinds[1] == (1, "stays")
    assert kinds[11] == (2, "down") and kinds[13] == (3, "up")


def test_a_withdrawn_teams_place_goes_to_the_best_staying_team_below() -> None:
    # team 3 withdrew from division 1 (six places, five teams left)
    moves = draft_moves([division(1, 1, 2, 4, 5, 6, places=6),
                         division(2, 7, 8, 9, 10, 11, 12)], promote=2, relegate=2,
                        newcomers=[20])
    assert levels(moves) == {1: [1, 2, 4, 7, 8, 9], 2: [5, 6, 10, 11, 12, 20]}
    assert {move.team: move.kind for move in moves}[9] == "filled"
    assert {move.team: move.kind for move in moves}[20] == "new"


def test_a_gap_filled_from_below_is_filled_in_turn_division_by_division() -> None:
    moves = draft_moves([division(1, 1, 2, 3, places=4), division(2, 4, 5, 6, 7),
                         division(3, 8, 9, 10, 11)], promote=1, relegate=1, newcomers=[12])
    assert levels(moves) == {1: [1, 2, 4, 5], 2: [3, 6, 8, 9], 3: [7, 10, 11, 12]}


def test_a_small_division_promotes_before_it_relegates() -> None:
    moves = draft_moves([division(1, 1, 2), division(2, 3, 4), division(3, 5)],
                        promote=2, relegate=2)
    # division 2 (two teams) sends both up and none down; division 1 sends both down
    assert levels(moves) == {1: [3, 4], 2: [1, 2, 5]}
    assert {move.team: move.kind for move in moves} == {1: "down", 2: "down", 3: "up",
                                                        4: "up", 5: "up"}


def test_a_team_in_two_divisions_or_two_levels_alike_is_refused() -> None:
    with pytest.raises(LeagueError, match="two divisions"):
        draft_moves([division(1, 1, 2), division(2, 2, 3)], promote=1, relegate=1)
    with pytest.raises(LeagueError, match="level 1"):
        draft_moves([division(1, 1, 2), division(1, 3, 4)], promote=1, relegate=1)
    with pytest.raises(LeagueError, match="no division"):
        draft_moves([], promote=1, relegate=1)


@st.composite
def league(draw: st.DrawFn) -> tuple[list[DivisionResult], list[int], int, int]:
    count = draw(st.integers(min_value=1, max_value=4))
    teams = iter(range(1, 1000))
    divisions = []
    for level in range(1, count + 1):
        size = draw(st.integers(min_value=0, max_value=10))
        withdrawn = draw(st.integers(min_value=0, max_value=2))
        divisions.append(DivisionResult(level, tuple(next(teams) for _ in range(size)),
                                        size + withdrawn))
    newcomers = [next(teams) for _ in range(draw(st.integers(min_value=0, max_value=4)))]
    return (divisions, newcomers, draw(st.integers(min_value=0, max_value=4)),
            draw(st.integers(min_value=0, max_value=4)))


@settings(max_examples=examples(300), deadline=None)
@given(case=league())
def test_every_team_still_in_has_one_place_one_division_from_its_last(
        case: tuple[list[DivisionResult], list[int], int, int]) -> None:
    divisions, newcomers, promote, relegate = case
    moves = draft_moves(divisions, promote=promote, relegate=relegate, newcomers=newcomers)
    ranked = [team for d in divisions for team in d.ranking]
    assert Counter(move.team for move in moves) == Counter(ranked + newcomers)
    place = {team: (d.level, d.ranking.index(team)) for d in divisions for team in d.ranking}
    bottom = max(d.level for d in divisions)
    for move in moves:
        if move.kind == "new":
            assert move.came_from is None and move.level == bottom
            continue
        assert move.came_from == place[move.team][0]
        step = {"down": 1, "stays": 0, "up": -1, "filled": -1}[move.kind]
        assert move.level == move.came_from + step
    by_level = levels(moves)
    for d in divisions:
        up = [m for m in moves if m.came_from == d.level and m.kind == "up"]
        down = [m for m in moves if m.came_from == d.level and m.kind == "down"]
        assert len(up) == (min(promote, len(d.ranking)) if d.level > 1 else 0)
        assert len(down) <= relegate and (d.level < bottom or not down)
        # the best go up, the worst go down
        assert all(place[m.team][1] < promote for m in up)
        if down:
            assert max(place[m.team][1] for m in down) == len(d.ranking) - 1
        # a division short of its places has taken every staying team below it
        below = [m for m in moves if m.came_from == d.level + 1 and m.kind == "stays"]
        if d.level < bottom and len(by_level.get(d.level, [])) < d.places:
            assert not below
