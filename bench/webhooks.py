"""Webhook figures for ``manage.py bench_webhooks`` (a benchmark, not a test): one event
queued to 1,000 subscriptions (written in the step's transaction, as a service writes it);
what a receiver that never answers costs a worker; and 10 healthy receivers' deliveries
sent beside 100 failing ones by a pool of workers, each delivery a task of its own as the
Celery workers take them (``services.webhook_delivery``)."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import override_settings
from django.utils import timezone

from tournaments.models import Tournament, WebhookDelivery, WebhookSubscription
from tournaments.selectors.webhooks import dispatch_order
from tournaments.services import webhook_delivery, webhooks

EVENT = "standings.changed"


@dataclass
class WebhookTimes:
    subscriptions: int
    queued: float  # the event written for them all, in its transaction
    timeout: float  # the setting
    hanging: float  # one delivery to a receiver that never answers
    healthy: int
    failing: int
    workers: int
    healthy_alone: float  # the healthy receivers' deliveries by themselves
    healthy_beside: float  # the same, the failing ones' deliveries sent first, by the pool
    all_beside: float  # every delivery of that run
    healthy_known: float  # the same event again, the failing ones known to fail by then


@contextmanager
def _receiver(answer: Callable[[BaseHTTPRequestHandler], None]) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            answer(self)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    finally:
        server.shutdown()
        server.server_close()


def _ok(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(204)
    handler.end_headers()


def _fail(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(500)
    handler.send_header("Content-Length", "0")
    handler.end_headers()


def _hang(handler: BaseHTTPRequestHandler) -> None:
    time.sleep(60)


def _closed_port() -> str:
    """A URL on 127.0.0.1 where nothing listens: its connections are refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/hook"


def _deliveries(tournament: Tournament, subscriptions: list[WebhookSubscription]) -> list[int]:
    now = timezone.now()
    return [row.pk for row in WebhookDelivery.objects.bulk_create(
        WebhookDelivery(subscription=s, event_id=uuid.uuid4(), event_type=EVENT,
                        payload={}, created=now, next_attempt=now) for s in subscriptions)]


def _deliver_all(ids: list[int], workers: int, watched: set[int]) -> tuple[float, float]:
    """Each delivery a task on a pool of ``workers`` threads, in the order of ``ids``:
    seconds until those of ``watched`` are done, and until all are."""
    start = time.perf_counter()
    done_at: dict[int, float] = {}

    def deliver(pk: int) -> None:
        webhook_delivery.webhook_deliver(pk)
        done_at[pk] = time.perf_counter() - start

    def close(_index: int) -> None:
        connection.close()  # each worker thread's own connection, kept while it works
        time.sleep(0.1)  # so that each thread of the pool takes one

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(deliver, ids))
        list(pool.map(close, range(workers)))
    return max(done_at[pk] for pk in watched), max(done_at.values())


def webhook_seconds(subscriptions: int = 1000, healthy: int = 10, failing: int = 100,
                    workers: int = 8) -> WebhookTimes:
    """The three figures, on rows made for them and removed afterwards."""
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    organiser = User.objects.create(username=prefix)
    tournament = Tournament.objects.create(name=f"{prefix} webhooks", bot_level="random")
    tournament.organisers.add(organiser)
    try:
        with override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=True,
                               WEBHOOKS_DISABLE_AFTER=1_000_000):
            return _run(organiser, tournament, subscriptions, healthy, failing, workers)
    finally:
        tournament.delete()
        organiser.delete()


def _subscribe(organiser: User, url: str, count: int) -> list[WebhookSubscription]:
    return WebhookSubscription.objects.bulk_create(
        WebhookSubscription(organiser=organiser, url=url, events=[EVENT], secret="bench")
        for _ in range(count))


def _run(organiser: User, tournament: Tournament, subscriptions: int, healthy: int,
         failing: int, workers: int) -> WebhookTimes:
    from django.conf import settings

    fan_out = _subscribe(organiser, "https://example.org/hook", subscriptions)
    start = time.perf_counter()
    with transaction.atomic():  # rolled back: the deliveries are written, never sent
        webhooks.emit(EVENT, tournament, {"bench": True})
        queued = time.perf_counter() - start
        transaction.set_rollback(True)
    WebhookSubscription.objects.filter(pk__in=[s.pk for s in fan_out]).delete()

    with _receiver(_hang) as url:
        [pk] = _deliveries(tournament, _subscribe(organiser, url, 1))
        start = time.perf_counter()
        webhook_delivery.webhook_deliver(pk)
        hanging = time.perf_counter() - start

    with _receiver(_ok) as good, _receiver(_fail) as bad:
        refused = _closed_port()
        healthy_ids = _deliveries(tournament, _subscribe(organiser, good, healthy))
        alone, _all = _deliver_all(healthy_ids, workers, set(healthy_ids))
        healthy_ids = _deliveries(tournament, _subscribe(organiser, good, healthy))
        failing_ids = _deliveries(tournament, _subscribe(organiser, bad, failing // 2)
                                  + _subscribe(organiser, refused, failing - failing // 2))
        beside, every = _deliver_all(failing_ids + healthy_ids, workers, set(healthy_ids))
        # the next event: those that failed are known to, and wait behind the others
        failing_subs = WebhookDelivery.objects.filter(pk__in=failing_ids).values(
            "subscription_id")
        healthy_ids = _deliveries(tournament, list(WebhookSubscription.objects.filter(
            pk__in=WebhookDelivery.objects.filter(pk__in=healthy_ids).values(
                "subscription_id"))))
        failing_ids = _deliveries(tournament, list(WebhookSubscription.objects.filter(
            pk__in=failing_subs)))
        known, _every = _deliver_all(dispatch_order(failing_ids + healthy_ids), workers,
                                     set(healthy_ids))
    return WebhookTimes(subscriptions, queued, settings.WEBHOOKS_TIMEOUT_SECONDS, hanging,
                        healthy, failing, workers, alone, beside, every, known)
