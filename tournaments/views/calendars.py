"""Calendar feeds (iCalendar, RFC 5545, written with the ``icalendar`` library): a
tournament's and a league's for anyone, and a person's own at a private address whose
secret they may replace (``/calendar/<token>.ics``, linked from their player page)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import CalendarKey, League, Tournament
from tournaments.selectors.calendars import (
    CalendarEvent,
    league_events,
    personal_events,
    tournament_events,
)
from tournaments.services.calendars import calendar_key_renew


def feed(request: HttpRequest, name: str, events: Iterable[CalendarEvent]) -> HttpResponse:
    import icalendar  # here, not with the module: every process loads the URLs' views

    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Push league//push-league//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    stamp = datetime.now(UTC)
    host = request.get_host()
    for item in events:
        event = icalendar.Event()
        event.add("uid", f"{item.uid}@{host}")
        event.add("dtstamp", stamp)
        event.add("summary", item.summary)
        event.add("dtstart", item.start)
        event.add("dtend", item.end)
        event.add("url", request.build_absolute_uri(item.path))
        if item.description:
            event.add("description", item.description)
        calendar.add_component(event)
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="calendar.ics"'
    return response


def tournament_calendar(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return feed(request, tournament.name, tournament_events(tournament))


def league_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    return feed(request, league.name, league_events(league))


def personal_calendar(request: HttpRequest, token: str) -> HttpResponse:
    key = CalendarKey.objects.select_related("user").filter(token=token).first()
    if key is None or not key.user.is_active:
        raise Http404(_("There is no calendar at this address (a newer one may have "
                        "replaced it)."))
    return feed(request, key.user.get_username(), personal_events(key.user))


@require_POST
@login_required(login_url=reverse_lazy("login"))
def calendar_renew(request: HttpRequest) -> HttpResponse:
    """A new secret for the user's calendar address: the old address answers nothing."""
    calendar_key_renew(user=request.user)
    player = getattr(request.user, "player", None)
    if player is None:
        return redirect("home")
    return redirect(f"{reverse_lazy('tournaments:player_detail', args=[player.pk])}#calendar")
