"""The Content-Security-Policy in a real browser: every public page, the API documentation
and the organiser's admin run under it without a single violation, and the browser does
block (and report) what the policy forbids."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Team

from ..pages import bot_match, knockout_cup
from . import TIMEOUT_MS, browser_fixture, page_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-test-password-1"
# drf-spectacular builds the schema Swagger UI fetches on each request: seconds on a busy
# machine. (Other pages are complete when goto() returns: it waits for the load event.)
SCHEMA_MS = 30_000

# Reports every violation to the test, on every page the tab opens (Playwright adds it to
# each new document before the page's own scripts, outside the page's policy).
LISTEN = """window.cspViolations = 0;
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations += 1;
  window.reportViolation(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`
                         + ` at ${event.documentURI}:${event.lineNumber} ${event.sample}`);
});"""


class Tab:
    """A browser tab that records the policy violations its pages report."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page, self.base_url = page, base_url
        self.violations: list[str] = []
        page.expose_binding("reportViolation", lambda _source, text: self.violations.append(text))
        page.add_init_script(LISTEN)
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # Chromium also logs each refusal ("Refused to execute inline script because it
        # violates the following Content Security Policy directive ...").
        if "Content Security Policy" in message.text:
            self.violations.append(f"console: {message.text}")

    def open(self, path: str) -> Any:
        """Open ``path``; it must answer 200 under a policy that allows no inline script."""
        response = self.page.goto(self.base_url + path)
        assert response.status == 200, path
        policy = response.headers.get("content-security-policy", "")
        script_src = next((d for d in policy.split(";") if d.strip().startswith("script-src")),
                          "")
        assert "'self'" in script_src and "unsafe-inline" not in script_src, (path, policy)
        return self.page


@pytest.fixture(name="tab")
def tab_fixture(page: Any, live_server: Any) -> Iterator[Tab]:
    """The page fixture's tab (which fails the test on a JavaScript error); any policy
    violation its pages report fails the test too, checked at teardown so that a test that
    fails on the way still lists them."""
    tab = Tab(page, live_server.url)
    yield tab
    assert tab.violations == [], f"Content-Security-Policy violations: {tab.violations}"


def test_every_public_page_runs_under_the_policy(tab: Tab) -> None:
    from playwright.sync_api import expect

    cup = knockout_cup()["tournament"]
    played = bot_match()
    tournament, match = played["tournament"], played["match"]
    team = Team.objects.get(pk=match.team_a_id)

    for path in ("/", "/rules/", "/tournaments/", f"/tournaments/{cup.pk}/",
                 f"/tournaments/{cup.pk}/rounds/1/", f"/tournaments/{cup.pk}/bracket/",
                 f"/tournaments/{tournament.pk}/crosstable/", f"/teams/{team.pk}/",
                 f"/players/{team.player_a_id}/", "/api/v1/tournaments/"):
        page = tab.open(path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
    page = tab.open("/api/v1/auth/login/")  # the browsable API's sign-in
    expect(page.get_by_label("Username")).to_be_visible()

    # The site's own scripts run: the sortable table and the replay say they are ready.
    page = tab.open(f"/tournaments/{cup.pk}/standings/")
    expect(page.locator("table[data-sortable-ready]")).to_have_count(1)
    page = tab.open(f"/matches/{match.pk}/")
    expect(page.locator("#replay")).to_have_attribute("data-replay-ready", "")
    expect(page.locator("#replay [data-position]")).to_have_text("Hand 1 of 5, the deal")

    # Swagger UI's nonce'd start-up script runs, fetches the schema and shows it.
    page = tab.open("/api/v1/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Push league API",
                                                                     timeout=SCHEMA_MS)
    expect(page.locator(".opblock").first).to_be_visible()


def test_the_admin_runs_under_the_policy(tab: Tab) -> None:
    from playwright.sync_api import expect

    get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD)
    tournament = knockout_cup()["tournament"]

    page = tab.open("/admin/login/")
    page.get_by_label("Username").fill("boss")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible(
        timeout=TIMEOUT_MS)  # after the login's redirect

    page = tab.open(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    expect(page.get_by_role("heading", name="Change tournament")).to_be_visible()
    # The admin's scripts run: the entries inline offers "Add another", which its JS adds.
    expect(page.get_by_role("button", name="Add another Entry")).to_be_visible()


def test_the_browser_blocks_and_reports_an_inline_handler(tab: Tab) -> None:
    # Without the policy this handler would run and nothing would be reported, which is how
    # the tests above would pass without saying anything.
    from playwright.sync_api import expect

    page = tab.open("/")
    page.evaluate("""() => {
      const image = document.createElement("img");
      image.setAttribute("onerror", "document.body.dataset.hacked = 'yes'");
      image.src = "/no-such-image.png";
      document.body.append(image);
    }""")

    page.wait_for_function("() => window.cspViolations > 0")
    expect(page.locator("body")).not_to_have_attribute("data-hacked", "yes")
    assert any("script-src-attr blocked inline" in text for text in tab.violations), \
        tab.violations
    tab.violations.clear()  # expected here; the fixture fails the test on any other
