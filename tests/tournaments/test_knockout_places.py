"""Final places of a knockout from its bracket: champion 1st, finalist 2nd, then each round's
losers share the places below everyone who went further (a third-place match splits 3-4)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.formats.base import Placing
from tournaments.formats.knockout import bracket_teams, final_places, knockout_bracket

from .test_knockout import play_out


def test_eight_teams_better_seeds_winning() -> None:
    bracket = knockout_bracket(list(range(1, 9)))
    places = final_places(bracket, play_out(bracket, pick=None))
    assert places == [Placing(1, 1, 1), Placing(2, 2, 2), Placing(3, 3, 4), Placing(4, 3, 4),
                      *(Placing(team, 5, 8) for team in (5, 6, 7, 8))]


def test_a_third_place_match_splits_third_and_fourth() -> None:
    bracket = knockout_bracket(list(range(1, 7)), third_place=True)
    winners = play_out(bracket, pick=None)  # the third-place match's home side (seed 3) wins
    assert final_places(bracket, winners) == [
        Placing(1, 1, 1), Placing(2, 2, 2), Placing(3, 3, 3), Placing(4, 4, 4),
        Placing(5, 5, 6), Placing(6, 5, 6)]  # byes for 1 and 2: two quarter-final losers


def test_nothing_is_placed_before_the_final_is_decided() -> None:
    bracket = knockout_bracket(list(range(1, 5)), third_place=True)
    winners = play_out(bracket, pick=None)
    assert final_places(bracket, {k: v for k, v in winners.items()
                                  if k != bracket.final.key}) == []
    assert final_places(bracket, {k: v for k, v in winners.items()
                                  if k != bracket.third_place.key}) == []


def test_two_teams_are_first_and_second() -> None:
    bracket = knockout_bracket([7, 3])
    assert final_places(bracket, {bracket.final.key: 3}) == [Placing(3, 1, 1), Placing(7, 2, 2)]


@settings(max_examples=examples(80), deadline=None)
@given(n=st.integers(min_value=2, max_value=70), seed=st.integers(0, 2**32),
       third=st.booleans())
def test_every_team_is_placed_once_below_everyone_who_went_further(n: int, seed: int,
                                                                  third: bool) -> None:
    bracket = knockout_bracket(list(range(1, n + 1)), third_place=third and n >= 4)
    winners = play_out(bracket, pick=random.Random(seed))
    places = final_places(bracket, winners)

    assert sorted(p.team for p in places) == list(range(1, n + 1))
    assert places[0].team == winners[bracket.final.key]
    for placing in places:  # a shared place spans exactly the teams sharing it
        sharing = [p for p in places if (p.first, p.last) == (placing.first, placing.last)]
        assert len(sharing) == placing.last - placing.first + 1
        assert sum(1 for p in places if p.last < placing.first) == placing.first - 1
    # a team placed above another went at least as far in the bracket
    slots = bracket_teams(bracket, winners)
    reached = {team: max(m.key[0] for r in bracket.rounds for m in r if team in slots[m.key])
               for team in range(1, n + 1)}
    for better, worse in zip(places, places[1:], strict=False):
        assert better.first <= worse.first and reached[better.team] >= reached[worse.team]
