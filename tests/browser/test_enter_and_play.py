"""Two people from entering to playing, in two chromium contexts: aino enters an online
tournament open for entries, naming cai as her partner; cai's open page is told at once
(the header's count and the notice), and cai accepts from the notifications page; the
scheduler starts the round, both open pages are told their table is ready and follow the
notice's link to it, and the two play a whole hand there as partners against two bots,
each making their own moves on their own page.

The site runs in daphne, sharing a Redis pub/sub channel layer with this process, as in
test_online_round.py (whose fixtures these are): the notices of the round this process
starts reach the pages over their inbox websocket, as a Celery worker's would."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.live.models import LiveSeat, LiveTable
from tournaments import services
from tournaments.models import Entry, Match, Schedule, Tournament

from ..live.conftest import SEED
from ..tournaments.entering import open_tournament
from ..tournaments.factories import PlayerFactory, TeamFactory, UserFactory
from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixtures)
from . import test_online_round as online_tests
from .test_live_table import _face, _press, _select
from .test_online_round import _in_thread, _view
from .test_play_with_friends import Person

# test_online_round.py's fixtures: its daphne site on the shared Redis channel layer, and the
# people's browsers
layers, site, people = online_tests.layers, online_tests.site, online_tests.people

pytestmark = pytest.mark.django_db(transaction=True)

NAME = "Winter Pairs"
DRAW = "Your turn: take the top discard or push."


def _person(name: str) -> Any:
    """A player with a login of the same name (its handle, in lower case)."""
    user = get_user_model().objects.create_user(name.lower(), password="pw-enter-12345")
    PlayerFactory(name=name, handle=name.lower(), user=user)
    return user


class Inbox:
    """Whether a page's inbox websocket is listening: the socket sends the unread count
    once it has joined its person's group, and only a notice sent after that reaches the
    page. The listeners are set before the page opens anything, so no frame goes unseen; a
    page loaded anew listens once its own socket has been answered."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.socket: Any = None
        self.listening = False
        page.on("framenavigated", self._navigated)
        page.on("websocket", self._opened)

    def _navigated(self, frame: Any) -> None:
        if frame == self.page.main_frame:
            self.socket, self.listening = None, False

    def _opened(self, socket: Any) -> None:
        if "/ws/inbox/" in socket.url:
            self.socket, self.listening = socket, False
            socket.on("framereceived", lambda _frame: self._heard(socket))

    def _heard(self, socket: Any) -> None:
        if socket is self.socket:
            self.listening = True

    def wait(self) -> None:
        """Until the socket of the page shown now has been answered."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while not self.listening:
            assert time.monotonic() < deadline, "the page's inbox socket never answered"
            self.page.wait_for_timeout(25)  # Playwright delivers the socket's frames meanwhile


def _scheduled(tournament: Tournament, organiser: Any) -> Schedule:
    """Round 1 on a schedule, an hour from now."""
    return services.schedule_save(schedule=Schedule(
        tournament=tournament, starts_at=timezone.now() + timedelta(hours=1)), user=organiser)


def _start_round(tournament: Tournament, organiser: Any, schedule: Schedule) -> LiveTable:
    """The organiser pairs round 1 as a draft, dealt from the seeded deal (the bots are
    deterministic, so the hand goes the same way every run), and the scheduler publishes
    it at its time, as beat's tick does; the round's live table."""
    round = _in_thread(lambda: services.round_pair_next(tournament=tournament, user=organiser))
    Match.objects.filter(round=round).update(seed=SEED)
    assert _in_thread(lambda: services.schedule_tick(now=schedule.starts_at)) == 1
    return LiveTable.objects.get(match__round=round)


def _whose_turn(table: LiveTable, seats: dict[int, Any]) -> int | None:
    """The person's seat to draw next (the bots between them play at once), or None once
    the hand has ended."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        view = _view(table, next(iter(seats)))
        if view["scores"]:
            return None
        if view["to_move"] in seats and view["phase"] == "draw":
            return int(view["to_move"])
        assert time.monotonic() < deadline, f"nobody's turn: {view['to_move']}, {view['phase']}"
        time.sleep(0.02)


