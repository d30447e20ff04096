"""A refused or missing page (400, 403, 404) and a bug's 500 are pages of the site, in the
reader's language, saying why: the site's header and footer around a heading and the
reason the code gave (a PermissionDenied's or Http404's message), never Django's bare
"403 Forbidden". With DEBUG off, as in production; under /api/ the answers stay JSON."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.db import DatabaseError
from django.test import Client

from games.live.models import LiveTable
from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.error_urls")]
FI = {"accept-language": "fi"}


@pytest.fixture(autouse=True)
def production_debug(settings: Any, finnish: None) -> None:
    settings.DEBUG = False


def page(path: str, client: Client | None = None, **headers: str) -> tuple[int, str]:
    response = (client or Client(raise_request_exception=False)).get(path, headers=headers)
    return response.status_code, response.content.decode()


def assert_site_page(html: str, language: str) -> None:
    """The site's own page: its language, its navigation and footer (base.html)."""
    assert f'<html lang="{language}">' in html
    assert 'class="site-header"' in html and 'class="site-footer"' in html


def heading(html: str) -> str:
    return html.split("<h1>", 1)[1].split("</h1>", 1)[0]


def test_a_missing_page_says_so_in_english_and_finnish() -> None:
    status, html = page("/no/such/page/")
    assert status == 404
    assert_site_page(html, "en")
    assert heading(html) == "Page not found"
    assert "There is no page at this address" in html
    assert "tried" not in html and "Not Found" not in html  # no resolver dict, no bare page

    status, html = page("/no/such/page/", **FI)
    assert status == 404
    assert_site_page(html, "fi")
    assert heading(html) == "Sivua ei löydy"
    assert "Tässä osoitteessa ei ole sivua" in html


def test_a_missing_thing_shows_the_reason_the_code_gave() -> None:
    status, html = page("/missing/")
    assert status == 404 and "There is no table with this number." in html

    status, html = page("/missing/", **FI)
    assert status == 404 and "Tällä numerolla ei ole pöytää." in html
    assert "There is no page at this address" not in html


def test_a_real_page_missing_says_why_in_finnish() -> None:
    tournament = tournament_with_teams(4)

    status, html = page(f"/tournaments/{tournament.pk}/rounds/9/", **FI)

    assert status == 404
    assert heading(html) == "Sivua ei löydy"
    assert "Tällä turnauksella ei ole julkista kierrosta tällä numerolla." in html


def test_a_lookup_that_finds_nothing_shows_no_english_class_name() -> None:
    status, html = page("/tournaments/999999/", **FI)

    assert status == 404
    assert "matches the given query" not in html and "Tournament" not in html
    assert "Tässä osoitteessa ei ole sivua" in html


def test_a_refusal_shows_its_reason_in_the_readers_language() -> None:
    status, html = page("/forbid/")
    assert status == 403
    assert_site_page(html, "en")
    assert heading(html) == "You may not open this page"
    assert "Only a player&#x27;s own login checks them in." in html
    assert "403 Forbidden" not in html

    status, html = page("/forbid/", **FI)
    assert status == 403
    assert_site_page(html, "fi")
    assert heading(html) == "Et voi avata tätä sivua"
    assert "Only a player" not in html


def test_a_refusal_without_a_reason_says_what_may_help() -> None:
    status, html = page("/forbid-bare/?x=1", **FI)
    assert status == 403
    assert "Tunnuksellasi ei ole oikeutta tähän sivuun." in html
    # not logged in: logging in may help, and comes back here
    assert 'href="/accounts/login/?next=/forbid-bare/%3Fx%3D1"' in html

    client = Client(raise_request_exception=False)
    client.force_login(UserFactory())
    status, html = page("/forbid-bare/", client, **FI)
    assert status == 403 and "/accounts/login/" not in html


def test_a_table_its_tournament_does_not_let_you_watch_is_the_refused_page() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser], play=Tournament.Play.ONLINE,
                                       spectators=Tournament.Spectators.NOBODY)
    services.round_publish(round=services.round_pair_next(tournament=tournament,
                                                          user=organiser), user=organiser)
    table = LiveTable.objects.get()
    outsider = Client(raise_request_exception=False)
    outsider.force_login(UserFactory(is_staff=False))

    status, html = page(f"/tables/{table.pk}/", outsider, **FI)

    assert status == 403  # a PlatformError's 403 (WatchRefused), not Django's
    assert_site_page(html, "fi")
    assert heading(html) == "Et voi avata tätä sivua"
    assert "Tämän pöydän turnaus ei salli sinun katsoa sitä pelin aikana." in html


def test_a_refusal_the_person_can_fix_keeps_the_general_page() -> None:
    status, html = page("/refuse/")  # a PlatformError of 400: its message, not 400.html's
    assert status == 400 and heading(html) == "That cannot be done"
    assert "at least 2 teams are needed, got 1" in html


def test_a_bad_request_is_a_page_that_repeats_nothing_the_client_sent() -> None:
    status, html = page("/suspicious/", **FI)

    assert status == 400
    assert_site_page(html, "fi")
    assert heading(html) == "Virheellinen pyyntö"
    assert "the secret the client sent" not in html


def test_a_bug_is_the_sites_500_page_in_the_readers_language(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="django.request"):
        status, html = page("/bug/", **FI)

    assert status == 500
    assert_site_page(html, "fi")
    assert heading(html) == "Jotain meni vikaan"
    assert "Virhe on kirjattu" in html and "a bug, not advice" not in html


def test_when_the_500_page_cannot_be_drawn_a_bare_one_still_says_it(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise DatabaseError("the database is gone")

    monkeypatch.setattr("config.error_pages.error_page", broken)
    with caplog.at_level(logging.ERROR):
        status, html = page("/bug/", **FI)

    assert status == 500
    assert "Sivustolla meni jotain vikaan. Virhe on kirjattu" in html
    assert any("500 page could not be rendered" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("path, status", [("/api/v1/no-such/", 404), ("/api/v1/bug/", 500)])
def test_under_the_api_the_answers_stay_json(path: str, status: int) -> None:
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == status
    assert set(response.json()) == {"detail"}
