"""Robot duplicate pages: the events, and an event's page (its window, the button that
starts your table, and once the window has closed and every table has finished, the
ranking with each entrant's percentage on every board and a link to each table's game), and
a pairs event's invitations: sent, accepted, refused or withdrawn."""

from __future__ import annotations

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.services import TournamentUserError

from . import selectors, services
from .models import RobotEntry, RobotEvent


def robot_list(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    events = list(selectors.robot_events())
    return render(request, "robot_duplicate/list.html", {
        "open": [e for e in events if e.is_open(now)],
        "upcoming": [e for e in events if now < e.opens],
        "closed": [e for e in events if e.closes <= now]})


def robot_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    return _event_page(request, get_object_or_404(RobotEvent, pk=event_id))


def _event_page(request: HttpRequest, event: RobotEvent, *, error: str = "",
                status: int = 200) -> HttpResponse:
    user = request.user
    hidden = selectors.robot_hidden_from(event, user)
    return render(request, "robot_duplicate/detail.html", {
        "event": event, "now_open": event.is_open(timezone.now()),
        "entry": selectors.robot_entry_of(event, user),
        "invitations": selectors.robot_invitations_for(event, user),
        "organiser": selectors.organises_robot(event, user),
        "hidden": hidden, "ranking": None if hidden else selectors.robot_ranking(event),
        "played": event.entries.filter(finished__isnull=False).count(),
        "error": error}, status=status)


class PartnerForm(forms.Form):
    # a form field refuses a NUL character, which PostgreSQL cannot hold, with a sentence
    partner = forms.CharField(max_length=150, required=False, strip=True)


@require_POST
def robot_play(request: HttpRequest, event_id: int) -> HttpResponse:
    """Start the logged-in person's table, or in a pairs event invite the partner they name
    (whose acceptance deals the table)."""
    event = get_object_or_404(RobotEvent, pk=event_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.path.removesuffix("play/"))
    form = PartnerForm(request.POST)
    if not form.is_valid():
        return _event_page(request, event, status=400, error=_("Partner: %(error)s") % {
            "error": " ".join(str(e) for e in form.errors["partner"])})
    name = form.cleaned_data["partner"]
    # a name nobody has is refused by the service as a person who may not play is
    partner = services.partner_named(name) if name else None
    try:
        entry = services.robot_enter(event=event, user=request.user, partner=partner)
    except TournamentUserError as exc:
        return _event_page(request, event, error=str(exc), status=400)
    if entry.live_table_id is None:  # an invitation: the partner answers it on this page
        return redirect("robot_duplicate:detail", event.pk)
    return redirect("live:table", entry.live_table_id)


@require_POST
def robot_invitation(request: HttpRequest, event_id: int, entry_id: int,
                     answer: str) -> HttpResponse:
    """The invited partner accepts (and goes to the table) or refuses; the player who sent
    the invitation withdraws it."""
    event = get_object_or_404(RobotEvent, pk=event_id)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("robot_duplicate:detail", args=[event.pk]))
    entry = get_object_or_404(RobotEntry, pk=entry_id, event=event)
    try:
        if answer == "withdraw":
            services.robot_withdraw(entry=entry, user=request.user)
        else:
            accepted = services.robot_answer(entry=entry, user=request.user,
                                             accept=answer == "accept")
            if accepted is not None and accepted.live_table_id is not None:
                return redirect("live:table", accepted.live_table_id)
    except TournamentUserError as exc:
        return _event_page(request, event, error=str(exc), status=400)
    return redirect("robot_duplicate:detail", event.pk)
