"""A round played online, in chromium: a person's clock runs out and the stand-in plays
that turn; a person leaves mid-turn, their substitute plays on and they take the seat
back; the organiser pauses a table and seats a bot for the rest of the game from the
director's view; the bots finish a game whose person was marked absent and its result
reaches the standings with nobody entering it; and an invite link works once.

The site runs in daphne, on the test database, with the bots' tasks run in its process
(eager) as in test_live_table.py. Here the test's own process moves the game on too, as
the sweep and the workers would (a deadline passed, a person gone longer than the grace,
another person's turn), so both processes share a Redis pub/sub channel layer (a prefix
of their own), and the pages hear of what either does. Time passing is a time moved into
the past in the database: no test sleeps."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, TypeVar

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from config.environment import read
from games.live import followups, presence, service, turns
from games.live.models import LiveSeat, LiveTable
from games.live.seating import load
from games.live.service import SeatPlan
from tournaments import services
from tournaments.models import Entry, Match, Player, Result, Tournament

from ..live.conftest import FIRST, SEED, _redis_url, run_out
from ..tournaments.factories import TeamFactory, TournamentFactory, UserFactory
from ..tournaments.test_online import online
from . import browser_fixture, expect  # noqa: F401  (fixtures)
from .test_live_table import SERVER_START_S, _application
from .test_play_with_friends import Person, browsers

pytestmark = pytest.mark.django_db(transaction=True)

MARK = "(played by a bot)"
DRAW = "Your turn: take the top discard or push."
GRACE = 60
PASSWORD = "pw-online-123"
T = TypeVar("T")


@pytest.fixture(scope="module")
def layers() -> Iterator[dict[str, Any]]:
    """The channel layer this process and the site's share: Redis pub/sub, with a prefix
    no other run uses (pub/sub ignores the Redis db number)."""
    url = _redis_url()
    if url is None:
        reason = "no Redis answers for the channel layer the test and the site share"
        if read().PUSH_REQUIRE_SERVICES:
            pytest.fail(f"PUSH_REQUIRE_SERVICES=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    from channels.layers import channel_layers

    shared = {"default": {"BACKEND": "games.live.layer.PubSubChannelLayer",
                          "CONFIG": {"hosts": [url], "prefix": f"test-online-{os.getpid()}"}}}
    override = override_settings(CHANNEL_LAYERS=shared)
    override.enable()
    channel_layers.backends.clear()
    yield shared
    override.disable()
    channel_layers.backends.clear()


def _in_server(db_blocker: Any, layers: dict[str, Any]) -> None:
    """Set up the daphne process (forked from this one), as test_live_table's does, but
    with the channel layer this process uses too."""
    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.conf import settings

    from config.celery import app

    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)  # not the parent's
    db_blocker.unblock()
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    settings.LIVE_HAND_PAUSE_SECONDS = 0
    settings.CHANNEL_LAYERS = layers
    channel_layers.backends.clear()
    app.conf.task_always_eager = app.conf.task_eager_propagates = True


@pytest.fixture(scope="module")
def site(django_db_setup: None, django_db_blocker: Any, layers: dict[str, Any]) -> Iterator[str]:
    """The site in daphne, on the test database; its address."""
    with django_db_blocker.unblock():
        if connections["default"].vendor == "sqlite":
            pytest.skip("daphne runs in a process of its own, which SQLite's in-memory test "
                        "database cannot reach; run with DATABASE_URL=postgres://...")
        connections.close_all()
    from daphne.testing import DaphneProcess

    server = DaphneProcess("127.0.0.1", _application,
                           setup=lambda: _in_server(django_db_blocker, layers))
    server.daemon = True
    server.start()
    if not server.ready.wait(timeout=SERVER_START_S):
        server.terminate()
        pytest.fail("daphne did not start")
    yield f"http://127.0.0.1:{server.port.value}"
    server.terminate()
    server.join()


@pytest.fixture
def people(browser: Any, site: str, eager_tasks: None) -> Iterator[Callable[[Any], Person]]:
    """Opens a browser for a user (logged in; None: logged out); each is closed at the end,
    failing the test on a JavaScript error or a Content-Security-Policy violation
    (``browsers``). The bots' tasks this process sends run in it at once."""
    with browsers(browser, site) as open_for:
        yield open_for


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(name, password=PASSWORD)


