"""Player ratings from Push games: a pure function of results in order.

No Django here. Each game is a two-team match (two players a side) rated
with openskill's Plackett-Luce model at its default parameters. Only the
outcome counts (lower game total wins, equal totals are a tie), not the
margin. Ratings are derived data: `replay_ratings` rebuilds them from the
games in the order they were played, and gives the same answer every time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

Pair = tuple[int, int]
Game = tuple[Pair, Pair, tuple[int, int]]
"""(team0 players, team1 players, (team0 total, team1 total))."""

# Ratings are shown on the scale chess players know (Elo, Lichess), on the pages, in the
# admin and in the API alike (``Rating.scaled``, the only number shown): a new player at
# 1500, and 200 points between two players where the better wins about three games in four.
# In the model a skill difference of one beta (25/6) wins with probability
# Phi(1 / sqrt(2)), about 0.76, as 200 Elo points do; so one skill point is 48 points.
SCALE_NEW = 1500
SCALE_PER_SKILL = 200 / (25 / 6)

# Default parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300). The model is
# only read: `rate` mutates it solely when given `limit_sigma`, which we never pass.
_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """A player's skill belief: mean `mu` and uncertainty `sigma`."""

    mu: float
    sigma: float

    @property
    def scaled(self) -> int:
        """The rating on the familiar scale, as the site, the admin and the API show it:
        the mean skill, 1500 for a new player, moving up with wins and down with losses (a
        display only; nothing is computed from it)."""
        return round(SCALE_NEW + SCALE_PER_SKILL * (self.mu - _MODEL.mu))

    @property
    def deviation(self) -> int:
        """The uncertainty on the same scale (about 400 for a new player)."""
        return round(SCALE_PER_SKILL * self.sigma)

    def __str__(self) -> str:
        """The rating and its uncertainty as the admin lists them: ``1687 ± 96``."""
        return f"{self.scaled} ± {self.deviation}"


def default_rating() -> Rating:
    """A new player's rating: mu 25, sigma 25/3."""
    return Rating(mu=_MODEL.mu, sigma=_MODEL.sigma)


def rate_game(
    ratings: Mapping[int, Rating], team0: Pair, team1: Pair, totals: tuple[int, int]
) -> dict[int, Rating]:
    """The new ratings of the four players after one game.

    Players missing from `ratings` start at `default_rating()`. The team
    with the lower total wins; equal totals are a tie. Raises ValueError if
    the four players are not distinct.
    """
    players = (*team0, *team1)
    if len(set(players)) != 4:
        raise ValueError(f"a game needs four distinct players, got {team0} v {team1}")
    a, b = totals
    ranks = [0.0, 1.0] if a < b else [1.0, 0.0] if b < a else [0.0, 0.0]

    def model_rating(player: int) -> PlackettLuceRating:
        r = ratings.get(player, default_rating())
        return _MODEL.rating(mu=r.mu, sigma=r.sigma)

    teams = [[model_rating(p) for p in team0], [model_rating(p) for p in team1]]
    rated = _MODEL.rate(teams, ranks=ranks)
    new = [r for team in rated for r in team]
    return {p: Rating(mu=r.mu, sigma=r.sigma) for p, r in zip(players, new, strict=True)}


def replay_ratings(
    games: Iterable[Game], initial: Mapping[int, Rating] | None = None
) -> tuple[dict[int, Rating], dict[int, list[Rating]]]:
    """Rate `games` in order, from `initial` (default: everyone new).

    Returns the final ratings of every player seen (and every player in
    `initial`), and for each player who played, their rating after each of
    their games, oldest first, so `len(history[p])` is p's games played.
    """
    current: dict[int, Rating] = dict(initial or {})
    history: dict[int, list[Rating]] = {}
    for team0, team1, totals in games:
        updated = rate_game(current, team0, team1, totals)
        current.update(updated)
        for player, rating in updated.items():
            history.setdefault(player, []).append(rating)
    return current, history
