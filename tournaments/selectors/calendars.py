"""What the calendar feeds hold: a tournament's days, a league's tournaments, and a person's
tournaments and open tables. Times only: a calendar shows when, never a result, so it
needs nothing of the games' visibility beyond what a tournament's page shows anyone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.db.models import Q, QuerySet
from django.urls import reverse

from config.users import RequestUser
from tournaments.models import CalendarKey, League, Tournament

from .leagues import visible_seasons
from .online import your_tables


@dataclass(frozen=True)
class CalendarEvent:
    """One event: all day (``date``s, ``end`` the day after the last) or timed (``datetime``s,
    in UTC). ``uid`` stays the same as the event changes, so a calendar updates it."""

    uid: str
    summary: str
    start: date | datetime
    end: date | datetime
    path: str  # the page that tells more, on this site
    description: str = ""


def _days(tournament: Tournament) -> CalendarEvent | None:
    if tournament.starts_on is None:
        return None
    last = tournament.ends_on or tournament.starts_on
    return CalendarEvent(f"tournament-{tournament.pk}", tournament.name, tournament.starts_on,
                         last + timedelta(days=1),
                         reverse("tournaments:tournament_detail", args=[tournament.pk]))


def tournament_events(tournament: Tournament) -> list[CalendarEvent]:
    return [event for event in (_days(tournament),) if event is not None]


def league_tournaments(league: League) -> QuerySet[Tournament]:
    """The tournaments of the league's public seasons (its divisions and its events)."""
    seasons = visible_seasons(None).filter(league=league)
    return Tournament.objects.filter(Q(division__season__in=seasons)
                                     | Q(series_event__season__in=seasons)).distinct()


def league_events(league: League) -> list[CalendarEvent]:
    return [event for t in league_tournaments(league).order_by("starts_on", "pk")
            if (event := _days(t)) is not None]


def personal_events(user: RequestUser) -> list[CalendarEvent]:
    """``user``'s tournaments not finished (their player's teams are entered) and the live
    tables they hold a seat at now."""
    events: list[CalendarEvent] = []
    player = getattr(user, "player", None)
    if player is not None:
        teams = Q(entries__team__player_a=player) | Q(entries__team__player_b=player)
        for tournament in (Tournament.objects.filter(teams).exclude(
                status=Tournament.Status.FINISHED).distinct().order_by("starts_on", "pk")):
            if (event := _days(tournament)) is not None:
                events.append(event)
    for table in your_tables(user):
        started = table.started.astimezone(UTC)
        events.append(CalendarEvent(
            f"table-{table.table_id}", str(table.match), started, started + timedelta(hours=1),
            reverse("live:table", args=[table.table_id]),
            str(table.match.round.tournament)))
    return events


def calendar_key(user: RequestUser) -> CalendarKey | None:
    """``user``'s calendar secret, if they made one."""
    if not user.is_authenticated:
        return None
    return CalendarKey.objects.filter(user_id=user.pk).first()
