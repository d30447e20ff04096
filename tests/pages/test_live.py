"""Live fragments: what the round, standings and match pages poll while a round is played."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tournaments import services

from ..tournaments.factories import tournament_with_teams
from . import WIN_SHEET, enter_sheet, organiser, published_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing() -> dict[str, object]:
    """Round 1 of four teams published, nothing played yet."""
    user = organiser()
    tournament = tournament_with_teams(4, name="Live Cup", organisers=[user])
    round = published_round(tournament)
    return {"user": user, "tournament": tournament, "round": round,
            "match": round.matches.order_by("table__number").first()}


def test_live_pages_say_where_to_poll(client: Client, playing: dict) -> None:
    tournament, match = playing["tournament"], playing["match"]
    pages = {
        reverse("tournaments:round_detail", args=[tournament.pk, 1]):
            reverse("tournaments:round_live", args=[tournament.pk, 1]),
        reverse("tournaments:standings", args=[tournament.pk]):
            reverse("tournaments:standings_live", args=[tournament.pk]),
        reverse("tournaments:match_detail", args=[match.pk]):
            reverse("tournaments:match_live", args=[match.pk]),
    }
    for url, live in pages.items():
        html = client.get(url).content.decode()
        assert f'data-live-url="{live}"' in html, url
        assert "data-live-etag=" in html and "tournaments/live.js" in html
        assert 'data-live="on"' in html


def test_a_fragment_is_the_changing_part_only_and_says_whether_to_go_on(
        client: Client, playing: dict) -> None:
    tournament, round = playing["tournament"], playing["round"]
    url = reverse("tournaments:round_live", args=[tournament.pk, 1])

    response = client.get(url)

    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<div class="live-body" data-live="on">')
    assert "no-cache" in response["Cache-Control"]
    for match in round.matches.all():
        enter_sheet(match, WIN_SHEET, playing["user"])
    services.round_complete(round=round, user=playing["user"])
    assert 'data-live="off"' in client.get(url).content.decode()


def test_an_unchanged_fragment_answers_not_modified(client: Client, playing: dict) -> None:
    tournament = playing["tournament"]
    url = reverse("tournaments:standings_live", args=[tournament.pk])
    first = client.get(url)
    page = client.get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()
    assert f'data-live-etag="{escape(first["ETag"])}"' in page  # what the script sends back

    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"] and "no-cache" in again["Cache-Control"]
    assert "Accept-Language" in again["Vary"]
    enter_sheet(playing["match"], WIN_SHEET, playing["user"])
    services.standings_rebuild(tournament=tournament, full=False)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


def test_if_none_match_is_read_as_http_defines_it(client: Client, playing: dict) -> None:
    url = reverse("tournaments:round_live", args=[playing["tournament"].pk, 1])
    tag = client.get(url)["ETag"]
    matching = [f'"older", {tag}', f"W/{tag}", "*"]
    not_matching = ['"older"', f'"older{tag}"']  # the tag inside another one is no match

    for header in matching:
        assert client.get(url, HTTP_IF_NONE_MATCH=header).status_code == 304, header
    for header in not_matching:
        assert client.get(url, HTTP_IF_NONE_MATCH=header).status_code == 200, header


def test_the_standings_fragment_shows_a_result_once_it_lands(client: Client,
                                                             playing: dict) -> None:
    tournament, match = playing["tournament"], playing["match"]
    url = reverse("tournaments:standings_live", args=[tournament.pk])
    assert "No results yet" in client.get(url).content.decode()

    enter_sheet(match, WIN_SHEET, playing["user"])
    services.standings_rebuild(tournament=tournament, full=False)

    html = client.get(url).content.decode()
    assert f'data-team="{match.team_a_id}"' in html and match.team_a.name in html


def test_the_match_fragment_brings_the_result_when_it_lands(client: Client,
                                                            playing: dict) -> None:
    match = playing["match"]
    url = reverse("tournaments:match_live", args=[match.pk])
    assert "has not been played yet" in client.get(url).content.decode()

    enter_sheet(match, WIN_SHEET, playing["user"])

    html = client.get(url).content.decode()
    assert 'data-live="off"' in html and "Scores per hand" in html


def test_an_unconfirmed_score_sheet_is_not_shown(client: Client, playing: dict) -> None:
    tournament, match = playing["tournament"], playing["match"]
    tournament.confirm_score_sheets = True
    tournament.save()

    enter_sheet(match, WIN_SHEET, playing["user"])

    html = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()
    assert "waits to be confirmed" in html and "Scores per hand" not in html
    assert 'data-live="on"' in html
