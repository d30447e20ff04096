"""Team and player pages: results so far, and a player's rating history chart."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import RatingEntry
from tournaments.views.charts import line_chart, nice_step

from . import swiss_cup

pytestmark = pytest.mark.django_db


def test_a_team_page_shows_its_players_tournaments_and_results(client: Client) -> None:
    cup = swiss_cup()
    match = cup["round"].matches.select_related("team_a", "team_b").first()
    team = match.team_a

    html = client.get(reverse("tournaments:team_detail", args=[team.pk])).content.decode()

    assert team.name in html and team.player_a.name in html and team.player_b.name in html
    assert "Sheet Cup" in html and match.team_b.name in html
    assert "0–200" in html and ">won<" in html
    assert reverse("tournaments:match_detail", args=[match.pk]) in html


def test_a_player_page_draws_the_rating_history_as_an_svg_chart(client: Client) -> None:
    cup = swiss_cup()
    services.ratings_rebuild()
    match = cup["round"].matches.select_related("team_a__player_a").first()
    player = match.team_a.player_a
    entries = RatingEntry.objects.filter(player=player)
    assert entries.count() == 1

    html = client.get(reverse("tournaments:player_detail", args=[player.pk])).content.decode()

    svg = html[html.index("<svg"):html.index("</svg>")]
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert svg.count("<circle") == 1 and "<polyline" in svg
    assert f"{entries.get().display:.1f}" in html
    assert "Rating history as a table" in html
    assert ">won<" in html and match.team_a.player_b.name in html  # the partner


def test_a_player_without_games_has_no_chart(client: Client) -> None:
    from ..tournaments.factories import PlayerFactory

    player = PlayerFactory(name="Newcomer")

    html = client.get(reverse("tournaments:player_detail", args=[player.pk])).content.decode()
    assert "Newcomer" in html and "<svg" not in html and "No rated games yet" in html


def test_the_chart_puts_points_left_to_right_and_higher_values_higher() -> None:
    chart = line_chart([1.0, 3.5, 2.0], ["a", "b", "c"])

    xs = [p.x for p in chart.points]
    ys = [p.y for p in chart.points]
    assert xs == sorted(xs) and xs[0] == chart.left and xs[-1] == chart.right
    assert ys[1] < ys[2] < ys[0]  # SVG y grows downwards
    assert all(chart.top <= y <= chart.bottom for y in ys)
    assert [label for _y, label in chart.y_ticks][0] == "1"
    assert re.fullmatch(r"[\d., ]+", chart.polyline)


def test_a_chart_of_one_value_is_centred_and_flat_values_get_room() -> None:
    chart = line_chart([5.0], ["only"])
    assert chart.points[0].x == (chart.left + chart.right) / 2
    assert chart.top < chart.points[0].y < chart.bottom
    assert line_chart([], []).points == []


@pytest.mark.parametrize("span, step", [(10, 2), (1, 0.2), (0.3, 0.1), (470, 100)])
def test_ticks_fall_on_round_numbers(span: float, step: float) -> None:
    assert nice_step(span) == pytest.approx(step)