def _in_thread(work: Callable[[], T]) -> T:
    """``work`` in a thread with a database connection of its own: the table service
    announces through the channel layer, which cannot run in this thread, where
    Playwright keeps its event loop."""
    def run() -> T:
        try:
            return work()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def _eventually(check: Callable[[], bool], what: str) -> None:
    """Wait until the server's state passes ``check`` (what a page cannot show)."""
    deadline = time.monotonic() + 10
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def _view(table: LiveTable, seat: int) -> dict[str, Any]:
    return service.update_since(table.pk, seat, 0).view


def _play_turn(table: LiveTable, seat: int, tag: str) -> None:
    """The person at ``seat`` draws and discards, through the table service (the bots
    answer at once, in this process)."""
    def play() -> None:
        draw = next(a for a in _view(table, seat)["legal"] if a.endswith((" take", " push")))
        service.table_act(table.pk, seat, draw, f"{tag}-1")
        discard = next(a for a in _view(table, seat)["legal"] if " discard " in a)
        service.table_act(table.pk, seat, discard, f"{tag}-2")
    _in_thread(play)


def _seats(page: Any) -> Any:
    return page.get_by_role("list", name="Players").get_by_role("listitem")


def _lines(page: Any, pattern: str) -> Any:
    """The log's lines that start with ``pattern`` (a regular expression)."""
    return page.get_by_role("log").get_by_role("listitem").filter(
        has_text=re.compile(f"^{pattern}"))


def _discard_by_hand(page: Any, table: LiveTable, seat: int) -> None:
    """Select a card the seat may discard and discard it, through the page."""
    code = next(a.split()[-1] for a in _view(table, seat)["legal"] if " discard " in a)
    page.locator(f'[data-hand] button[data-key="{code}#0"]').click()
    page.get_by_role("button", name="Discard the selected card").click()


# -- the clock -----------------------------------------------------------------------------

def _alice_with_bots(people: Callable[[Any], Person], site: str) -> tuple[LiveTable, Any]:
    """A table of alice (seat FIRST, a minute a turn, no reserve) and three bots, and her
    page open at it."""
    alice = _user("alice")
    table = _in_thread(lambda: service.create_table(
        [SeatPlan(user=alice) if s == FIRST else SeatPlan(bot="greedy") for s in range(4)],
        seed=SEED, move_seconds=60, reserve_seconds=0))
    page = people(alice).page
    page.goto(f"{site}/tables/{table.pk}/")
    return table, page


def test_the_clock_runs_out_the_stand_in_plays_that_turn_and_the_person_the_next(
        people: Callable[[Any], Person], site: str) -> None:
    table, page = _alice_with_bots(people, site)
    turn, clock = page.locator("[data-turn]"), page.locator("[data-deadline]")
    expect(turn).to_have_text(DRAW)
    expect(clock).to_have_text(re.compile(r"^Turn (1:00|0:5\d) · Reserve 0:00$"))
    expect(_seats(page).first).to_have_text(re.compile(r"^alice \(you\)6 cards · reserve 0:00"))

    run_out(table)  # the minute has passed
    assert _in_thread(followups.sweep)["turns_timed_out"] == 1  # as beat runs it
    # the stand-in drew and discarded for alice, marked; the bots' own seats are not
    expect(_lines(page, "alice (takes|pushes)").filter(has_text=MARK)).to_have_count(1)
    expect(_lines(page, "alice discards").filter(has_text=MARK)).to_have_count(1)
    expect(page.get_by_role("log").get_by_role("listitem").filter(has_text=MARK).filter(
        has_not_text=re.compile("^alice"))).to_have_count(0)
    # round the table to alice again: her turn, with the turn's time, played by her
    expect(page.get_by_role("log").get_by_text(DRAW, exact=True)).to_have_count(2)
    expect(clock).to_have_text(re.compile(r"^Turn (1:00|0:5\d) · Reserve 0:00$"))
    page.get_by_role("button", name="Take the discard").click()
    expect(turn).to_have_text(re.compile("^Your turn: lay down"))
    expect(_lines(page, "alice takes").filter(has_not_text=MARK)).to_have_count(1)
    _discard_by_hand(page, table, FIRST)
    expect(_lines(page, "alice discards").filter(has_not_text=MARK)).to_have_count(1)
    expect(_lines(page, "alice").filter(has_not_text=MARK)).to_have_count(2)  # hers alone


