"""Team and player pages: results so far, and a player's rating history."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import Player, Team
from tournaments.ratings import Rating
from tournaments.selectors.reporting import results_to_confirm

from .charts import line_chart


def team_detail(request: HttpRequest, team_id: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.select_related("player_a", "player_b"), pk=team_id)
    return render(request, "tournaments/team_detail.html", {
        "team": team, "entries": selectors.team_tournaments(team),
        "results": selectors.team_results(team)})


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    history = selectors.player_rating_history(player)
    labels = [_("%(rating).1f after %(tournament)s, round %(round)d") % {
        "rating": entry.display, "tournament": entry.match.round.tournament.name,
        "round": entry.match.round.number} for entry in history]
    return render(request, "tournaments/player_detail.html", {
        "player": player, "teams": selectors.player_teams(player),
        "rating": Rating(player.rating_mu, player.rating_sigma).display,
        "history": history, "chart": line_chart([e.display for e in history], labels),
        "results": selectors.player_results(player),
        "to_confirm": results_to_confirm(request.user)
        if player.user_id is not None and player.user_id == request.user.pk else []})
