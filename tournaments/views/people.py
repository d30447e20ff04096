"""Team and player pages: results so far, the rating history (a team's: the mean of its
players' ratings) drawn as a chart with dates on its axis, and a player's own check-in for
a round."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.models import Player, Team, Tournament
from tournaments.ratings import Rating
from tournaments.selectors.calendars import calendar_key
from tournaments.selectors.entries import player_pending_requests, requests_to_answer
from tournaments.selectors.reporting import results_to_confirm
from tournaments.selectors.travellers import team_board_lines
from tournaments.selectors.viewmodels import RatingPoint

from .charts import PHONE_WIDTH, PHONE_X_TICKS, line_chart


def _chart(history: list[RatingPoint]) -> dict[str, Any]:
    labels = [_("%(rating)d on %(date)s, after %(tournament)s, round %(round)d") % {
        "rating": point.rating, "date": date_format(point.date) if point.date else "—",
        "tournament": point.tournament.name, "round": point.round_number}
        for point in history]
    axis = [date_format(point.date, "SHORT_DATE_FORMAT") if point.date else ""
            for point in history]
    ratings = [point.rating for point in history]
    return {"history": history, "chart": line_chart(ratings, labels, axis),
            "phone_chart": line_chart(ratings, labels, axis, width=PHONE_WIDTH,
                                      x_ticks=PHONE_X_TICKS)}


def team_detail(request: HttpRequest, team_id: int) -> HttpResponse:
    team = get_object_or_404(Team.objects.select_related("player_a", "player_b"), pk=team_id)
    return render(request, "tournaments/team_detail.html", {
        "team": team, "entries": selectors.team_tournaments(team),
        "results": selectors.team_results(team), "rating": selectors.team_rating(team),
        "boards": team_board_lines(team, None),  # the public view, as every public page
        "chart_name": team.name, **_chart(selectors.team_rating_history(team))})


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    return _player_page(request, get_object_or_404(Player, pk=player_id))


@require_POST
@login_required(login_url=reverse_lazy("login"))
def player_check_in(request: HttpRequest, player_id: int, tournament_id: int) -> HttpResponse:
    """The player checks in for the tournament's next round while its window is open
    (``services.check_in_self``); only the player's own login may."""
    player = get_object_or_404(Player, pk=player_id)
    if player.user_id is None or player.user_id != request.user.pk:
        raise PermissionDenied(_("Only a player's own login checks them in."))
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.check_in_self(tournament=tournament, user=request.user)
    except services.TournamentUserError as exc:
        return _player_page(request, player, error=str(exc), status=400)
    return redirect("tournaments:player_detail", player_id=player.pk)


def _player_page(request: HttpRequest, player: Player, *, error: str = "",
                 status: int = 200) -> HttpResponse:
    rating = Rating(player.rating_mu, player.rating_sigma)
    is_self = player.user_id is not None and player.user_id == request.user.pk
    return render(request, "tournaments/player_detail.html", {
        "player": player, "teams": selectors.player_teams(player),
        "rating": rating.scaled, "deviation": rating.deviation, "chart_name": player.name,
        "results": selectors.player_results(player),
        "to_confirm": results_to_confirm(request.user) if is_self else [],
        "check_ins": selectors.open_check_ins(player), "check_in_error": error,
        "entry_asks": requests_to_answer(player) if is_self else [],
        "entry_pending": player_pending_requests(player) if is_self else [],
        "is_self": is_self, "your_tables": selectors.your_tables(request.user) if is_self else [],
        "calendar_key": calendar_key(request.user) if is_self else None,
        **_chart(selectors.player_rating_history(player))}, status=status)