@contextmanager
def _notices_lost(layers: dict[str, Any]) -> Iterator[None]:
    """The notices this process sends go where the site does not listen (a channel layer
    may drop any of them, and a connection that falls behind reads several actions at
    once)."""
    from channels.layers import channel_layers

    elsewhere = {"default": {**layers["default"], "CONFIG": {
        **layers["default"]["CONFIG"], "prefix": f"test-lost-{os.getpid()}"}}}
    with override_settings(CHANNEL_LAYERS=elsewhere):
        channel_layers.backends.clear()
        yield
    channel_layers.backends.clear()


def test_a_turn_that_comes_round_in_one_update_is_still_told(
        people: Callable[[Any], Person], site: str, layers: dict[str, Any]) -> None:
    table, page = _alice_with_bots(people, site)
    told = page.get_by_role("log").get_by_text(DRAW, exact=True)
    expect(told).to_have_count(1)

    run_out(table)
    with _notices_lost(layers):  # the stand-in's turn and the three bots' after it
        assert _in_thread(followups.sweep)["turns_timed_out"] == 1
    view = _view(table, FIRST)
    assert (view["to_move"], view["phase"]) == (FIRST, "draw")  # round to alice
    _in_thread(lambda: turns.announce(table.pk, view["seq"]))  # the one notice that arrives

    expect(_lines(page, "alice discards").filter(has_text=MARK)).to_have_count(1)
    expect(told).to_have_count(2)
    expect(page.locator("[data-turn]")).to_have_text(DRAW)


# -- a person gone, and back ---------------------------------------------------------------

def test_a_person_gone_mid_turn_is_played_for_and_takes_the_seat_back(
        people: Callable[[Any], Person], site: str) -> None:
    alice, bob = _user("alice"), _user("bob")
    mine, his = FIRST, (FIRST + 1) % 4  # bob plays after alice
    table = _in_thread(lambda: service.create_table(
        [SeatPlan(user=alice) if s == mine else SeatPlan(user=bob) if s == his
         else SeatPlan(bot="greedy") for s in range(4)],
        seed=SEED, move_seconds=None, grace_seconds=GRACE))
    url = f"{site}/tables/{table.pk}/"
    her, him = people(alice), people(bob)
    her.page.goto(url)
    him.page.goto(url)
    alice_seen_by_bob = _seats(him.page).filter(has_text=re.compile("^alice"))
    expect(alice_seen_by_bob).to_have_text(re.compile(r"^alice6 cards"))
    her.page.get_by_role("button", name="Take the discard").click()
    expect(her.page.locator("[data-turn]")).to_have_text(re.compile("^Your turn: lay down"))
    expect(_lines(him.page, "alice takes")).to_have_count(1)

    # her page goes mid-turn; once the server has heard her leave, the grace passes
    left = timezone.now()
    her.page.close()
    seat = LiveSeat.objects.filter(table=table, seat=mine)
    # her leaving itself (the tab closed), not the heartbeat a closing page sends as it hides
    _eventually(lambda: seat.get().tab == LiveSeat.Tab.CLOSED
                and (seat.get().seen or left) > left, "the server heard alice leave")
    seat.update(seen=timezone.now() - timedelta(seconds=GRACE + 5))
    # the sweep's away check; the one her leaving scheduled (run at once here) may be first
    _in_thread(lambda: presence.check_away(table.pk))
    assert load(LiveTable.objects.get(pk=table.pk).seating)[mine].away

    # her substitute finishes her turn, and bob's page says so
    expect(alice_seen_by_bob).to_have_text(re.compile(r"^alice bot playing for now\d+ cards"))
    expect(_lines(him.page, "alice discards").filter(has_text=MARK)).to_have_count(1)
    expect(him.page.locator("[data-turn]")).to_have_text(DRAW)

    # she opens the table again: the seat is hers, and she plays on once bob has
    back = people(alice).page
    back.goto(url)
    expect(_seats(back).first).to_have_text(re.compile(r"^alice \(you\)\d+ cards"))
    expect(back.locator("[data-turn]")).to_have_text("bob to move.")
    expect(alice_seen_by_bob).to_have_text(re.compile(r"^alice\d+ cards"))
    him.page.get_by_role("button", name="Take the discard").click()
    expect(_lines(him.page, "bob takes")).to_have_count(1)
    _discard_by_hand(him.page, table, his)
    expect(back.locator("[data-turn]")).to_have_text(DRAW)  # the two bots have played
    back.get_by_role("button", name="Take the discard").click()
    # both pages show the hand so far: her take before she left, and this one
    expect(_lines(back, "alice takes").filter(has_not_text=MARK)).to_have_count(2)
    expect(_lines(him.page, "alice takes").filter(has_not_text=MARK)).to_have_count(2)
    expect(_seats(back).first).to_have_text(re.compile(r"^alice \(you\)\d+ cards"))


