"""A person plays a live table in chromium, with the keyboard, on a 390-pixel phone screen:
a whole hand of a seeded deal, the greedy bots answering, until the hand's result shows.

pytest-django's live server speaks WSGI only, so the site runs in daphne (the ASGI server
``make run`` uses) in a process of its own, on the test database, with the bots' tasks run
in that process (eager) without a pause and the in-memory channel layer. A process of its
own needs a database another process can reach, so on SQLite's in-memory test database
these tests are skipped, saying why. The bots are deterministic on a seeded deal and the
person follows a fixed strategy, so the game is the same on every run."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client

from games.live import service
from games.live.models import LiveTable

from ..live.conftest import FIRST, SEED
from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixtures)
from .axe import EVERY_IMPACT, assert_accessible
from .test_csp import Tab

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
RANKS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SERVER_START_S = 60  # only reached when daphne does not start (a failure)


def _in_server(db_blocker: Any, hand_pause: float = 0, bot_pause: float = 0,
               delays: bool = False, move_seconds: int | None = None) -> None:
    """Set up the daphne process (forked from this one): the database open to it, the bots
    moving at once (after a hand's end, after ``hand_pause`` seconds), in the process, and
    the in-memory channel layer. ``delays``: as under ``make run``, tasks due later (the
    bots after ``bot_pause``, the turn timers) wait in the process's timer thread;
    ``move_seconds``: a person's time for a turn at the tables opened there."""
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.conf import settings

    from config.celery import app

    # The one thread all database calls of the consumers go to: this process's parent may
    # have started it (an earlier test), and a thread does not survive a fork, so a copy
    # inherited from the parent would take the calls and never run them.
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    db_blocker.unblock()  # pytest-django's guard, inherited from this process
    settings.LIVE_BOT_PAUSE_SECONDS = bot_pause
    settings.LIVE_HAND_PAUSE_SECONDS = hand_pause
    settings.CELERY_EAGER_DELAYS = delays
    if move_seconds is not None:
        settings.LIVE_MOVE_SECONDS = move_seconds
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    app.conf.task_always_eager = app.conf.task_eager_propagates = True


def _application() -> Any:
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import application

    return ASGIStaticFilesHandler(application)


def serve(django_db_blocker: Any, hand_pause: float = 0, bot_pause: float = 0,
          delays: bool = False, move_seconds: int | None = None) -> Iterator[str]:
    """The site in daphne, on the test database, until the generator is closed; its
    address."""
    with django_db_blocker.unblock():
        if connections["default"].vendor == "sqlite":
            pytest.skip("daphne runs in a process of its own, which SQLite's in-memory test "
                        "database cannot reach; run with DATABASE_URL=postgres://...")
        connections.close_all()  # the server process must not share this one's connection
    from daphne.testing import DaphneProcess

    server = DaphneProcess("127.0.0.1", _application,
                           setup=lambda: _in_server(django_db_blocker, hand_pause, bot_pause,
                                                    delays, move_seconds))
    server.daemon = True  # ended with this process, whatever happens to it
    server.start()
    if not server.ready.wait(timeout=SERVER_START_S):
        server.terminate()
        pytest.fail("daphne did not start")
    yield f"http://127.0.0.1:{server.port.value}"
    server.terminate()
    server.join()


@pytest.fixture(scope="module")
def site(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """The site in daphne, on the test database; its address."""
    yield from serve(django_db_blocker)


@pytest.fixture
def alice(transactional_db: None) -> Any:
    return get_user_model().objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def phone(browser: Any, site: str, alice: Any) -> Iterator[Any]:
    """A tab of a 390-pixel-wide phone in English, logged in as alice; a JavaScript error
    or a Content-Security-Policy violation fails the test."""
    client = Client()
    client.force_login(alice)
    context = browser.new_context(locale="en-US", viewport=PHONE, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": site}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    tab = Tab(page, site)
    yield page
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"
    assert tab.violations == [], f"Content-Security-Policy violations: {tab.violations}"


def _seeded_table(user: Any) -> LiveTable:
    """alice's table on the seeded deal, in the seat that moves first. Made in a thread of
    its own: the table service announces through async_to_sync, which refuses to run in
    this thread, where Playwright keeps its event loop."""
    def make() -> LiveTable:
        try:
            return service.create_practice_table(user, "greedy", seat=FIRST, seed=SEED)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(make).result()


def _view(table: LiveTable, seat: int = FIRST) -> dict[str, Any]:
    """``seat`` (alice's) as the server has it now (what its page is sent)."""
    return service.update_since(table.pk, seat, 0).view


def _label(code: str) -> str:
    """How the page names a card for a screen reader (``7H`` -> ``7 of hearts``)."""
    if code.startswith("JK"):
        return "joker"
    return f"{RANKS.get(code[0], code[0])} of {SUITS[code[1]]}"


def _face(code: str) -> str:
    """How the page draws a card (``TH`` -> ``10♥``)."""
    if code.startswith("JK"):
        return "JK"
    return ("10" if code[0] == "T" else code[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[1]]


def _press(page: Any, button: Any) -> None:
    """Use ``button`` with the keyboard: focus it, press Enter."""
    expect(button).to_be_enabled()
    button.focus()
    page.keyboard.press("Enter")


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    expect(page.locator("html")).to_have_js_property("scrollWidth", width)


def _select(page: Any, codes: list[str]) -> None:
    """Select the cards ``codes`` in the hand (toggle buttons), with the space bar."""
    for code in codes:
        name = re.compile(rf"^{re.escape(_label(code.split('=')[0]))}(,|$)")
        card = page.locator("[data-hand]").get_by_role("button", name=name, pressed=False).first
        card.focus()
        page.keyboard.press("Space")
    expect(page.locator("[data-hand] [aria-pressed=true]")).to_have_count(len(codes))


def test_a_person_plays_a_whole_hand_against_the_bots(phone: Any, site: str, alice: Any) -> None:
    page = phone
    table = _seeded_table(alice)
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.get_by_role("heading", name="Your hand")).to_be_visible()
    turn = page.locator("[data-turn]")
    take = page.get_by_role("button", name="Take the discard")
    log = page.get_by_role("log")
    expect(page.locator("[data-hand] button")).to_have_count(6)
    _no_sideways_scroll(page)

    turns = 0
    while not _view(table)["scores"]:  # until hand 1 has ended
        turns += 1
        # the draw: always the first legal one, "take" (R6.3)
        _press(page, take)
        expect(turn).to_have_text(re.compile("^Your turn: lay down"))
        if turns == 1:
            # a reload mid-turn: the page picks the game up where it was
            page.reload()
            expect(turn).to_have_text(re.compile("^Your turn: lay down"))
            # one card is no contract: the page says so, and nothing is played
            _select(page, [_view(table)["hand"][0]])
            _press(page, page.get_by_role("button", name="Lay down the selection"))
            expect(page.get_by_role("alert")).to_have_text(
                "The selected cards don't make this hand's contract (two sets of 3) in any "
                "legal way.")
            _press(page, page.get_by_role("button", name="Clear the selection"))
            expect(page.locator("[data-selection]")).to_have_text("No cards selected.")
        view = _view(table)
        contract = next((a for a in view["legal"] if a.startswith(f"{FIRST} contract ")), None)
        if contract is not None:
            cards = re.findall(r"[2-9TJQKA][SHDC]|JK", contract)
            _select(page, cards)
            _press(page, page.get_by_role("button", name="Lay down the selection"))
            # on this deal the two 2s can stand in either set: both ways leave the same
            # melds on the table (a wild 2 is a wild 2), so the page asks nothing
            expect(log.get_by_text("alice lays down the contract")).to_be_visible()
            expect(page.locator("[data-choices]")).to_be_hidden()
            view = _view(table)
        if view["hand"] and view["to_move"] == FIRST:
            # the discard: the first card shown (sorted by suit) that may go (R6.5)
            keys = page.locator("[data-hand] button").evaluate_all(
                "buttons => buttons.map(b => b.getAttribute('data-key'))")
            code = next(k.split("#")[0] for k in keys
                        if f"{FIRST} discard {k.split('#')[0]}" in view["legal"])
            _select(page, [code])
            _press(page, page.get_by_role("button", name="Discard the selected card"))
            expect(log).to_contain_text(f"alice discards {_face(code)}.")
        if not _view(table)["scores"]:
            expect(take).to_be_enabled()  # the bots have played round to alice again
        assert turns < 100, "the hand should have ended long ago"

    scores = _view(table)["scores"][0]
    row = page.locator("[data-scores] tr")
    expect(row).to_have_count(1)
    expect(row).to_have_text(re.compile(rf"^\s*1\s*{scores[0]}\s*{scores[1]}\s*$"))
    teams = ["Your team", "Opponents"] if FIRST % 2 == 0 else ["Opponents", "Your team"]
    expect(log).to_contain_text(
        f"Hand score: {teams[0]} {scores[0]}, {teams[1]} {scores[1]}.")
    expect(page.locator("[data-hand-no]")).to_have_text("Hand 2 of 5")
    _no_sideways_scroll(page)


def test_play_now_from_the_home_page_opens_a_table(phone: Any, site: str) -> None:
    page = phone
    page.goto(f"{site}/")
    page.get_by_label("Bots' level").select_option("random")
    page.get_by_role("button", name="Play now").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("[data-hand] button")).not_to_have_count(0)
    expect(page.locator("[data-turn]")).to_have_text("Your turn: take the top discard or push.")
    expect(page.get_by_role("button", name="Push")).to_be_enabled()
    _no_sideways_scroll(page)


def test_a_spectator_sees_the_table_but_no_hand(phone: Any, site: str, alice: Any) -> None:
    page = phone
    table = _seeded_table(alice)
    page.context.clear_cookies()
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.locator(".lead")).to_have_text(re.compile("^You are watching this table"))
    expect(page.locator("[data-turn]")).to_have_text("alice to move.")
    expect(page.get_by_role("list", name="Players").get_by_role("listitem")).to_have_text(
        [re.compile(rf"^Bot in seat {s} bot greedy6 cards") if s != FIRST else
         re.compile("^alice6 cards") for s in range(4)])
    expect(page.locator("[data-hand]")).to_have_count(0)
    expect(page.get_by_role("button", name="Take the discard")).to_have_count(0)
    _no_sideways_scroll(page)


def test_a_move_whose_answer_is_lost_is_resent_and_counts_once(
        phone: Any, site: str, alice: Any) -> None:
    """The connection drops after the server has the move but before the page hears back:
    the page reconnects, catches up, resends the move with its id, and it counts once."""
    page = phone
    table = _seeded_table(alice)
    cut: list[str] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        if cut:
            return  # later connections pass everything through

        def to_server(message: str) -> None:
            server.send(message)
            if '"act"' in message:  # the server has it; the page will never hear back
                cut.append(message)
                ws.close()

        ws.on_message(to_server)
        server.on_message(lambda message: None if cut else ws.send(message))

    page.route_web_socket(re.compile(r"/ws/tables/\d+/$"), route)
    page.goto(f"{site}/tables/{table.pk}/")
    _press(page, page.get_by_role("button", name="Take the discard"))
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn: lay down"))
    expect(page.get_by_role("log").get_by_text("alice takes")).to_have_count(1)
    expect(page.locator("[data-hand] button")).to_have_count(7)
    expect(page.locator("[data-connection]")).to_have_text("")
    # the page has its answer: it takes the next move (a discard) again
    code = next(a.split()[-1] for a in _view(table)["legal"] if " discard " in a)
    _select(page, [code])
    expect(page.get_by_role("button", name="Discard the selected card")).to_be_enabled()
    assert cut, "the connection was cut after the move"


def _check(page: Any) -> None:
    assert_accessible(page, EVERY_IMPACT)


def _finished_table(user: Any) -> LiveTable:
    """alice's seeded table played out (she lays down when she can, else discards the first
    card she may), the bots answering at once in this process; in a thread of its own, like
    ``_seeded_table``."""
    def play() -> LiveTable:
        try:
            table = service.create_practice_table(user, "greedy", seat=FIRST, seed=SEED)
            n = 0
            while (view := _view(table))["status"] == LiveTable.Status.PLAYING:
                legal = view["legal"]
                action = next((a for a in legal if " discard " not in a), legal[0])
                service.table_act(table.pk, FIRST, action, f"h{n}")
                n += 1
            return table
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(play).result()


def test_the_table_pages_pass_axe_core(phone: Any, site: str, alice: Any, settings: Any,
                                       eager_tasks: None) -> None:
    """axe-core, all its rules, on the live table as its player sees it (at the
    start, then mid-turn with a card selected and the page's error), on a finished game's
    table page and replay (stepped into a hand), and on the table as a spectator sees it."""
    page = phone
    table = _seeded_table(alice)
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.locator("[data-hand] button")).to_have_count(6)
    expect(page.get_by_role("button", name="Take the discard")).to_be_enabled()
    _check(page)
    _press(page, page.get_by_role("button", name="Take the discard"))
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn: lay down"))
    _select(page, [_view(table)["hand"][0]])
    _press(page, page.get_by_role("button", name="Lay down the selection"))
    expect(page.get_by_role("alert")).not_to_have_text("")
    _check(page)

    settings.LIVE_BOT_PAUSE_SECONDS = 0
    finished = _finished_table(alice)
    page.goto(f"{site}/tables/{finished.pk}/")
    expect(page.get_by_role("link", name="Replay this game")).to_be_visible()
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    expect(page.locator("[data-final]")).not_to_have_text("")  # its state has come
    _check(page)
    page.get_by_role("link", name="Replay this game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Table {finished.pk}: replay")
    _check(page)
    expect(page.locator("#replay")).to_have_attribute("data-replay-ready", "")  # it listens
    page.get_by_role("button", name="Hand 2").click()
    expect(page.get_by_role("button", name="Hand 2")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Forward ›").click()
    expect(page.locator("[data-action]")).not_to_have_text("")
    _check(page)

    page.context.clear_cookies()
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.locator(".lead")).to_have_text(re.compile("^You are watching this table"))
    expect(page.get_by_role("list", name="Players").get_by_role("listitem")).to_have_count(4)
    expect(page.locator("[data-turn]")).not_to_have_text("")  # its state has come
    _check(page)
