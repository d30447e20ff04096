import os
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from channels.layers import channel_layers
from django.contrib.auth import get_user_model

from config.environment import read
from games.live import service
from games.live.state import replay

from .sockets import session_cookie

# A fixed deal; the human takes the seat that moves first, so a test acts at once.
SEED = 20261201
FIRST = replay(SEED, []).game.to_move


@pytest.fixture(autouse=True)
def _no_bot_pause(settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0


@pytest.fixture
def frames_unlimited(settings: Any) -> None:
    """For a test that sends frames faster than a page does (a whole game's actions,
    hypothesis's examples): no frame allowance to meet (games/live/allowance.py)."""
    settings.LIVE_FRAMES_AT_ONCE = 1_000_000
    settings.LIVE_FRAMES_A_SECOND = 1_000_000


@pytest.fixture
def player(db: None) -> Any:
    return get_user_model().objects.create_user("alice", password="pw-alice-123")


def run_out(table: Any) -> str:
    """The person's time at ``table`` runs out: its deadline moves into the past (no test
    sleeps); the deadline as the turn's timer takes it."""
    from django.utils import timezone

    from games.live.models import LiveTable

    passed = timezone.now() - timedelta(seconds=1)
    LiveTable.objects.filter(pk=table.pk).update(deadline=passed)
    return passed.isoformat()


def quiet_for(table: Any, seconds: float) -> None:
    """As if ``table`` was created, and last acted at, ``seconds`` ago."""
    from django.utils import timezone

    from games.live.models import LiveAction, LiveTable

    past = timezone.now() - timedelta(seconds=seconds)
    LiveTable.objects.filter(pk=table.pk).update(created=past)
    LiveAction.objects.filter(table=table).update(created=past)


def assert_record_refused(client: Any, table: Any, says: str) -> None:
    """The replay page and the record of ``table`` are refused to ``client``, saying
    ``says``, showing no card of the deals; the replay's frames are not found."""
    from django.urls import reverse

    secret = [card.code for card in replay(SEED, []).decks[0]]
    for url in (reverse("live:replay", args=[table.pk]),
                reverse("live:record", args=[table.pk])):
        response = client.get(url)
        assert response.status_code == 403, url
        body = response.content.decode()
        assert says in body and "replay-data" not in body
        assert " ".join(secret[:8]) not in body
    frames = client.get(reverse("live:replay_data", args=[table.pk]))
    assert frames.status_code == 404 and " ".join(secret[:8]) not in frames.content.decode()


@pytest.fixture
def cookie(player: Any) -> str:
    """``player``'s logged-in session, for a websocket's cookie header."""
    return session_cookie(player)


@pytest.fixture
def act(eager_tasks: None, django_capture_on_commit_callbacks: Any) -> Callable[..., int]:
    """``table_act`` with the bots answering at once: the commit callbacks run (each one's
    own too) and the bot tasks run in-process."""
    def act(table_id: int, seat: int, text: str, client_id: str) -> int:
        with django_capture_on_commit_callbacks(execute=True):
            return service.table_act(table_id, seat, text, client_id)
    return act


def _redis_url() -> str | None:
    """A Redis the channel layer may use (CI sets CELERY_BROKER_URL), if it answers: the
    first of the channel layer's."""
    import redis

    url = (read().CHANNEL_REDIS_URL or [read().CELERY_BROKER_URL])[0]
    if not url.startswith("redis"):
        return None
    try:
        redis.Redis.from_url(url, socket_timeout=2).ping()
    except redis.RedisError:
        return None
    return url


@pytest.fixture(params=["memory", "redis"])
def layer(request: Any, settings: Any) -> Iterator[str]:
    """The in-memory layer, and Redis pub/sub when a Redis answers (never a mock)."""
    if request.param == "memory":
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    else:
        url = _redis_url()
        if url is None:
            pytest.skip("no Redis answers for the channel layer")
        # pub/sub ignores the db number; a prefix of its own keeps parallel runs apart
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "games.live.layer.PubSubChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": f"test-live-{os.getpid()}"}}}
    channel_layers.backends.clear()
    yield request.param
    channel_layers.backends.clear()


@pytest.fixture
def postgres(transactional_db: None) -> None:
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite serialises its writers whole "
                    "(set DATABASE_URL=postgres://...)")


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    """``work`` in a thread of its own (with a database connection of its own); what it
    returned or raised, once joined, in the dict."""
    from django.db import connections

    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = work()
        except Exception as exc:  # noqa: BLE001 - handed to the test to assert on
            out["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


@pytest.fixture
def people(db: None) -> list[Any]:
    """Three people: ann and bea to play, cid to watch (``table_of_two``)."""
    return [get_user_model().objects.create_user(name, password=f"pw-{name}-12345")
            for name in ("ann", "bea", "cid")]


@pytest.fixture
def table_of_two(people: list[Any]) -> Any:
    """A table of two people (ann at seat 0, bea at seat 1) and two bots; cid watches."""
    return service.create_table([service.SeatPlan(user=people[0]),
                                 service.SeatPlan(user=people[1]),
                                 service.SeatPlan(bot="greedy"), service.SeatPlan(bot="greedy")],
                                seed=7)


@pytest.fixture
def cookies(people: list[Any]) -> list[str]:
    """The logged-in sessions of ``people``, for websockets' cookie headers."""
    return [session_cookie(person) for person in people]
