"""Leagues for the tests: divisions and series events played out by score sheets, the
better seed winning every match, so that each final table is known in advance."""

from __future__ import annotations

from typing import Any

from tournaments import services
from tournaments.models import Division, Entry, League, Season, SeriesEvent, Team, Tournament

from .factories import TeamFactory, TournamentFactory, UserFactory


def played_out(tournament: Tournament, organiser: Any) -> Tournament:
    """Every round paired, published, its matches won by the team seeded better (it goes out
    every hand and the other keeps 50 points of cards: the lower total wins, R9.1), and
    completed: the tournament finishes with its teams placed in seed order."""
    seeds = dict(tournament.entries.values_list("team_id", "seed"))
    while tournament.status != Tournament.Status.FINISHED:
        round = services.round_pair_next(tournament=tournament, user=organiser)
        services.round_publish(round=round, user=organiser)
        for match in round.matches.filter(is_bye=False):
            home_wins = seeds[match.team_a_id] < seeds[match.team_b_id]
            services.match_submit_score_sheet(
                match=match, hand_scores=[[0, 50] if home_wins else [50, 0]] * 5,
                out_seats=[0 if home_wins else 1] * 5, user=organiser)
        services.round_complete(round=round, user=organiser)
        tournament.refresh_from_db()
    return tournament


def league_with_divisions(sizes: list[int], *, promote: int = 1, relegate: int = 1,
                          play: bool = True) -> tuple[League, Season, list[list[Team]], Any]:
    """A league whose first season has a round robin a division, ``sizes[i]`` teams in
    division i + 1 (seeded in the order returned), each played out unless ``play`` is off."""
    organiser = UserFactory()
    league = League.objects.create(name=f"League of {organiser.username}",
                                   slug=f"league-{organiser.pk}", promote=promote,
                                   relegate=relegate)
    league.organisers.add(organiser)
    season = Season.objects.create(league=league, number=1, name="Season 1")
    teams = []
    for level, size in enumerate(sizes, start=1):
        tournament = TournamentFactory(format=Tournament.Format.ROUND_ROBIN,
                                       organisers=[organiser])
        Division.objects.create(season=season, tournament=tournament, level=level)
        division = [TeamFactory() for _ in range(size)]
        for seed, team in enumerate(division, start=1):
            Entry.objects.create(tournament=tournament, team=team, seed=seed)
        teams.append(division)
        if play:
            played_out(tournament, organiser)
    return league, season, teams, organiser


def series_season(events: int, teams: list[Team], organiser: Any, *,
                  best_of: int | None = None) -> Season:
    """A series season of ``events`` round robins among ``teams`` (seeded in that order,
    then rotated one place each event), all played out."""
    league = League.objects.create(name=f"Series of {organiser.username}",
                                   slug=f"series-{organiser.pk}")
    league.organisers.add(organiser)
    season = Season.objects.create(league=league, number=1, name="Tuesdays",
                                   kind=Season.Kind.SERIES, place_points=[10, 6, 3],
                                   best_of=best_of)
    for number in range(events):
        tournament = TournamentFactory(format=Tournament.Format.ROUND_ROBIN,
                                       organisers=[organiser])
        order = teams[number % len(teams):] + teams[:number % len(teams)]
        for seed, team in enumerate(order, start=1):
            Entry.objects.create(tournament=tournament, team=team, seed=seed)
        SeriesEvent.objects.create(season=season, tournament=played_out(tournament, organiser))
    return season