# -- the director --------------------------------------------------------------------------

def _seated(tournament: Tournament, organiser: Any, *names: str) -> tuple[Match, list[Any]]:
    """Round 1 paired and published, dealt from the seeded deal (the bots are
    deterministic, so the game goes the same way every run), logins (and the players'
    names with them) given first to the player at the seat that moves first, then to the
    next seats' players; the match and the users."""
    round = _in_thread(lambda: services.round_pair_next(tournament=tournament, user=organiser))
    match = round.matches.get(is_bye=False)
    Match.objects.filter(pk=match.pk).update(seed=SEED)
    seats = {seat.position: seat.player for seat in match.seats.select_related("player")}
    users = []
    for offset, name in enumerate(names):
        player = seats[(FIRST + offset) % 4]
        player.user = _user(name)
        player.name = name  # the table names its people as the tournament does
        player.save(update_fields=["user", "name"])
        users.append(player.user)
    _in_thread(lambda: services.round_publish(round=round, user=organiser))
    return Match.objects.select_related("live_table").get(pk=match.pk), users


def test_the_organiser_pauses_a_table_and_seats_a_bot_for_the_rest_of_the_game(
        people: Callable[[Any], Person], site: str) -> None:
    organiser = UserFactory(username="ines")
    tournament = online(organisers=[organiser], turn_seconds=60, reserve_seconds=120,
                        grace_seconds=90)
    match, (alice, _bob) = _seated(tournament, organiser, "alice", "bob")
    table = match.live_table
    assert table is not None
    mine = LiveSeat.objects.get(table=table, user=alice).seat
    his = (mine + 1) % 4
    player = people(alice).page
    player.goto(f"{site}/tables/{table.pk}/")
    expect(player.locator("[data-turn]")).to_have_text(DRAW)
    director = people(organiser).page
    director.goto(site + reverse("admin:tournaments_tournament_director", args=[tournament.pk]))
    row = director.locator(f'tr[data-director-table="{table.pk}"]')
    done = director.locator(".messagelist")

    row.get_by_role("button", name="Pause").click()
    expect(done).to_have_text(f"Done at table {table.pk}.")
    expect(row.locator("[data-paused]")).to_have_text("paused")
    paused = player.locator("[data-paused]")
    expect(paused).to_have_text(
        "The director has paused this table: no clock runs until play resumes.")
    expect(paused).to_be_visible()
    # the page offers no move while paused (the server would refuse one too)
    expect(player.get_by_role("button", name="Take the discard")).to_have_attribute(
        "aria-disabled", "true")
    expect(player.locator("[data-hand] button")).to_have_count(6)  # nothing was taken

    row.get_by_role("button", name="Resume").click()
    expect(row.get_by_role("button", name="Pause")).to_be_visible()
    expect(paused).to_be_hidden()
    player.get_by_role("button", name="Take the discard").click()
    expect(_lines(player, "alice takes")).to_have_count(1)

    row.locator(f'li[data-seat="{mine}"]').get_by_role(
        "button", name="Seat a bot for the rest of the game").click()
    expect(done).to_have_text(f"Done at table {table.pk}.")
    expect(row.locator(f'li[data-seat="{mine}"]')).to_contain_text(
        "bot (greedy) for the rest of the game")
    expect(_seats(player).first).to_have_text(
        re.compile(r"^alice \(you\) bot for the rest of the game"))
    # the bot finished her turn; bob's is next
    expect(_lines(player, "alice discards").filter(has_text=MARK)).to_have_count(1)
    expect(player.locator("[data-turn]")).to_have_text("bob to move.")
    _play_turn(table, his, "bob")
    # round the table: her whole turn is the bot's, and bob is to move again
    expect(_lines(player, "bob discards")).to_have_count(1)
    expect(_lines(player, "alice (takes|pushes)").filter(has_text=MARK)).to_have_count(1)
    expect(_lines(player, "alice discards").filter(has_text=MARK)).to_have_count(2)
    expect(player.locator("[data-turn]")).to_have_text("bob to move.")
    expect(player.get_by_role("button", name="Take the discard")).to_be_disabled()
    expect(_seats(player).first).to_contain_text("bot for the rest of the game")


