"""Entering a tournament with a partner: the tournament page's entry section (its window,
places, the player's own state, the form), entering and withdrawing, and the page where
the partner named accepts or declines (reached from their notification)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import services
from tournaments.models import EntryRequest, Tournament

from .entry_section import EnterForm, entry_context
from .tournaments import tournament_page


@require_POST
@login_required(login_url=reverse_lazy("login"))
def tournament_enter(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Ask a partner to enter the tournament (``services.entry_ask``); the same answer
    whether a player has the handle or not."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = EnterForm(request.POST)
    if not form.is_valid():
        return _again(request, tournament, form, str(_("Give your partner's handle.")))
    try:
        services.entry_ask(tournament=tournament, partner_handle=form.cleaned_data["partner"],
                           user=request.user)
    except services.TournamentUserError as exc:
        return _again(request, tournament, form, str(exc))
    return redirect(reverse("tournaments:tournament_detail", args=[tournament.pk]) + "#entry")


@require_POST
@login_required(login_url=reverse_lazy("login"))
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.entry_withdraw(tournament=tournament, user=request.user)
    except services.TournamentUserError as exc:
        return _again(request, tournament, None, str(exc))
    return redirect(reverse("tournaments:tournament_detail", args=[tournament.pk]) + "#entry")


@require_http_methods(["GET", "POST"])
@login_required(login_url=reverse_lazy("login"))
def entry_request(request: HttpRequest, request_id: int) -> HttpResponse:
    """The partner's page: who asks, for which tournament, and Accept or Decline (a post);
    any other login is refused (403), and an answered request shows its state."""
    ask = get_object_or_404(EntryRequest.objects.select_related("tournament", "asker"),
                            pk=request_id)
    services.require_partner(ask, request.user)
    error, status = "", 200
    if request.method == "POST":
        answer = request.POST.get("answer")
        if answer not in ("accept", "decline"):
            error, status = str(_("Choose Accept or Decline.")), 400
        else:
            try:
                ask = services.entry_answer(request=ask, accept=answer == "accept",
                                            user=request.user)
            except services.TournamentUserError as exc:
                error, status = str(exc), 400
            else:
                return redirect("tournaments:entry_request", request_id=ask.pk)
    ask.refresh_from_db()
    return render(request, "tournaments/entry_request.html",
                  {"ask": ask, "tournament": ask.tournament, "error": error}, status=status)


def _again(request: HttpRequest, tournament: Tournament, form: EnterForm | None,
           error: str) -> HttpResponse:
    return tournament_page(request, tournament, entry=entry_context(
        request, tournament, form=form, error=error), status=400)
