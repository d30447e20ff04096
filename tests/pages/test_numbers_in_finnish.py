"""Numbers a browser or a script reads (SVG coordinates, data attributes, JSON) are never
written in the page's language: Finnish writes 224,0 for 224.0, which an SVG coordinate
cannot be, and a chart drawn from it loses its points and its axis labels."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Player, RatingEntry, Team
from tournaments.ratings import Rating
from tournaments.views.charts import line_chart

from . import play_round_with_sheets, swiss_cup

pytestmark = pytest.mark.django_db

#: the SVG attributes that hold one number, and the one that holds a list of pairs
SVG_NUMBERS = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "width", "height"}
DECIMAL_COMMA = re.compile(r"\d,\d")


class Elements(HTMLParser):
    """Every start tag as (tag, attributes), and each SVG text element's text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.texts: list[tuple[dict[str, str], str]] = []
        self._text: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        self.tags.append((tag, attributes))
        if tag == "text":
            self._text = attributes
            self.texts.append((attributes, ""))

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self.texts[-1] = (self._text, self.texts[-1][1] + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "text":
            self._text = None


def parsed(html: str) -> Elements:
    elements = Elements()
    elements.feed(html)
    return elements


def check_numbers(html: str) -> Elements:
    """Every SVG coordinate parses as a number; no data attribute has a decimal comma."""
    elements = parsed(html)
    for tag, attributes in elements.tags:
        for name, value in attributes.items():
            if name.startswith("data-"):
                assert not DECIMAL_COMMA.search(value), f"<{tag} {name}={value!r}>"
            elif tag in {"svg", "line", "text", "circle", "polyline", "rect"}:
                if name in SVG_NUMBERS:
                    float(value)
                elif name == "viewbox":
                    assert [float(n) for n in value.split()]
                elif name == "points":
                    for pair in value.split():
                        x, y = pair.split(",")
                        float(x), float(y)
    return elements


@pytest.fixture
def rated_cup() -> dict[str, Any]:
    """Two rounds played and rated, so each player has a two-point history whose
    coordinates are not whole numbers."""
    cup = swiss_cup()
    services.round_publish(round=cup["draft"], user=cup["user"])
    for match in cup["draft"].matches.filter(is_bye=False):
        services.match_submit_score_sheet(match=match, hand_scores=[[40, 0]] * 5,
                                          out_seats=[1] * 5, user=cup["user"])
    services.round_complete(round=cup["draft"], user=cup["user"])
    play_round_with_sheets(cup["tournament"], cup["user"])
    services.ratings_rebuild()
    return cup


def finnish_page(client: Client, url: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="fi")
    assert response.status_code == 200 and response["Content-Language"] == "fi"
    return response.content.decode()


def test_a_finnish_rating_chart_has_number_coordinates_and_the_real_axis_labels(
        client: Client, finnish: None, rated_cup: dict[str, Any]) -> None:
    player = Player.objects.filter(rating_history__isnull=False).distinct().first()
    ratings = [Rating(e.mu, e.sigma).scaled for e in RatingEntry.objects.filter(player=player)]
    assert len(ratings) == 3

    html = finnish_page(client, reverse("tournaments:player_detail", args=[player.pk]))

    svg = html[html.index("<svg"):html.index("</svg>")]
    elements = check_numbers(svg)
    expected = line_chart(ratings, [""] * len(ratings))
    y_labels = [(a["y"], text) for a, text in elements.texts if a.get("text-anchor") == "end"]
    assert y_labels == expected.y_ticks  # the positions and the values, 1400, 1450...
    assert all(float(label) >= 1000 for _y, label in y_labels)
    dots = [(a["cx"], a["cy"]) for tag, a in elements.tags if tag == "circle"]
    assert dots == [(p.cx, p.cy) for p in expected.points]
    assert any("." in y for _x, y in dots)  # not whole numbers: a comma would show


def test_a_finnish_team_chart_and_the_tables_write_plain_numbers(
        client: Client, finnish: None, rated_cup: dict[str, Any]) -> None:
    tournament = rated_cup["tournament"]
    team = Team.objects.filter(entries__tournament=tournament).first()
    match = rated_cup["round"].matches.filter(is_bye=False).first()
    pages = [reverse("tournaments:team_detail", args=[team.pk]),
             reverse("tournaments:standings", args=[tournament.pk]),
             reverse("tournaments:crosstable", args=[tournament.pk]),
             reverse("tournaments:tournament_detail", args=[tournament.pk]),
             reverse("tournaments:match_detail", args=[match.pk])]
    for url in pages:
        check_numbers(finnish_page(client, url))
    team_html = finnish_page(client, pages[0])
    assert "<svg" in team_html and "Vahvuusluvun historia taulukkona" in team_html
