"""Chat and presence at a live table, in chromium: two people at a table and a spectator,
each in a browser of their own. The players chat (a message of markup is shown as its
text), the spectator's chat stays apart, a person sends only so many messages at once,
mutes another (the mute holds on a new page) and reports one; a secret duplicate round's
table has no chat. Each seat shows its person connected, away once their tab is hidden,
and gone once it is closed.

The site runs in daphne, as in test_live_table.py (whose fixture it is)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.live import chat, service
from games.live.models import ChatReport, LiveTable
from tests.tournaments.factories import UserFactory
from tests.tournaments.test_online import online, publish_first_round

from . import browser_fixture, expect, made_apart  # noqa: F401  (fixtures)
from . import test_live_table as table_tests
from .test_play_with_friends import Person, browsers

site = table_tests.site  # test_live_table.py's daphne site

pytestmark = pytest.mark.django_db(transaction=True)

MARKUP = '<img src="x" onerror="window.pwned = 1">'




@pytest.fixture
def people(transactional_db: None) -> list[Any]:
    return [get_user_model().objects.create_user(name, password=f"pw-{name}-12345")
            for name in ("ann", "bea", "cid")]


@pytest.fixture
def table(people: list[Any]) -> LiveTable:
    """ann at seat 0 and bea at seat 1, two bots; cid may watch."""
    return made_apart(lambda: service.create_table(
        [service.SeatPlan(user=people[0]), service.SeatPlan(user=people[1]),
         service.SeatPlan(bot="greedy"), service.SeatPlan(bot="greedy")], seed=7))


@pytest.fixture
def open_for(browser: Any, site: str) -> Iterator[Callable[[Any], Person]]:
    with browsers(browser, site) as opener:
        yield opener


def _at(person: Person, site: str, table_id: int) -> Any:
    person.page.goto(f"{site}/tables/{table_id}/")
    expect(person.page.locator("[data-seats] [data-seat-no]")).to_have_count(4)
    return person.page


def _say(page: Any, words: str) -> None:
    page.get_by_label("Your message").fill(words)
    page.get_by_role("button", name="Send").click()


def _lines(page: Any) -> Any:
    return page.locator("[data-chat-lines] .chat-text")


def test_two_players_chat_apart_from_the_spectator_within_the_limits(
        open_for: Callable[[Any], Person], site: str, people: list[Any],
        table: LiveTable) -> None:
    ann, bea, cid = (_at(open_for(person), site, table.pk) for person in people)
    expect(ann.get_by_role("heading", name="Table chat")).to_be_visible()
    expect(cid.get_by_role("heading", name="Spectators' chat")).to_be_visible()
    _say(ann, MARKUP)
    expect(_lines(bea)).to_have_text([MARKUP])  # its text, not an image
    expect(bea.locator("[data-chat-lines] img")).to_have_count(0)
    assert bea.evaluate("window.pwned") is None
    expect(ann.get_by_label("Your message")).to_have_value("")  # sent: the box is empty
    _say(cid, "ann should push")
    expect(_lines(cid)).to_have_text(["ann should push"])  # after ann's line: not shown here
    _say(bea, "thanks")
    expect(_lines(ann)).to_have_text([MARKUP, "thanks"])  # after cid's line: not shown here
    # at most a burst of lines in the window: ann has said one
    for number in range(chat.BURST - 1):
        _say(ann, f"line {number}")
        expect(_lines(ann).last).to_have_text(f"line {number}")
    _say(ann, "one too many")
    expect(ann.locator("[data-chat-error]")).to_have_text(
        f"Not sent: You may send at most {chat.BURST} chat messages in "
        f"{int(chat.WINDOW.total_seconds())} seconds; wait a moment.")
    expect(_lines(bea)).to_have_count(chat.BURST + 1)  # ann's five and bea's own


def test_a_mute_hides_a_person_on_every_page_and_a_report_reaches_the_organisers(
        open_for: Callable[[Any], Person], site: str, people: list[Any],
        table: LiveTable) -> None:
    ann_person, bea_person = open_for(people[0]), open_for(people[1])
    ann, bea = _at(ann_person, site, table.pk), _at(bea_person, site, table.pk)
    _say(ann, "you are slow")
    expect(_lines(bea)).to_have_text(["you are slow"])
    bea.get_by_role("button", name="Report this message of ann to the organisers").click()
    expect(bea.locator("[data-chat-error]")).to_have_text("Reported to the organisers.")
    assert list(ChatReport.objects.values_list("message__text", "reporter__username")) == [
        ("you are slow", "bea")]
    bea.get_by_role("button", name="Mute ann: hide their messages on this browser").click()
    expect(_lines(bea)).to_have_count(0)
    bea.reload()  # the mute is this browser's: it holds on a new page
    expect(bea.get_by_role("button", name="Unmute ann")).to_be_visible()
    _say(ann, "still slow")
    expect(_lines(ann).last).to_have_text("still slow")  # stored: said before bea's line
    _say(bea, "muted you")
    expect(_lines(bea)).to_have_text(["muted you"])
    bea.get_by_role("button", name="Unmute ann").click()
    expect(_lines(bea)).to_have_text(["you are slow", "still slow", "muted you"])


def test_a_secret_duplicate_rounds_table_has_no_chat(
        open_for: Callable[[Any], Person], site: str, people: list[Any]) -> None:
    def publish() -> LiveTable:
        organiser = UserFactory()
        tournament = online(organisers=[organiser], duplicate="matchpoints")
        home = tournament.entries.order_by("seed").first().team
        home.player_a.user = people[0]
        home.player_a.save()
        return LiveTable.objects.get(match=publish_first_round(tournament, organiser))

    ann = _at(open_for(people[0]), site, made_apart(publish).pk)
    expect(ann.locator("[data-chat-closed]")).to_have_text(
        "This table's chat is closed: its round's boards are still secret, so nobody at it "
        "may chat until they are released.")
    expect(ann.get_by_label("Your message")).to_have_count(0)


def _set_hidden(page: Any, hidden: bool) -> None:
    """The page's tab hidden or shown, as the browser says it: headless chromium shows
    every tab (another brought to the front leaves this one visible), so the document
    says so itself and fires the event a browser fires."""
    page.evaluate("""(hidden) => {
      Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
      Object.defineProperty(document, "visibilityState", {configurable: true,
        get: () => hidden ? "hidden" : "visible"});
      document.dispatchEvent(new Event("visibilitychange"));
    }""", hidden)


def _presence(page: Any, seat: int) -> Any:
    return page.locator(f'[data-seats] [data-seat-no="{seat}"] [data-presence]')


def test_a_seat_shows_its_person_away_when_their_tab_is_hidden_and_gone_when_it_closes(
        open_for: Callable[[Any], Person], site: str, people: list[Any],
        table: LiveTable) -> None:
    ann, bea = (_at(open_for(person), site, table.pk) for person in people[:2])
    expect(_presence(bea, 0)).to_have_attribute("data-presence", "connected")
    expect(_presence(bea, 2)).to_have_count(0)  # a bot's seat shows no person
    _set_hidden(ann, True)
    expect(_presence(bea, 0)).to_have_attribute("data-presence", "away")
    _set_hidden(ann, False)
    expect(_presence(bea, 0)).to_have_attribute("data-presence", "connected")
    expect(_presence(bea, 0)).to_contain_text(" ms")  # her lag, once her page measured it
    ann.close()
    expect(_presence(bea, 0)).to_have_attribute("data-presence", "gone")
