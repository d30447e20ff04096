"""The printed deals of a match or a round: each hand's pack, top card first, for the
dealer at a venue table to stack before dealing (R4.1, R4.2), so that the game played there
is the one the platform fixed for the match. Only the tournament's organisers reach it (the
scoped admin answers anyone else as it answers a row that does not exist), and an organiser
who plays in a match does not see its deals before it has a result."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from tournaments import services
from tournaments.models import Match, Round, Tournament

from .scoping import change_url, not_found


def deals_url(obj: Match | Round) -> str:
    return reverse(f"admin:tournaments_{obj._meta.model_name}_deals", args=[obj.pk])


def deals_path(model_admin: admin.ModelAdmin[Any]) -> Any:
    """The ``<id>/deals/`` page of a match or round admin."""
    name = model_admin.opts.model_name
    return path("<path:object_id>/deals/", model_admin.admin_site.admin_view(
        lambda request, object_id: deals_view(model_admin, request, object_id)),
        name=f"tournaments_{name}_deals")


def deals_view(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
               object_id: str) -> HttpResponse:
    obj = model_admin.get_object(request, object_id)  # None outside the user's tournaments
    if obj is None:
        return not_found(model_admin, request, object_id)
    if isinstance(obj, Round):
        round, matches = obj, list(obj.matches.select_related("table", "team_a", "team_b",
                                                             "result", "round")
                                   .prefetch_related("seats__player"))
    else:
        round, matches = obj.round, [obj]
    tournament: Tournament = round.tournament
    try:
        shown, withheld = services.deals_for_organiser(tournament=tournament, matches=matches,
                                                       user=request.user)
    except services.TournamentUserError as exc:
        model_admin.message_user(request, str(exc), messages.ERROR)
        return HttpResponseRedirect(change_url(obj))
    return TemplateResponse(request, "admin/tournaments/deals.html", {
        **model_admin.admin_site.each_context(request), "opts": model_admin.opts,
        "original": obj, "title": str(obj), "tournament": tournament, "round": round,
        "deals": shown, "withheld": withheld})
