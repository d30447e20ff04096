"""Webhooks' reads: which subscriptions an event of a tournament goes to (one query, however
many there are), the deliveries due, and each event's ``data``: the tournament, round,
match, result and standings in the API's shapes (``api.serializers``, whose field names
these keep; the services may not import the API, so the few fields are written out here).

The ``data`` is the organisers' view: every subscriber organises the tournament (a
subscription stops counting when its organiser no longer does). It never holds a secret
duplicate round's results: ``services.webhooks`` holds those events back until the round's
boards are shown (``visibility.boards_hidden``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import Case, Q, QuerySet, When

from tournaments.models import (
    League,
    Match,
    Result,
    Round,
    Season,
    Tournament,
    WebhookDelivery,
    WebhookSubscription,
)

from .leagues import neighbour_season, season_moves
from .standings import standing_rows

#: the API's words for a result's winner
WINNERS = {"a": "a", "b": "b", "d": "draw"}


def webhook_subscribers(tournament_id: int) -> list[tuple[int, list[str]]]:
    """The active subscriptions told of ``tournament_id``'s events, with the events each
    wants: those of the tournament and those of all its organiser's tournaments, of an
    organiser (or superuser) who still organises it and whose account is active."""
    organisers = Tournament.organisers.through.objects.filter(
        tournament_id=tournament_id).values("user_id")
    return list(WebhookSubscription.objects.filter(
        Q(tournament_id=tournament_id) | Q(tournament__isnull=True),
        Q(organiser__is_superuser=True) | Q(organiser_id__in=organisers),
        active=True, organiser__is_active=True).values_list("pk", "events"))


def league_subscribers(league_id: int) -> list[tuple[int, list[str]]]:
    """The active subscriptions told of a league's events: those for every tournament of
    an organiser (or superuser) of the league whose account is active. (One limited to a
    tournament hears of that tournament alone.)"""
    organisers = League.organisers.through.objects.filter(league_id=league_id).values(
        "user_id")
    return list(WebhookSubscription.objects.filter(
        Q(organiser__is_superuser=True) | Q(organiser_id__in=organisers),
        tournament__isnull=True, active=True, organiser__is_active=True)
        .values_list("pk", "events"))


def season_data(season: Season) -> dict[str, Any]:
    """A season as the API's ``SeasonDetailSerializer`` shows it to its organisers: its
    divisions' tournaments and every team's move from the season before."""
    previous = neighbour_season(season, -1)
    moves = season_moves(previous, season) if previous else []
    divisions = season.divisions.select_related("tournament").order_by("level")
    return {"id": season.pk, "league": season.league_id, "number": season.number,
            "name": season.name, "kind": season.kind, "status": season.status,
            "divisions": [{"level": d.level, "tournament": tournament_data(d.tournament)}
                          for d in divisions],
            "moves": [{"team_id": m.team.pk, "team": m.team.name, "before": m.before,
                       "after": m.after, "kind": m.kind} for m in moves]}


def league_data(league: League) -> dict[str, Any]:
    return {"id": league.pk, "name": league.name, "slug": league.slug}


def webhooks_of(user_id: int | None) -> QuerySet[WebhookSubscription]:
    """A person's own subscriptions, newest first."""
    return (WebhookSubscription.objects.filter(organiser_id=user_id)
            .select_related("tournament"))


def dispatch_order(delivery_ids: Iterable[int]) -> list[int]:
    """The deliveries in the order to hand them to the workers: those of subscriptions
    failing now (their last attempts got no 2xx) last, the rest first, each by id. A
    receiver known to fail so waits behind the others: its refusals and timeouts never
    hold up a healthy receiver's delivery of the same event."""
    return list(WebhookDelivery.objects.filter(pk__in=list(delivery_ids))
                .order_by(Case(When(subscription__consecutive_failures__gt=0, then=1),
                               default=0), "pk")
                .values_list("pk", flat=True))


def deliveries_due(now: datetime, limit: int) -> list[int]:
    """The pending deliveries whose next attempt is due (at most ``limit``, oldest due
    first)."""
    return list(WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING,
                                               next_attempt__lte=now)
                .order_by("next_attempt").values_list("pk", flat=True)[:limit])


def tournament_data(tournament: Tournament) -> dict[str, Any]:
    return {"id": tournament.pk, "name": tournament.name, "format": tournament.format,
            "status": tournament.status}


def result_data(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"id": result.pk, "source": result.source, "totals": [result.total_a, result.total_b],
            "winner": WINNERS[result.winner], "confirmed": result.confirmed}


def match_data(match: Match) -> dict[str, Any]:
    """A match as the API's ``MatchSerializer`` shows it to its organisers (and the id of
    its live table, if it has one)."""
    def team(side: Any) -> dict[str, Any] | None:
        return None if side is None else {"id": side.pk, "name": side.name}
    return {"id": match.pk, "tournament": match.round.tournament_id, "round": match.round_id,
            "round_number": match.round.number,
            "table": match.table.number if match.table is not None else None,
            "team_a": team(match.team_a), "team_b": team(match.team_b),
            "is_bye": match.is_bye, "bot_opponent": match.bot_opponent,
            "status": match.status, "live_table": match.live_table_id,
            "result": result_data(getattr(match, "result", None))}


def _matches(filters: Q) -> QuerySet[Match]:
    return (Match.objects.filter(filters)
            .select_related("round", "table", "team_a", "team_b", "result")
            .order_by("table__number", "pk"))


def matches_data(match_ids: Iterable[int]) -> list[dict[str, Any]]:
    """Each match of ``match_ids`` (:func:`match_data`), by table, in one query."""
    return [match_data(match) for match in _matches(Q(pk__in=list(match_ids)))]


def round_data(round: Round) -> dict[str, Any]:
    """A round as the API's ``RoundDetailSerializer`` shows it, with its matches."""
    return {"id": round.pk, "tournament": round.tournament_id, "number": round.number,
            "status": round.status,
            "matches": [match_data(match) for match in _matches(Q(round=round))]}


def standings_data(tournament: Tournament, round_number: int = 0) -> dict[str, Any]:
    """The stored standings after ``round_number`` (0: the current ones), best first, each
    line as the API's standings show it, without the tie-breaks' values."""
    return {"after_round": round_number or None, "rows": [
        {"rank": row.rank, "team_id": row.team_id, "team": row.team.name,
         "points": float(row.points), "played": row.played, "wins": row.wins,
         "draws": row.draws, "losses": row.losses, "byes": row.byes}
        for row in standing_rows(tournament, round_number)]}
