"""Entering with a partner in chromium with JavaScript off: a player asks a partner from
the tournament page, the partner accepts on the page their notification links to, and the
team is entered; every page of it passes axe-core (any impact), in English and Finnish."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.hashers import make_password

from tests.tournaments.entering import open_tournament
from tests.tournaments.factories import PlayerFactory, UserFactory
from tests.tournaments.venue import PASSWORD
from tournaments.models import Entry, Notification, Player

from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixture)
from .axe import EVERY_IMPACT, assert_accessible

pytestmark = pytest.mark.django_db(transaction=True)


def tabs(browser: Any, *, script: bool) -> list[Any]:
    """An English and a Finnish tab, each its own login to come."""
    pages = []
    for locale in ("en-US", "fi-FI"):
        context = browser.new_context(locale=locale, java_script_enabled=script,
                                      viewport={"width": 1280, "height": 900})
        context.set_default_timeout(TIMEOUT_MS)
        pages.append(context.new_page())
    return pages


def log_in(page: Any, base: str, username: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit]").last.click()


def players(*names: str) -> list[Any]:
    password = make_password(PASSWORD)
    return [PlayerFactory(name=name.title(), handle=name, user=UserFactory(
        username=name, password=password, is_staff=False)) for name in names]


def test_a_player_asks_and_the_partner_accepts_without_javascript(
        browser: Any, live_server: Any) -> None:
    tournament = open_tournament(name="Spring Pairs", capacity=8, waiting_list=True)
    aino, _bo = players("aino", "bo")
    asker, partner = tabs(browser, script=False)  # English, Finnish
    page_path = f"/tournaments/{tournament.pk}/"

    log_in(asker, live_server.url, "aino", page_path)
    asker.get_by_label("Your partner's handle").fill("@bo")
    asker.get_by_role("button", name="Enter with a partner").click()
    expect(asker.get_by_text("You asked @bo to enter with you")).to_be_visible()

    link = Notification.objects.get(user__username="bo").link
    log_in(partner, live_server.url, "bo", link)
    expect(partner.get_by_role("heading", level=1)).to_have_text(
        "Ilmoittaudutko turnaukseen Spring Pairs?")
    partner.get_by_role("button", name="Hyväksy").click()
    expect(partner.get_by_text("Tähän pyyntöön on vastattu: mukana.")).to_be_visible()

    asker.goto(live_server.url + page_path)
    expect(asker.get_by_text("Your team is entered.")).to_be_visible()
    assert Entry.objects.get(tournament=tournament).team.player_a == aino
    partner.goto(live_server.url + page_path)
    expect(partner.get_by_text("Joukkueesi on mukana.")).to_be_visible()
    for page in (asker, partner):
        page.context.close()


def test_the_entry_pages_pass_axe_core_in_english_and_finnish(
        browser: Any, live_server: Any) -> None:
    tournament = open_tournament(name="Autumn Pairs", capacity=8, waiting_list=True)
    players("cai", "dan")
    asker, partner = tabs(browser, script=True)  # axe-core is a script
    page_path = f"/tournaments/{tournament.pk}/"

    log_in(asker, live_server.url, "cai", page_path)
    expect(asker.get_by_role("heading", name="Entries")).to_be_visible()
    assert_accessible(asker, EVERY_IMPACT)  # the form
    asker.get_by_label("Your partner's handle").fill("dan")
    asker.get_by_role("button", name="Enter with a partner").click()
    expect(asker.get_by_text("You asked @dan to enter with you")).to_be_visible()
    assert_accessible(asker, EVERY_IMPACT)  # the request, with Withdraw

    log_in(partner, live_server.url, "dan", Notification.objects.get(user__username="dan").link)
    expect(partner.get_by_role("button", name="Hyväksy")).to_be_visible()
    assert_accessible(partner, EVERY_IMPACT)  # the answer page, in Finnish
    partner.goto(live_server.url + f"/players/{partner_id('dan')}/")
    expect(partner.get_by_role("heading", name="Ilmoittautumispyynnöt")).to_be_visible()
    assert_accessible(partner, EVERY_IMPACT)
    for page in (asker, partner):
        page.context.close()


def partner_id(handle: str) -> int:
    return int(Player.objects.get(handle=handle).pk)
