"""Two people and a spectator at one live table served as production serves it: a whole
hand played through the page in three chromium contexts.

- The site runs in a real uvicorn process with the production settings (debug off, a
  secret key, the allowed hosts, HTTPS only, secure cookies), on the test database; its
  pages' static files are collected by ``collectstatic`` and served by WhiteNoise from that
  process, as docs/operating/production.md has it. The TLS the proxy would answer is answered by
  uvicorn itself (``tests.production.tls_args``).
- Its websockets go through the Redis pub/sub channel layer, under a prefix of this
  test's own.
- The bots are played by a real Celery worker process (production settings too) over the
  Redis broker, on a queue of this test's own: the server sends a bot's move after a
  person's, the worker the next one after a bot's, each after ``LIVE_BOT_PAUSE_SECONDS``
  (here 0.05 s, in both).

alice and bob are opponents on a seeded deal (alice moves first), greedy bots their
partners. Each logs in on the site's login page in a browser of their own, lands on the
table and plays from the page: take the discard, then discard the hand's first card they
may (not the one just taken, R6.5), until a bot goes out. A third browser, logged out,
watches: it sees every discard appear and the hand's result, and neither its page nor any
frame the server sent it holds a card of a hand. Afterwards the database shows every bot
action under the server's id (``!bot-<seq>``), and the worker's log shows each one played
there, so none was played in the server (as an eager Celery would).

They need PostgreSQL and Redis: elsewhere they skip saying which is missing, and in CI
(PUSH_REQUIRE_SERVICES=1) they fail.
"""

from __future__ import annotations

import json
import re
import subprocess
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, connections

from config.asgi_process import AsgiServer
from config.worker_process import (
    database_url,
    lower_priority,
    sending_to,
    start_worker,
    wait_ready,
)
from games.live import service
from games.live.models import LiveAction, LiveTable
from tests.production import collect_static, production_env, tls_args
from tests.services import require

from ..live.conftest import FIRST, SEED, _redis_url
from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixtures)
from .test_csp import Tab
from .test_live_table import _face

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "pw-live-production-1"
BOT_PAUSE = "0.05"
# alice moves first on the seeded deal, bob after her; greedy bots sit in the other seats
assert FIRST is not None  # a fresh deal has a seat to move
SEATS = {"alice": FIRST, "bob": (FIRST + 1) % 4}
DRAW = "Your turn: take the top discard or push."
# WhiteNoise's answer for a file collectstatic gave a content-hashed name
FOREVER = "max-age=315360000, public, immutable"


@pytest.fixture(scope="module")
def static_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static files as a release collects them (once for the module: seconds)."""
    folder = tmp_path_factory.mktemp("static")
    collect_static(production_env(folder))
    return folder


def _stop(worker: subprocess.Popen[bytes]) -> None:
    """Stop ``worker``; it finishes the task in hand first."""
    if worker.poll() is None:
        worker.terminate()
    worker.wait(timeout=60)


@dataclass
class Production:
    site: str
    queue: str
    worker_log: Path
    worker: subprocess.Popen[bytes]

    def stop_worker(self) -> None:
        """Stop the worker, so that every bot action in the database has its line in the
        worker's log."""
        _stop(self.worker)


@pytest.fixture
def production(transactional_db: None, static_root: Path,
               tmp_path: Path) -> Iterator[Production]:
    """uvicorn (HTTPS) and a Celery worker, both with the production settings, on the test
    database, a queue and a channel prefix of this test's own; both stopped after."""
    redis_url = _redis_url()
    missing = (f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)"
               if connection.vendor != "postgresql" else
               "no Redis answers (set CELERY_BROKER_URL=redis://...)" if redis_url is None
               else "no Celery broker (set CELERY_BROKER_URL=redis://...)"
               if settings.CELERY_TASK_ALWAYS_EAGER else None)
    require(missing, "a live table served as in production")
    assert redis_url is not None
    tag = f"push-test-production-{uuid.uuid4().hex[:8]}"
    env = production_env(static_root, DJANGO_BEHIND_TLS_PROXY="false",
                         DATABASE_URL=database_url(connection.settings_dict),
                         CELERY_BROKER_URL=settings.CELERY_BROKER_URL, CELERY_QUEUE=tag,
                         CHANNEL_REDIS_URL=redis_url, CHANNEL_PREFIX=tag,
                         LIVE_BOT_PAUSE_SECONDS=BOT_PAUSE, LIVE_HAND_PAUSE_SECONDS="0")
    log = tmp_path / "worker.log"
    worker = start_worker(queue=tag, database=env["DATABASE_URL"],
                          broker=env["CELERY_BROKER_URL"], backend="", log=log, env=env)
    try:
        server = AsgiServer(env, args=tls_args(tmp_path))  # meanwhile the worker starts
        try:
            wait_ready(log, worker)
            # at a lower CPU priority than the server, as docs/operating/production.md
            # advises: once ready, so that its start is not starved on a busy machine
            lower_priority(worker.pid, 10)
            yield Production(f"https://127.0.0.1:{server.port}", tag, log, worker)
        finally:
            server.stop()
    finally:
        _stop(worker)
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(tag)


