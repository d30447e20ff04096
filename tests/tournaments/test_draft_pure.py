"""Editing a draft draw by hand, as pure functions (tournaments/formats/draft.py): no
database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats.draft import (
    DraftError,
    Draw,
    DrawTable,
    SeatSpec,
    Side,
    check_draw,
    kept_apart_warnings,
    meetings,
    move_table,
    rematch_warnings,
    seat_position,
    swap_partners,
    swap_teams,
)


def side(team: int | None) -> Side:
    """Team ``team`` with players 10*team and 10*team+1; None is the house bot team."""
    if team is None:
        return Side(None, "bots", (SeatSpec(None, "greedy"), SeatSpec(None, "greedy")))
    return Side(team, f"T{team}", (SeatSpec(10 * team, name=f"P{10 * team}"),
                                   SeatSpec(10 * team + 1, name=f"P{10 * team + 1}")))


def draw(*pairs: tuple[int, int | None]) -> Draw:
    return tuple(DrawTable(100 + i, i, (side(a), side(b)))
                 for i, (a, b) in enumerate(pairs, start=1))


def teams_at(d: Draw) -> list[tuple[int | None, int | None]]:
    return [(t.sides[0].team, t.sides[1].team) for t in d]


def test_it_swaps_two_teams_with_their_players() -> None:
    swapped = swap_teams(draw((1, 2), (3, 4), (5, 6)), 1, 4)

    assert teams_at(swapped) == [(4, 2), (3, 1), (5, 6)]
    assert swapped[0].sides[0].seats == side(4).seats
    assert swapped[1].sides[1].seats == side(1).seats
    check_draw(swapped)


def test_it_swaps_a_team_playing_the_house_bots() -> None:
    swapped = swap_teams(draw((1, 2), (3, None)), 3, 2)

    assert teams_at(swapped) == [(1, 3), (2, None)]


def test_it_refuses_to_swap_teams_at_one_table_or_a_team_without_a_table() -> None:
    with pytest.raises(DraftError, match="play each other at table 1"):
        swap_teams(draw((1, 2), (3, 4)), 1, 2)
    with pytest.raises(DraftError, match="has no table"):
        swap_teams(draw((1, 2), (3, 4)), 1, 9)


def test_it_swaps_the_seats_of_one_team() -> None:
    swapped = swap_partners(draw((1, 2), (3, 4)), 102, 1)

    assert swapped[1].sides[1].seats == (side(4).seats[1], side(4).seats[0])
    assert swapped[1].sides[0] == side(3) and swapped[0] == draw((1, 2))[0]
    with pytest.raises(DraftError, match="house bot team"):
        swap_partners(draw((1, None)), 101, 1)
    with pytest.raises(DraftError, match="two teams"):
        swap_partners(draw((1, 2)), 101, 2)
    with pytest.raises(DraftError, match="no table"):
        swap_partners(draw((1, 2)), 999, 0)


def test_it_moves_a_table_and_renumbers_them_all() -> None:
    moved = move_table(draw((1, 2), (3, 4), (5, 6)), 103, 1)

    assert teams_at(moved) == [(5, 6), (1, 2), (3, 4)]
    assert [t.number for t in moved] == [1, 2, 3]
    with pytest.raises(DraftError, match="there is no table 4: this round has tables 1 to 3"):
        move_table(moved, 101, 4)
    with pytest.raises(DraftError, match="at table 2 already"):
        move_table(moved, 101, 2)


def test_it_refuses_a_player_twice_or_a_team_twice() -> None:
    twice = (DrawTable(1, 1, (side(1), side(2))),
             DrawTable(2, 2, (side(3), Side(4, "T4", (SeatSpec(10, name="P10"),
                                                      SeatSpec(41))))))
    with pytest.raises(DraftError, match="P10 would sit twice in this round "
                                         r"\(tables 1 and 2\); a player plays once a round"):
        check_draw(twice)
    with pytest.raises(DraftError, match=r"T1 would play twice in this round \(tables 1 and 2"):
        check_draw(draw((1, 2), (1, 3)))


def test_it_warns_of_pairs_that_met_before_or_are_due_to_meet() -> None:
    before = draw((1, 2), (3, 4))
    after = swap_teams(before, 2, 4)  # 1 v 4 and 3 v 2

    warnings = rematch_warnings(before, after, {frozenset((1, 4)): [2, 1]},
                                {frozenset((2, 3)): [5]})

    assert warnings == ["rematch: T1 and T4 already met in round 1, 2",
                        "rematch: T2 and T3 are also due to meet in round 5 of the schedule"]
    assert rematch_warnings(before, before, {frozenset((1, 2)): [1]}) == []  # not new


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 1)),
                max_size=12))
def test_any_sequence_of_edits_keeps_every_team_and_player_once(
        edits: list[tuple[int, int, int]]) -> None:
    current = draw((1, 2), (3, 4), (5, None), (7, 8))
    for first, second, kind in edits:
        table = current[first]
        try:
            if kind:
                current = swap_teams(current, table.sides[0].team or 0,
                                     current[second].sides[1].team or 0)
            else:
                current = move_table(current, table.match, second + 1)
        except DraftError:
            continue
        check_draw(current)
    players = sorted(seat.player for t in current for s in t.sides for seat in s.seats
                     if seat.player is not None)
    assert players == sorted(p for team in (1, 2, 3, 4, 5, 7, 8) for p in (10 * team,
                                                                           10 * team + 1))
    assert [t.number for t in current] == [1, 2, 3, 4]
    assert len(meetings(current)) == 3


def test_it_swaps_the_seats_of_team_a_leaving_team_b_as_it_was() -> None:
    swapped = swap_partners(draw((1, 2), (3, 4)), 101, 0)

    assert swapped[0].sides[0].seats == (side(1).seats[1], side(1).seats[0])
    assert swapped[0].sides[1] == side(2) and swapped[1] == draw((1, 2), (3, 4))[1]


def test_it_moves_a_table_to_the_last_place() -> None:
    moved = move_table(draw((1, 2), (3, 4), (5, 6)), 101, 3)

    assert teams_at(moved) == [(3, 4), (5, 6), (1, 2)]
    assert [t.number for t in moved] == [1, 2, 3]


def test_a_substitute_bot_in_a_first_seat_does_not_hide_the_second_seat() -> None:
    # a bot stands in for the first player; the second sits at another table too
    substituted = Side(3, "T3", (SeatSpec(None, "greedy", substitute=True),
                                 SeatSpec(10, name="P10")))
    twice = (DrawTable(1, 1, (side(1), side(2))), DrawTable(2, 2, (substituted, side(4))))

    with pytest.raises(DraftError, match="P10 would sit twice"):
        check_draw(twice)


def test_rematch_warnings_come_in_the_order_of_the_teams() -> None:
    before = draw((1, 2), (3, 4), (5, 6), (7, 8))
    after = draw((1, 8), (3, 6), (5, 4), (7, 2))
    met = {frozenset(pair): [1] for pair in ((1, 8), (3, 6), (4, 5), (2, 7))}

    warnings = rematch_warnings(before, after, met)

    assert warnings == [f"rematch: {a} and {b} already met in round 1"
                        for a, b in (("T1", "T8"), ("T2", "T7"), ("T3", "T6"), ("T4", "T5"))]


def test_it_warns_of_each_pair_to_keep_apart_an_edit_brings_together() -> None:
    before = draw((1, 2), (3, 4), (5, None))
    after = swap_teams(before, 2, 4)  # 1 v 4 and 3 v 2
    avoid = {frozenset((1, 4)), frozenset((2, 3)), frozenset((1, 2)), frozenset((4, 5))}

    assert kept_apart_warnings(before, after, avoid) == [
        "kept apart: T1 and T4 are a pairing the organiser asked to avoid",
        "kept apart: T2 and T3 are a pairing the organiser asked to avoid"]
    # 1 v 2 met in the draw already (the pairing made it so): an edit that leaves it
    # there, or any pair not to keep apart, says nothing
    assert kept_apart_warnings(before, before, avoid) == []
    assert kept_apart_warnings(before, after, {frozenset((1, 2))}) == []


def test_team_a_sits_in_seats_0_and_2_and_team_b_in_1_and_3() -> None:
    assert [seat_position(s, i) for s in (0, 1) for i in (0, 1)] == [0, 2, 1, 3]
