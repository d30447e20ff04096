"""A round's page of tables in the browser: a logged-in player's own table first, the links
to the other pages, axe-core on them, and the page shown refreshing itself when a result
lands on one of its tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments.selectors import paging

from ..pages import WIN_SHEET, enter_sheet, organiser, published_round
from ..tournaments.factories import tournament_with_teams
from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixtures)
from .axe import EVERY_IMPACT, axe_violations, describe

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_follows_a_page_of_tables_with_their_own_first(
        browser: Any, live_server: Any, settings: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paging, "PAGE_SIZE", 2)  # the server runs in this process
    settings.PUSH_LIVE_POLL_SECONDS = 0.5
    user = organiser()
    tournament = tournament_with_teams(10, name="Paged Cup", organisers=[user])
    round = published_round(tournament)
    own, other = round.matches.get(table__number=5), round.matches.get(table__number=3)
    person = get_user_model().objects.create_user("eve", password="pw-eve-12345")
    own.team_a.player_a.user = person
    own.team_a.player_a.save()
    client = Client()
    client.force_login(person)
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/")
    region = page.locator("#round-tables")
    expect(region.get_by_role("heading", name="Your table")).to_be_visible()
    expect(region.locator("h3[id^=own-table-]")).to_contain_text("Table 5")
    pages = page.get_by_role("navigation", name="Pages of tables")
    pages.get_by_role("link", name="Page 2").click()
    expect(page).to_have_url(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/?page=2")
    expect(region).to_contain_text("Tables 3 to 4 of 5")
    expect(pages.locator("[aria-current=page]")).to_have_text("2")
    violations = axe_violations(page, EVERY_IMPACT)
    assert not violations, describe(violations)
    page.evaluate("document.body.setAttribute('data-loaded-once', '1')")

    enter_sheet(other, WIN_SHEET, user)  # table 3, on the page shown

    card = region.locator(f"#table-{other.pk}")
    expect(card.locator("xpath=..")).to_contain_text("done")
    expect(page.locator("body")).to_have_attribute("data-loaded-once", "1")  # no reload
    expect(region).to_contain_text("Tables 3 to 4 of 5")  # still the page shown
    expect(region.locator("h3[id^=own-table-]")).to_contain_text("Table 5")
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"