def _play_turn(page: Any, table: LiveTable, seat: int, name: str) -> None:
    """One turn on ``page``, through its buttons: take the discard (R6.3), then discard the
    first card shown that may go (R6.5). (On this deal a bot goes out before either person
    could lay down a contract.)"""
    turn, log = page.locator("[data-turn]"), page.get_by_role("log")
    expect(turn).to_have_text(DRAW)
    _press(page, page.get_by_role("button", name="Take the discard"))
    expect(turn).to_have_text(re.compile("^Your turn: lay down"))
    legal = _view(table, seat)["legal"]
    keys = page.locator("[data-hand] button").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('data-key'))")
    code = next(k.split("#")[0] for k in keys if f"{seat} discard {k.split('#')[0]}" in legal)
    _select(page, [code])
    _press(page, page.get_by_role("button", name="Discard the selected card"))
    # the log shows it; unless a bot went out at once and the next hand's log began, when
    # the hand's score does
    discarded = log.get_by_text(re.compile(rf"^{name} discards {_face(code)}\.", re.I))
    expect(discarded.or_(page.locator("[data-scores] tr")).first).to_be_visible()


def test_two_people_enter_together_are_told_their_table_is_ready_and_play_a_hand(
        people: Callable[[Any], Person], site: str) -> None:
    organiser = UserFactory(username="ines")
    tournament = open_tournament(name=NAME, play=Tournament.Play.ONLINE, bot_level="greedy",
                                 format=Tournament.Format.ROUND_ROBIN, organisers=[organiser])
    Entry.objects.create(tournament=tournament, team=TeamFactory(name="The Bots"))  # no logins
    schedule = _scheduled(tournament, organiser)
    aino, cai = _person("Aino"), _person("Cai")
    asker, partner = people(aino).page, people(cai).page
    asker_inbox, partner_inbox = Inbox(asker), Inbox(partner)

    # cai has the site open; aino asks him from the tournament's page
    partner.goto(f"{site}/")
    partner_inbox.wait()
    asker.goto(f"{site}/tournaments/{tournament.pk}/")
    asker.get_by_label("Your partner's handle").fill("@cai")
    asker.get_by_role("button", name="Enter with a partner").click()
    expect(asker.get_by_text("You asked @cai to enter with you")).to_be_visible()

    # cai's page is told at once: the header's count, and the notice itself
    asks = f"Aino asks you to enter {NAME} with them."
    count = partner.locator("[data-inbox-count]")
    expect(count).to_have_text("unread: 1")
    expect(partner.locator("[data-inbox-notice]")).to_have_text(asks)
    partner.get_by_role("link", name=re.compile("^Notifications")).click()
    expect(partner.get_by_role("heading", level=1)).to_have_text("Notifications")
    partner.get_by_role("link", name=asks).click()
    expect(partner.get_by_role("heading", level=1)).to_have_text(f"Enter {NAME}?")
    asker_inbox.wait()
    partner.get_by_role("button", name="Accept").click()
    expect(partner.get_by_text("This request is answered: entered.")).to_be_visible()
    # aino's open page hears that the team is entered
    expect(asker.locator("[data-inbox-notice]")).to_have_text(
        f"The entry of Aino & Cai to {NAME} is accepted.")
    partner_inbox.wait()

    # the scheduler starts the round: both open pages are told, with the table's link
    table = _start_round(tournament, organiser, schedule)
    ready = f"Your table is ready: table 1, round 1 of {NAME}."
    for page in (asker, partner):
        notice = page.locator("[data-inbox-notice]")
        expect(notice).to_have_text(ready)
        expect(notice).to_have_class(re.compile(r"\bprominent\b"))
        notice.get_by_role("link", name=ready).click()
        expect(page).to_have_url(f"{site}/tables/{table.pk}/")
        expect(page.get_by_role("heading", name="Your hand")).to_be_visible()

    # partners (R1.1), two bots their opponents; each plays their own turns on their page
    seats = {seat.seat: seat.user for seat in LiveSeat.objects.filter(table=table)}
    mine = {seat: user for seat, user in seats.items() if user is not None}
    assert sorted(user.username for user in mine.values()) == ["aino", "cai"]
    assert len({seat % 2 for seat in mine}) == 1
    pages = {seat: asker if user == aino else partner for seat, user in mine.items()}
    turns = dict.fromkeys(mine, 0)
    while (seat := _whose_turn(table, mine)) is not None:
        _play_turn(pages[seat], table, seat, mine[seat].username)
        turns[seat] += 1
        assert sum(turns.values()) < 100, "the hand should have ended long ago"
    assert all(turns.values()), f"each person played: {turns}"

    scores = _view(table, next(iter(mine)))["scores"][0]
    for page in (asker, partner):
        expect(page.locator("[data-scores] tr")).to_have_count(1)
        expect(page.locator("[data-scores] tr")).to_have_text(
            re.compile(rf"^\s*1\s*{scores[0]}\s*{scores[1]}\s*$"))
