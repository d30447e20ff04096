"""Standings and ratings: derived from results, rebuilt whole, so repeating is harmless."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction

from tournaments.models import (
    Entry,
    Match,
    Player,
    RatingEntry,
    Result,
    Round,
    Standing,
    Tournament,
)
from tournaments.ratings import Rating, default_rating, rate_game
from tournaments.standings import (
    MatchResult,
    StandingRow,
    StandingsRules,
    compute_standings,
    standings_after_round,
)

from .access import require_organiser
from .followups import ratings_later, standings_later

BOT_TEAM = 0  # the house bot team's id in the standings input; never a database id
WINNERS = {"a": 0, "b": 1, "d": None}


def tournament_rules(tournament: Tournament) -> StandingsRules:
    """The points as the Decimals they are stored as: the standings core turns them into
    exact fractions, where a float 0.1 would already be off."""
    return StandingsRules(tournament.points_win, tournament.points_draw,
                          tournament.points_loss, tournament.points_bye,
                          tuple(tournament.tiebreaks))


def tournament_results(tournament: Tournament) -> list[MatchResult]:
    """Every confirmed result and every bye of the published rounds, as standings input."""
    results = []
    for result in (Result.objects.filter(match__round__tournament=tournament, confirmed=True)
                   .select_related("match__round")):
        match = result.match
        out_a = sum(1 for seat in result.out_seats if seat is not None and seat % 2 == 0)
        out_b = sum(1 for seat in result.out_seats if seat is not None and seat % 2 == 1)
        totals = (result.total_a, result.total_b)
        results.append(MatchResult(match.round.number, match.team_a_id, match.team_b_id or BOT_TEAM,
                                   totals, (out_a, out_b), WINNERS[result.winner]))
    for match in (Match.objects.filter(round__tournament=tournament, is_bye=True)
                  .exclude(round__status=Round.Status.DRAFT).select_related("round")):
        results.append(MatchResult(match.round.number, match.team_a_id, None, None, (0, 0), None))
    return results


def standings_rebuild(*, tournament: Tournament, full: bool = True) -> list[Standing]:
    """Recompute the current standings (round_number 0) and those after each completed
    round from the results, replacing what was stored. With ``full=False`` (after each new
    result) the tables of completed rounds already stored are kept: their results are
    final. Returns the rows written."""
    with transaction.atomic():
        # One rebuild per tournament at a time, each reading the results as they are once
        # it holds the lock: two at once would both delete and both insert.
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        results = tournament_results(tournament)
        teams = list(Entry.objects.filter(tournament=tournament)
                     .values_list("team_id", flat=True))
        if any(r.team_b == BOT_TEAM for r in results):
            teams.append(BOT_TEAM)
        rules = tournament_rules(tournament)
        tables = {0: compute_standings(teams, results, rules)}
        completed = set(tournament.rounds.filter(status=Round.Status.COMPLETE)
                        .values_list("number", flat=True))
        if not full:
            completed -= set(Standing.objects.filter(tournament=tournament)
                             .values_list("round_number", flat=True))
        for number in completed:
            tables[number] = standings_after_round(teams, results, rules, number)
        rows = [_row(tournament, number, row, rank)
                for number, table in tables.items() for row, rank in _without_bot_team(table)]
        Standing.objects.filter(tournament=tournament, round_number__in=tables).delete()
        return Standing.objects.bulk_create(rows)


def _without_bot_team(table: list[StandingRow]) -> list[tuple[StandingRow, int]]:
    """The table's rows less the house bot team, ranked again among the real teams."""
    rows = [row for row in table if row.team != BOT_TEAM]
    ranked: list[tuple[StandingRow, int]] = []
    for position, row in enumerate(rows, start=1):
        shared = ranked and ranked[-1][0].rank == row.rank
        ranked.append((row, ranked[-1][1] if shared else position))
    return ranked


def _row(tournament: Tournament, number: int, row: StandingRow, rank: int) -> Standing:
    return Standing(tournament=tournament, round_number=number, team_id=row.team, rank=rank,
                    points=Decimal(str(row.points)), played=row.played, wins=row.wins,
                    draws=row.draws, losses=row.losses, byes=row.byes, values=dict(row.values))


def standings_recalculate(*, tournament: Tournament, user: Any = None) -> None:
    """An organiser's request to rebuild every stored table of the tournament (those after
    completed rounds too), done in the background."""
    if user is not None:
        require_organiser(user, tournament)
    standings_later(tournament.pk, full=True)


def ratings_recalculate(*, tournament: Tournament, user: Any = None) -> None:
    """An organiser's request to rebuild every player's rating, done in the background.
    Ratings span every tournament; rebuilding them is harmless to repeat, so an organiser
    of any tournament (the one given) may ask."""
    if user is not None:
        require_organiser(user, tournament)
    ratings_later()


def ratings_rebuild() -> int:
    """Replay every confirmed result in the order it was stored and rewrite all players'
    ratings and rating history. A bot seat plays at a new player's rating and is not kept.
    Returns the number of games rated."""
    with transaction.atomic():
        # Locking every player serialises rebuilds: each replays all results it can see.
        players = list(Player.objects.select_for_update().order_by("pk"))
        ratings, entries = _replay_ratings()
        RatingEntry.objects.all().delete()
        RatingEntry.objects.bulk_create(entries)
        new = default_rating()
        for player in players:
            rating = ratings.get(player.pk, new)
            player.rating_mu, player.rating_sigma = rating.mu, rating.sigma
        Player.objects.bulk_update(players, ["rating_mu", "rating_sigma"])
    return len({e.match_id for e in entries})


def _replay_ratings() -> tuple[dict[int, Rating], list[RatingEntry]]:
    ratings: dict[int, Rating] = {}
    entries = []
    results = (Result.objects.filter(confirmed=True).order_by("id")
               .prefetch_related("match__seats"))
    for result in results:
        seats = sorted(result.match.seats.all(), key=lambda s: s.position)
        if len(seats) != 4:
            continue
        ids = [s.player_id if s.player_id is not None else -(4 * result.match_id + s.position)
               for s in seats]
        updated = rate_game(ratings, (ids[0], ids[2]), (ids[1], ids[3]),
                            (result.total_a, result.total_b))
        for player, rating in updated.items():
            if player > 0:
                ratings[player] = rating
                entries.append(RatingEntry(player_id=player, match_id=result.match_id,
                                           mu=rating.mu, sigma=rating.sigma,
                                           display=rating.display))
    return ratings, entries