class Browser:
    """One person's (or a watcher's) chromium context, in English, accepting the test
    server's own certificate; a JavaScript error or a Content-Security-Policy violation
    fails the test. ``frames``: every websocket message the server sent it."""

    def __init__(self, browser: Any, site: str) -> None:
        self.site = site
        self.context = browser.new_context(locale="en-US", ignore_https_errors=True,
                                           viewport={"width": 1100, "height": 900})
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.frames: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("websocket", self._watch_socket)
        self.tab = Tab(self.page, site)
        self.turn = self.page.locator("[data-turn]")
        self.log = self.page.get_by_role("log")
        self.scores = self.page.locator("[data-scores] tr")

    def _watch_socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(payload))

    def log_in(self, username: str, then: str) -> None:
        """Through the site's login page, which sends them on to ``then``."""
        self.page.goto(f"{self.site}/accounts/login/?next={then}")
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Password").fill(PASSWORD)
        self.page.get_by_role("button", name="Log in").click()
        expect(self.page).to_have_url(self.site + then)

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], f"JavaScript errors: {self.errors}"
        assert self.tab.violations == [], f"CSP violations: {self.tab.violations}"


@pytest.fixture
def browsers(browser: Any, production: Production) -> Iterator[dict[str, Browser]]:
    """alice's, bob's and a watcher's browsers."""
    opened = {name: Browser(browser, production.site) for name in ("alice", "bob", "watcher")}
    yield opened
    for one in opened.values():
        one.close()


def _table(users: dict[str, Any], queue: str) -> LiveTable:
    """alice and bob opposite each other, greedy bots their partners, on the seeded deal,
    the practice tables' clock running; what it sends goes to the test's worker. In a
    thread of its own: the table service announces through async_to_sync, which refuses
    to run in this thread, where Playwright keeps its event loop."""
    by_seat = {seat: users[name] for name, seat in SEATS.items()}

    def make() -> LiveTable:
        try:
            with sending_to(queue):
                return service.create_table(
                    [service.SeatPlan(user=by_seat[s]) if s in by_seat
                     else service.SeatPlan(bot="greedy") for s in range(4)], seed=SEED)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(make).result()


def _play_turn(person: Browser, name: str, watchers: list[Browser]) -> None:
    """Take the discard, then discard the hand's first card not taken this turn (R6.5: a
    copy held before may go, but the page marks every copy; another card always may); on
    each page, the watcher's too, the discard is then the newest entry of the log that
    ``name`` begins (it stays so until their next turn, while the log drops its oldest), or
    the hand is over."""
    page = person.page
    page.get_by_role("button", name="Take the discard").click()
    expect(person.turn).to_have_text(re.compile("^Your turn: lay down"))
    card = page.locator("[data-hand] button:not(.taken)").first
    code = (card.get_attribute("data-key") or "").split("#")[0]
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Discard the selected card").click()
    for everyone in [person, *watchers]:
        newest = everyone.log.locator("li").filter(has_text=re.compile(rf"^{name} ")).last
        # or, when a bot went out at once after it, the hand's score row (the log has
        # moved on to the next hand)
        expect(newest.filter(has_text=re.compile(rf"^{name} discards {_face(code)}\.$"))
               .or_(everyone.scores).first).to_be_visible()


def _worker_bot_moves(log: Path) -> list[int]:
    """The sequence numbers of the bot actions the worker's log says it played (the
    test's only table; a production log: one JSON object a line)."""
    done = re.compile(r"^Task games\.live\.tasks\.live_bot_move\[[^\]]+\] succeeded in "
                      r"[\d.e-]+s: (\d+)$")
    seqs = []
    for line in log.read_text().splitlines():
        found = done.match(json.loads(line)["message"])
        if found:
            seqs.append(int(found.group(1)))
    return sorted(seqs)


