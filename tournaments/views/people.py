"""Team and player pages: results so far, and the rating history (a team's: the mean of its
players' ratings) drawn as a chart with dates on its axis."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import Player, Team
from tournaments.ratings import Rating
from tournaments.selectors.reporting import results_to_confirm
from tournaments.selectors.viewmodels import RatingPoint

from .charts import line_chart


def _chart(history: list[RatingPoint]) -> dict[str, Any]:
    labels = [_("%(rating)d on %(date)s, after %(tournament)s, round %(round)d") % {
        "rating": point.rating, "date": date_format(point.date) if point.date else "—",
        "tournament": point.tournament.name, "round": point.round_number}
        for point in history]
    axis = [date_format(point.date, "SHORT_DATE_FORMAT") if point.date else ""
            for point in history]
    return {"history": history,
            "chart": line_chart([point.rating for point in history], labels, axis)}


def team_detail(request: HttpRequest, team_id: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.select_related("player_a", "player_b"), pk=team_id)
    return render(request, "tournaments/team_detail.html", {
        "team": team, "entries": selectors.team_tournaments(team),
        "results": selectors.team_results(team), "rating": selectors.team_rating(team),
        "chart_name": team.name, **_chart(selectors.team_rating_history(team))})


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    rating = Rating(player.rating_mu, player.rating_sigma)
    return render(request, "tournaments/player_detail.html", {
        "player": player, "teams": selectors.player_teams(player),
        "rating": rating.scaled, "deviation": rating.deviation, "chart_name": player.name,
        "results": selectors.player_results(player),
        "to_confirm": results_to_confirm(request.user)
        if player.user_id is not None and player.user_id == request.user.pk else [],
        **_chart(selectors.player_rating_history(player))})
