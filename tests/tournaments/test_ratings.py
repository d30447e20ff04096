"""Player ratings (tournaments/ratings.py): openskill over 2-v-2 games, no database."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.ratings import Game, Rating, default_rating, rate_game, replay_ratings

NEW = default_rating()


def test_a_new_player_starts_at_mu_25_and_shows_1500() -> None:
    assert (NEW.mu, NEW.sigma) == pytest.approx((25.0, 25.0 / 3))
    assert (NEW.scaled, NEW.deviation) == (1500, 400)
    assert str(NEW) == "1500 ± 400"


@pytest.mark.parametrize(
    ("totals", "winners", "losers"), [((50, 80), (1, 2), (3, 4)), ((90, 40), (3, 4), (1, 2))]
)
def test_the_lower_total_wins_winners_go_up_and_losers_down(
    totals: tuple[int, int], winners: tuple[int, int], losers: tuple[int, int]
) -> None:
    new = rate_game({}, (1, 2), (3, 4), totals)

    assert sorted(new) == [1, 2, 3, 4]
    for p in winners:
        assert new[p].mu > NEW.mu and new[p].scaled > NEW.scaled
    for p in losers:
        assert new[p].mu < NEW.mu
    for p in new:
        assert new[p].sigma < NEW.sigma


def test_a_draw_between_equal_teams_changes_little() -> None:
    drawn = rate_game({}, (1, 2), (3, 4), (60, 60))
    won = rate_game({}, (1, 2), (3, 4), (50, 60))

    for p in (1, 2, 3, 4):
        assert drawn[p].mu == pytest.approx(NEW.mu, abs=1e-9)
        assert abs(drawn[p].scaled - NEW.scaled) < abs(won[p].scaled - NEW.scaled)


def test_a_draw_moves_the_weaker_team_up_and_the_stronger_down() -> None:
    strong = Rating(mu=35.0, sigma=4.0)
    drawn = rate_game({1: strong, 2: strong}, (1, 2), (3, 4), (60, 60))

    assert drawn[1].mu < strong.mu and drawn[3].mu > NEW.mu


def test_existing_ratings_are_used_and_not_changed() -> None:
    ratings = {1: Rating(30.0, 5.0), 3: Rating(20.0, 6.0)}
    before = dict(ratings)
    new = rate_game(ratings, (1, 2), (3, 4), (10, 20))

    assert ratings == before
    assert new[1].mu > 30.0 and new[3].mu < 20.0
    assert new[1].sigma < 5.0


def test_a_game_needs_four_distinct_players() -> None:
    with pytest.raises(ValueError, match="four distinct players"):
        rate_game({}, (1, 2), (2, 3), (10, 20))


GAMES: list[Game] = [
    ((1, 2), (3, 4), (40, 90)),
    ((1, 3), (2, 5), (70, 70)),
    ((5, 4), (1, 2), (20, 55)),
    ((2, 3), (4, 6), (100, 35)),
]


def test_replay_gives_the_same_ratings_as_rating_game_by_game() -> None:
    ratings: dict[int, Rating] = {}
    for team0, team1, totals in GAMES:
        ratings.update(rate_game(ratings, team0, team1, totals))

    final, _ = replay_ratings(GAMES)

    assert final == ratings
    assert replay_ratings(GAMES) == replay_ratings(iter(GAMES))


def test_history_has_one_rating_per_game_played_ending_at_the_final_rating() -> None:
    final, history = replay_ratings(GAMES)

    played = {p: sum(p in (*t0, *t1) for t0, t1, _ in GAMES) for p in final}
    assert {p: len(h) for p, h in history.items()} == played == {1: 3, 2: 4, 3: 3, 4: 3, 5: 2, 6: 1}
    assert {p: h[-1] for p, h in history.items()} == final


def test_replay_starts_from_the_given_ratings() -> None:
    initial = {1: Rating(40.0, 3.0), 9: Rating(10.0, 2.0)}
    final, history = replay_ratings(GAMES[:1], initial=initial)

    assert final[9] == initial[9] and 9 not in history
    assert final[1] == rate_game(initial, (1, 2), (3, 4), (40, 90))[1]


players = st.integers(1, 8)


@st.composite
def games(draw: st.DrawFn) -> Game:
    a, b, c, d = draw(st.lists(players, min_size=4, max_size=4, unique=True))
    return (a, b), (c, d), (draw(st.integers(0, 150)), draw(st.integers(0, 150)))


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(games(), max_size=12))
def test_replay_is_deterministic_and_matches_step_by_step(played: list[Game]) -> None:
    final, history = replay_ratings(played)

    assert replay_ratings(played) == (final, history)
    step: dict[int, Rating] = {}
    for team0, team1, totals in played:
        step.update(rate_game(step, team0, team1, totals))
    assert step == final
    assert sum(len(h) for h in history.values()) == 4 * len(played)


def test_players_missing_from_the_ratings_start_as_new_players() -> None:
    # default_rating() is called during the game, not only when the module is imported
    new = Rating(mu=25.0, sigma=25 / 3)
    unrated = rate_game({}, (1, 2), (3, 4), (10, 20))

    assert unrated == rate_game(dict.fromkeys((1, 2, 3, 4), new), (1, 2), (3, 4), (10, 20))
    assert default_rating() == new
