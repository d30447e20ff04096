"""Team and player pages: results so far, and a player's rating history chart."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import RatingEntry
from tournaments.ratings import Rating
from tournaments.views.charts import axis_ticks, line_chart, nice_step

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
    entry = entries.get()
    assert f"<strong>{Rating(entry.mu, entry.sigma).scaled}</strong>" in html
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


def test_ratings_are_shown_on_the_familiar_scale() -> None:
    assert Rating(25.0, 25.0 / 3).scaled == 1500  # a new player, as on Lichess
    assert Rating(25.0, 25.0 / 3).deviation == 400
    assert Rating(25.0 + 25.0 / 6, 2.0).scaled == 1700  # one beta better: 200 points
    assert Rating(24.0, 2.0).scaled < 1500


def test_a_team_page_draws_the_mean_of_its_players_ratings_with_dates(client: Client) -> None:
    cup = swiss_cup()
    services.ratings_rebuild()
    match = cup["round"].matches.select_related("team_a__player_a", "team_a__player_b").first()
    team = match.team_a
    players = [RatingEntry.objects.get(player=p, match=match) for p in (team.player_a,
                                                                       team.player_b)]
    mean = round(sum(Rating(e.mu, e.sigma).scaled for e in players) / 2)
    assert mean > 1500  # the team won its game

    html = client.get(reverse("tournaments:team_detail", args=[team.pk])).content.decode()

    assert f"Rating: <strong>{mean}</strong>" in html
    svg = html[html.index("<svg"):html.index("</svg>")]
    assert svg.count("<circle") == 1
    day = match.result.created.date()
    ticks = re.findall(r'class="x-tick"[^>]*>([^<]+)<', svg)
    assert ticks == [day.strftime("%m/%d/%Y")]  # English SHORT_DATE_FORMAT
    assert f"{mean} on " in svg


def test_a_team_without_rated_games_has_no_chart(client: Client) -> None:
    from ..tournaments.factories import TeamFactory

    team = TeamFactory()
    html = client.get(reverse("tournaments:team_detail", args=[team.pk])).content.decode()
    assert "Rating: <strong>1500</strong>" in html and "<svg" not in html


def test_the_date_axis_labels_each_new_day_and_at_most_six() -> None:
    assert axis_ticks(["1 Dec", "1 Dec", "2 Dec", "2 Dec", "5 Dec"]) == [0, 2, 4]
    days = [f"day {i // 2}" for i in range(40)]  # 20 days, two games each
    ticks = axis_ticks(days)
    assert len(ticks) == 6 and ticks[0] == 0 and ticks[-1] == 38
    chart = line_chart([1.0, 2.0, 3.0], ["a", "b", "c"], ["x", "x", "y"])
    assert [label for _x, label in chart.x_ticks] == ["x", "y"]


def test_a_phones_chart_is_drawn_narrow_with_fewer_dates() -> None:
    values = [1500.0 + i for i in range(12)]
    axis = [f"{day}.12." for day in range(12)]
    chart = line_chart(values, [""] * 12, axis, width=320, x_ticks=3)
    assert (chart.width, chart.right) == (320, 304)
    assert chart.points[-1].x == 304 and len(chart.x_ticks) == 3
    assert [label for _x, label in chart.x_ticks] == ["0.12.", "6.12.", "11.12."]
    wide = line_chart(values, [""] * 12, axis)
    assert (wide.width, wide.right, len(wide.x_ticks)) == (640, 624, 6)