# -- the result, with nobody entering it --------------------------------------------------

def test_the_bots_finish_a_game_and_its_result_reaches_the_standings(
        people: Callable[[Any], Person], site: str) -> None:
    organiser = UserFactory(username="ines")
    tournament = online(organisers=[organiser], name="Online Cup")
    match, (alice,) = _seated(tournament, organiser, "alice")
    absent = Player.objects.get(user=alice)
    director = people(organiser).page
    director.goto(site + reverse("admin:tournaments_checkin_roster", args=[tournament.pk]))
    director.get_by_label(f"{absent} · ").uncheck()
    director.get_by_role("button", name="Save check-in").click()  # alice is absent after all
    expect(director.locator(".messagelist")).to_have_text(
        "Round 1: 3 present, 1 absent; 1 seat(s) now have a bot.")

    public = people(None).page
    public.goto(site + reverse("tournaments:round_detail", args=[tournament.pk, 1]))
    card = public.locator("article.table-card")
    expect(card.locator("h3 .badge-status")).to_have_text("done")  # the bots have finished
    result = Result.objects.get(match=match)
    assert result.source == Result.Source.ONLINE and result.entered_by is None
    assert LiveTable.objects.get(match=match).record == result.record
    sides = card.locator(".table-side")
    for side, total in ((sides.nth(0), result.total_a), (sides.nth(1), result.total_b)):
        expect(side.locator(".total")).to_have_text(re.compile(rf"^{total}(\s|$)"))
    expect(card).to_contain_text(f"substitute for {absent.name}")

    # the tournament's scoring, its defaults: 2 points a win, 1 a draw, 0 a loss
    points = {"a": ("2", "0"), "b": ("0", "2"), "d": ("1", "1")}[result.winner]
    public.goto(site + reverse("tournaments:standings", args=[tournament.pk]))
    for team, expected in zip((match.team_a, match.team_b), points, strict=True):
        cells = public.locator(f'#standings-table tr[data-team="{team.pk}"] td')
        expect(cells.nth(1)).to_have_text(expected)  # points
        expect(cells.nth(2)).to_have_text("1")  # played


# -- an invite link ------------------------------------------------------------------------

def test_an_invite_link_links_one_account_and_refuses_a_second_use(
        people: Callable[[Any], Person], site: str) -> None:
    organiser = UserFactory(username="ines")
    team = TeamFactory(player_a__name="Ville")
    Entry.objects.create(tournament=TournamentFactory(organisers=[organiser]), team=team)
    ville, other = _user("ville"), _user("mallory")
    admin = people(organiser).page
    admin.goto(site + reverse("admin:tournaments_player_change", args=[team.player_a_id]))
    admin.get_by_role("link", name="Invite link").click()
    field = admin.get_by_label("Invite link")
    expect(field).to_have_value(re.compile(rf"^{re.escape(site)}/accounts/invite/[^/]+/$"))
    link = field.input_value()

    # mallory opens it first, but ville confirms first
    second = people(other).page
    second.goto(link)
    expect(second.get_by_role("button", name="Yes, I am Ville")).to_be_visible()
    first = people(None).page
    first.goto(link)
    first.get_by_role("main").get_by_role("link", name="Log in").click()
    first.get_by_label("Username").fill("ville")
    first.get_by_label("Password").fill(PASSWORD)
    first.get_by_role("button", name="Log in").click()
    first.get_by_role("button", name="Yes, I am Ville").click()
    expect(first).to_have_url(f"{site}/players/{team.player_a_id}/")

    used = ("This invite link has been used: Ville is linked to an account now. If that is "
            "not yours, ask the organiser.")
    with second.expect_response(link) as answer:
        second.get_by_role("button", name="Yes, I am Ville").click()
    assert answer.value.status == 410
    expect(second.get_by_role("heading", level=1)).to_have_text("That cannot be done")
    expect(second.get_by_role("alert")).to_have_text(used)
    second.goto(link)
    expect(second.get_by_role("alert")).to_have_text(used)
    first.goto(link)
    expect(first.get_by_role("alert")).to_have_text(
        "This invite link has been used: your account is Ville's already.")
    assert Player.objects.get(pk=team.player_a_id).user == ville
