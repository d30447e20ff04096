"""What the round, result and league services tell people, and whom: each builds the
notifications of one step for ``notices.notify_each``, called in that step's transaction.
Each key names the event, so a step repeated tells nobody twice."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.urls import reverse

from tournaments.models import (
    Entry,
    Match,
    Notification,
    Player,
    Result,
    Round,
    Season,
    Seat,
    Team,
)
from tournaments.selectors.leagues import season_moves

from .notices import Notice, notify_each

Kind = Notification.Kind


def _round_params(round: Round) -> dict[str, object]:
    return {"tournament": round.tournament.name, "round": round.number}


def tables_ready(round: Round, matches: Iterable[Match]) -> None:
    """Each person seated at the round's new live tables: their table is ready, and where."""
    notices = []
    for match in matches:
        if match.live_table_id is None:
            continue
        params = {**_round_params(round),
                  "table": match.table.number if match.table is not None else "?"}
        link = reverse("live:table", args=[match.live_table_id])
        notices += [Notice(seat.player.user_id, Kind.TABLE_READY, f"table:{match.pk}",
                           params, link)
                    for seat in match.seats.all()
                    if seat.player is not None and seat.player.user_id is not None]
    notify_each(notices)


def seats_substituted(round: Round, seats: Iterable[tuple[int, int]]) -> None:
    """Each person whose seat a bot took: ``(match id, player id)`` pairs."""
    pairs = list(seats)
    users = dict(Player.objects.filter(pk__in={p for _m, p in pairs}, user__isnull=False)
                 .values_list("pk", "user_id"))
    tables = dict(Match.objects.filter(pk__in={m for m, _p in pairs})
                  .values_list("pk", "table__number"))
    notify_each(Notice(users[player], Kind.SUBSTITUTED, f"substituted:{match}",
                       {**_round_params(round), "table": tables.get(match) or "?"},
                       reverse("tournaments:match_detail", args=[match]))
                for match, player in pairs if player in users)


def seats_taken(round: Round, table_id: int, positions: Iterable[int]) -> None:
    """The people at ``positions`` of the match at live table ``table_id``: a bot plays
    their seats now (the director pinned it, or they were gone past the table's grace).
    Told once a match: a seat given back and taken again is no news."""
    seats = (Seat.objects.filter(match__live_table_id=table_id, position__in=list(positions),
                                 player__user__isnull=False)
             .select_related("player", "match__table").order_by("position"))
    link = reverse("live:table", args=[table_id])
    with transaction.atomic():
        notify_each(Notice(
            seat.player.user_id, Kind.SUBSTITUTED, f"substituted:{seat.match_id}",
            {**_round_params(round),
             "table": seat.match.table.number if seat.match.table is not None else "?"},
            link) for seat in seats if seat.player is not None and seat.player.user_id)


def _team_users(team: Team | None) -> list[int]:
    if team is None:
        return []
    return [user for user in Player.objects.filter(pk__in=[team.player_a_id, team.player_b_id])
            .values_list("user_id", flat=True) if user is not None]


def result_waits(result: Result, entering_side: int) -> None:
    """The other team's players: a result their opponents entered waits for them to
    confirm it (``entering_side``: 0 for team A, 1 for team B, the side that entered it)."""
    match = result.match
    entering, other = ((match.team_a, match.team_b) if entering_side == 0
                       else (match.team_b, match.team_a))
    notify_each(Notice(user, Kind.CONFIRM_RESULT, f"confirm:{result.pk}",
                       {**_round_params(match.round),
                        "team": entering.name if entering is not None else "?"},
                       reverse("tournaments:match_detail", args=[match.pk]))
                for user in _team_users(other))


def round_ended(round: Round, *, tournament_finished: bool) -> None:
    """The round's players: it ended; and, when it was the last, every player of the
    tournament: the tournament ended."""
    tournament = round.tournament
    users = set(Seat.objects.filter(round=round, player__user__isnull=False)
                .values_list("player__user_id", flat=True))
    notices = [Notice(user, Kind.ENDED, f"round-ended:{round.pk}",
                      {**_round_params(round), "what": "round"},
                      reverse("tournaments:round_detail", args=[tournament.pk, round.number]))
               for user in sorted(users)]
    if tournament_finished:
        pairs = Entry.objects.filter(tournament=tournament).values_list(
            "team__player_a__user_id", "team__player_b__user_id")
        everyone = {user for pair in pairs for user in pair if user is not None} | users
        notices += [Notice(user, Kind.ENDED, f"tournament-ended:{tournament.pk}",
                           {"tournament": tournament.name, "what": "tournament"},
                           reverse("tournaments:standings", args=[tournament.pk]))
                    for user in sorted(everyone)]
    notify_each(notices)


def divisions_changed(season: Season) -> None:
    """The players of each team whose division changed from the season before: up or
    down, and to which."""
    before = Season.objects.filter(league=season.league_id, number=season.number - 1).first()
    if before is None:
        return
    link = reverse("tournaments:season_detail", args=[season.league.slug, season.number])
    notices = []
    for move in season_moves(before, season):
        if move.before is None or move.after is None or move.before == move.after:
            continue
        params = {"team": move.team.name, "division": move.after, "season": season.name,
                  "league": season.league.name,
                  "direction": "up" if move.after < move.before else "down"}
        notices += [Notice(user, Kind.DIVISION, f"division:{season.pk}:{move.team.pk}",
                           params, link) for user in _team_users(move.team)]
    notify_each(notices)