def test_two_people_and_a_watcher_play_a_hand_on_uvicorn_with_a_celery_worker(
        production: Production, browsers: dict[str, Browser]) -> None:
    users = {name: get_user_model().objects.create_user(name, password=PASSWORD)
             for name in SEATS}
    table = _table(users, production.queue)
    path = f"/tables/{table.pk}/"
    watcher = browsers["watcher"]

    # the watcher, logged out: the page and its script, WhiteNoise's hashed, compressed file
    scripts: list[Any] = []
    watcher.page.on("response", lambda r: scripts.append(r) if r.url.endswith(".js") else None)
    with watcher.page.expect_response(re.compile(r"/static/live/table\.[0-9a-f]{12}\.js$")
                                      ) as script:
        watcher.page.goto(production.site + path)
    response = script.value
    assert response.status == 200
    assert response.headers["cache-control"] == FOREVER
    assert response.headers.get("content-encoding") in ("br", "gzip")
    expect(watcher.page.locator(".lead")).to_have_text(re.compile("^You are watching this table"))
    expect(watcher.turn).to_have_text("alice to move.")
    # the modules it imports came by their hashed names too (the page's import map), the
    # replay's shared cards among them: none by a plain name, which is not cached for good
    hashed = re.compile(r"/static/(?:live|games)/\w+\.[0-9a-f]{12}\.js$")
    assert {r.url.split("/static/")[1].split(".")[0] for r in scripts} >= {
        "live/table", "live/ways", "live/moves", "live/controls", "games/cards"}
    assert [r.url for r in scripts if not hashed.search(r.url)] == []
    assert {r.headers["cache-control"] for r in scripts} == {FOREVER}
    expect(watcher.page.locator("[data-hand]")).to_have_count(0)
    expect(watcher.page.get_by_role("button", name="Take the discard")).to_have_count(0)

    people = [browsers[name] for name in SEATS]  # in the order they move
    for name, person in zip(SEATS, people, strict=True):
        person.log_in(name, path)
        expect(person.page.get_by_role("heading", name="Your hand")).to_be_visible()
        expect(person.page.locator("[data-hand] button")).to_have_count(6)

    for turn in range(100):
        name = list(SEATS)[turn % 2]  # turns pass clockwise: alice, bob, the bots, alice...
        person, other = browsers[name], browsers[list(SEATS)[(turn + 1) % 2]]
        # this person's draw comes, or the hand ends first (a bot goes out, or the stock
        # runs out: the people, taking and discarding, always keep six cards)
        expect(person.turn.filter(has_text=DRAW).or_(person.scores)).not_to_have_count(0)
        # Either stays so until this person acts: nobody else moves on their turn, and the
        # hand's score row stays. So the count can be read now.
        if person.scores.count():
            break
        _play_turn(person, name, [other, watcher])
    else:
        raise AssertionError("the hand should have ended long ago")
    assert turn >= 2  # each of them played at least one turn

    scores = service.update_since(table.pk, None, 0).view["scores"][0]
    for everyone in [*people, watcher]:
        expect(everyone.scores).to_have_count(1)
        expect(everyone.scores).to_have_text(
            re.compile(rf"^\s*1\s*{scores[0]}\s*{scores[1]}\s*$"))
        expect(everyone.log).to_contain_text("Hand score: ")
        expect(everyone.page.locator("[data-hand-no]")).to_have_text("Hand 2 of 5")
    expect(watcher.page.locator("[data-hand]")).to_have_count(0)

    # no frame to the watcher held a hand, the legal moves or a pushed stock card (R6.3)
    messages = [json.loads(frame) for frame in watcher.frames]
    updates = [m for m in messages if m["type"] == "update"]
    assert updates and all(m["view"]["seat"] is None for m in updates)
    assert not [m for m in updates if {"hand", "taken", "legal", "pending"} & set(m["view"])]
    assert not [e for m in updates for e in m["events"] if "private" in e]

    production.stop_worker()
    log = list(LiveAction.objects.filter(table=table).order_by("seq")
               .values_list("seq", "seat", "client_id"))
    people_seats = set(SEATS.values())
    bot_seqs = [seq for seq, seat, _ in log if seat not in people_seats]
    assert bot_seqs, "the bots played"
    assert all(client_id == f"!bot-{seq - 1}" for seq, seat, client_id in log
               if seat not in people_seats)
    # the people's actions carry their pages' ids (table.js: "c", then letters and digits)
    assert all(re.fullmatch(r"c[0-9a-z]+", client_id) for _, seat, client_id in log
               if seat in people_seats)
    # every bot action was played by the worker, each once
    assert _worker_bot_moves(production.worker_log) == bot_seqs
