"""Standings and ratings: derived from results, rebuilt whole, so repeating is harmless."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Q

from config.users import RequestUser
from games.engine import team_of
from tournaments.models import (
    Entry,
    Match,
    Player,
    RatingEntry,
    Round,
    Standing,
    Tournament,
)
from tournaments.ratings import Rating, default_rating, rate_game
from tournaments.selectors import counted_results, rated_results
from tournaments.selectors.boards import BOT_TEAM, hidden_round_numbers, tournament_board_totals
from tournaments.standings import (
    MatchResult,
    StandingRow,
    StandingsRules,
    standings_by_round,
)

from . import webhooks
from .access import require_organiser
from .followups import ratings_later, standings_later

WINNERS = {"a": 0, "b": 1, "d": None}


def tournament_rules(tournament: Tournament) -> StandingsRules:
    """The tournament's scoring rule, its tie-breaks in order, and a duplicate tournament's
    main ranking (its matchpoints, Butler or cross-difference, ranked before points)."""
    return StandingsRules(tournament.scoring, tuple(tournament.tiebreaks),
                          main=tournament.duplicate or None)


def out_hands(out_seats: list[int | None]) -> tuple[int, int]:
    """The hands team a (the engine's team 0) and team b went out in (None: a hand nobody
    went out in). Stored on the result as ``out_a``, ``out_b``."""
    teams = [team_of(seat) for seat in out_seats if seat is not None]
    return teams.count(0), teams.count(1)


def tournament_results(tournament: Tournament) -> list[MatchResult]:
    """Every counted result (confirmed, and not left out for its bots' share,
    ``selectors.counted``) and every bye of the published rounds, as standings input. Read
    as plain values, whole numbers only: building 10,000 model instances, or decoding
    10,000 ``out_seats``, took longer than the standings.

    A duplicate round counts once its boards are no longer secret (``selectors.boards``),
    each result with its two teams' totals on the round's boards."""
    hidden = hidden_round_numbers(tournament)
    rows = [row for row in counted_results(tournament).values_list(
        "match__round__number", "match__team_a_id", "match__team_b_id",
        "total_a", "total_b", "out_a", "out_b", "winner") if row[0] not in hidden]
    boards = (tournament_board_totals(tournament, {row[0] for row in rows})
              if tournament.duplicate else {})
    results = [MatchResult(number, team_a, team_b or BOT_TEAM, (total_a, total_b),
                           (out_a, out_b), WINNERS[winner],
                           (boards.get((number, team_a)), boards.get((number, team_b or BOT_TEAM))))
               for number, team_a, team_b, total_a, total_b, out_a, out_b, winner in rows]
    for number, team in (Match.objects.filter(round__tournament=tournament, is_bye=True)
                         .exclude(round__status=Round.Status.DRAFT)
                         .values_list("round__number", "team_a_id")):
        results.append(MatchResult(number, team, None, None, (0, 0), None))
    return results


def standings_rebuild(*, tournament: Tournament, full: bool = True) -> int:
    """Recompute the current standings (round_number 0) and those after each completed
    round from the results, replacing what was stored. With ``full=False`` (after each new
    result) the tables of completed rounds already stored are kept: their results are
    final. Returns the number of rows written."""
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
        completed = set(tournament.rounds.filter(status=Round.Status.COMPLETE)
                        .values_list("number", flat=True))
        if not full:
            completed -= set(Standing.objects.filter(tournament=tournament)
                             .values_list("round_number", flat=True).distinct())
        # Every table in one pass over the results (what standings_after_round per round
        # would give, a test checks): a table per round from scratch took 30 times as long.
        tables = standings_by_round(teams, results, rules, [0, *completed])
        rows = [_row(tournament.pk, number, row, rank)
                for number, table in tables.items() for row, rank in _without_bot_team(table)]
        before = _current(tournament)
        Standing.objects.filter(tournament=tournament, round_number__in=tables).delete()
        written = _insert_standings(rows)
        if _current(tournament) != before:
            webhooks.standings_changed(tournament)
        return written


def _current(tournament: Tournament) -> list[tuple[Any, ...]]:
    """The current table's lines that count a match or a bye, as values, to tell whether a
    rebuild changed it: a first table of noughts is no change (else its rebuild, after a
    secret duplicate round's first result, would tell that a table had finished)."""
    return list(Standing.objects.filter(Q(played__gt=0) | Q(byes__gt=0),
                                        tournament=tournament, round_number=0)
                .order_by("team_id").values_list("team_id", "rank", "points", "played",
                                                  "values"))


def _without_bot_team(table: list[StandingRow]) -> list[tuple[StandingRow, int]]:
    """The table's rows less the house bot team, ranked again among the real teams."""
    rows = [row for row in table if row.team != BOT_TEAM]
    ranked: list[tuple[StandingRow, int]] = []
    for position, row in enumerate(rows, start=1):
        shared = ranked and ranked[-1][0].rank == row.rank
        ranked.append((row, ranked[-1][1] if shared else position))
    return ranked


_STANDING_FIELDS = ("tournament_id", "round_number", "team_id", "rank", "points", "played",
                    "wins", "draws", "losses", "byes", "values")


def _row(tournament: int, number: int, row: StandingRow, rank: int) -> tuple[Any, ...]:
    """A ``Standing`` as the values of ``_STANDING_FIELDS``."""
    return (tournament, number, row.team, rank, row.points, row.played, row.wins, row.draws,
            row.losses, row.byes, row.values)


def _insert_standings(rows: list[tuple[Any, ...]]) -> int:
    """Store the rows; returns how many. On PostgreSQL with COPY: ``bulk_create`` spent
    most of a full rebuild (20,000 rows) building and preparing model instances, and
    multi-row INSERTs of plain values were no faster; COPY took a tenth of the time."""
    if connection.vendor != "postgresql":
        Standing.objects.bulk_create(
            Standing(**dict(zip(_STANDING_FIELDS, (*row[:4], Decimal(str(row[4])), *row[5:]),
                                strict=True))) for row in rows)
        return len(rows)
    quote = connection.ops.quote_name
    column = {field.attname: field.column for field in Standing._meta.concrete_fields
              if field.column}
    columns = ", ".join(quote(column[name]) for name in _STANDING_FIELDS)
    with (connection.cursor() as cursor,
          cursor.cursor.copy(f"COPY {quote(Standing._meta.db_table)} ({columns}) FROM STDIN")
          as copy):
        copy.write("".join(_copy_line(row) for row in rows))
    return len(rows)


def _copy_line(row: tuple[Any, ...]) -> str:
    """One row in COPY's text format: numbers as Python writes them (``repr`` of a float is
    also JSON's), the tie-breaks as a JSON object. Nothing here needs escaping: the keys are
    registered tie-break names, the values numbers."""
    values = ", ".join(f'"{key}": {value!r}' for key, value in row[-1].items())
    return "\t".join(map(str, row[:-1])) + "\t{" + values + "}\n"


def standings_recalculate(*, tournament: Tournament, user: RequestUser | None = None) -> None:
    """An organiser's request to rebuild every stored table of the tournament (those after
    completed rounds too), done in the background."""
    if user is not None:
        require_organiser(user, tournament)
    standings_later(tournament.pk, full=True)


def ratings_recalculate(*, tournament: Tournament, user: RequestUser | None = None) -> None:
    """An organiser's request to rebuild every player's rating, done in the background.
    Ratings span every tournament; rebuilding them is harmless to repeat, so an organiser
    of any tournament (the one given) may ask."""
    if user is not None:
        require_organiser(user, tournament)
    ratings_later()


def ratings_rebuild() -> int:
    """Replay every counted result (``selectors.counted``) in the order it was stored and
    rewrite all players' ratings and rating history. A bot seat plays at a new player's
    rating and is not kept. Returns the number of games rated."""
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
    results = rated_results().order_by("id").prefetch_related("match__seats")
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
                                           mu=rating.mu, sigma=rating.sigma))
    return ratings, entries
