"""Robot duplicate pages: the events, and an event's page (its window, the button that
starts your table, and once the window has closed and every table has finished, the
ranking with each entrant's percentage on every board and a link to each table's game)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.models import RobotEvent


def robot_list(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    events = list(selectors.robot_events())
    return render(request, "tournaments/robot_list.html", {
        "open": [e for e in events if e.is_open(now)],
        "upcoming": [e for e in events if now < e.opens],
        "closed": [e for e in events if e.closes <= now]})


def robot_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    return _event_page(request, get_object_or_404(RobotEvent, pk=event_id))


def _event_page(request: HttpRequest, event: RobotEvent, *, error: str = "",
                status: int = 200) -> HttpResponse:
    user = request.user
    hidden = selectors.robot_hidden_from(event, user)
    return render(request, "tournaments/robot_detail.html", {
        "event": event, "now_open": event.is_open(timezone.now()),
        "entry": selectors.robot_entry_of(event, user),
        "organiser": selectors.organises_robot(event, user),
        "hidden": hidden, "ranking": None if hidden else selectors.robot_ranking(event),
        "played": event.entries.filter(finished__isnull=False).count(),
        "error": error}, status=status)


@require_POST
def robot_play(request: HttpRequest, event_id: int) -> HttpResponse:
    """Start the logged-in person's table (with the partner they name, in a pairs event)."""
    event = get_object_or_404(RobotEvent, pk=event_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.path.removesuffix("play/"))
    partner = None
    name = request.POST.get("partner", "").strip()
    if name:
        partner = get_user_model().objects.filter(username=name[:150]).first()
        if partner is None:
            return _event_page(request, event, status=400, error=_(
                "There is no player with the username “%(name)s”.") % {"name": name[:150]})
    try:
        entry = services.robot_enter(event=event, user=request.user, partner=partner)
    except services.TournamentUserError as exc:
        return _event_page(request, event, error=str(exc), status=400)
    assert entry.live_table_id is not None
    return redirect("live:table", entry.live_table_id)
