"""League pages: the leagues, one league with its seasons, and one season (each division's
table with who came up and went down, or a series' tables)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments.models import League
from tournaments.selectors import leagues as selectors


def league_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/league_list.html",
                  {"leagues": League.objects.prefetch_related("seasons")})


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    seasons = list(selectors.league_seasons(league, request.user))
    current = next((s for s in seasons if s.status != s.Status.DRAFT), None)
    return render(request, "tournaments/league_detail.html", {
        "league": league, "seasons": seasons,
        "view": selectors.season_view(current) if current else None})


def season_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    season = selectors.league_seasons(league, request.user).filter(number=number).first()
    if season is None:
        raise Http404(_("This league has no public season with this number."))
    return render(request, "tournaments/season_detail.html",
                  {"league": league, "view": selectors.season_view(season)})
