"""End to end through a real Celery worker over Redis, on PostgreSQL (nothing mocked).

The worker is a separate process started here, on a queue of this run's own, reading the
same test database; the test sends tasks by name over Redis and waits for their results.
In CI (PUSH_REQUIRE_SERVICES=1) missing services fail the run; elsewhere these tests skip
and say which service did not answer.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from celery import Celery
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from config.environment import read
from config.worker_process import database_url, sending_to, start_worker, wait_ready
from games.engine import verify
from tests.services import require
from tournaments import services
from tournaments.models import (
    Absence,
    Job,
    Match,
    OutboxTask,
    Result,
    Round,
    Standing,
    Tournament,
)

from .factories import UserFactory, tournament_with_teams
from .test_admin import act, all_absent, logged_in, published_round, said, url

BROKER = read().CELERY_BROKER_URL or "redis://127.0.0.1:6379/0"
BACKEND = BROKER.rsplit("/", 1)[0] + "/1"
TASKS = "tournaments.tasks"

pytestmark = pytest.mark.django_db(transaction=True)


def _missing_service() -> str | None:
    if connection.vendor != "postgresql":
        return f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)"
    try:
        redis.Redis.from_url(BROKER, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        return f"Redis does not answer at {BROKER}: {exc}"
    return None


@pytest.fixture
def queue() -> Iterator[str]:
    """A fresh queue of this test's own; what the services send meanwhile goes to it."""
    missing = _missing_service()
    require(missing, "Celery end to end")
    name = f"push-test-{uuid.uuid4().hex[:8]}"
    try:
        with sending_to(name):
            yield name
    finally:
        redis.Redis.from_url(BROKER).delete(name)


@pytest.fixture
def workers(queue: str, tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """Starts a real worker process on ``queue`` (or another queue) and waits until it is
    ready; each is stopped at the end."""
    started: list[subprocess.Popen[bytes]] = []

    def start(on: str = queue) -> subprocess.Popen[bytes]:
        log = tmp_path / f"worker{len(started)}.log"
        started.append(start_worker(queue=on, database=database_url(connection.settings_dict),
                                    broker=BROKER, backend=BACKEND, log=log))
        wait_ready(log, started[-1])
        return started[-1]

    try:
        yield start
    finally:
        for process in started:
            process.terminate()
            process.wait(timeout=30)


def client_of(queue: str) -> Celery:
    """A Celery app that sends tasks by name to ``queue`` and waits for their results."""
    # Not the current app: the services' tasks keep sending through config.celery's.
    client = Celery("push-test", broker=BROKER, backend=BACKEND, set_as_current=False)
    client.conf.task_default_queue = queue
    return client


@pytest.fixture
def worker(queue: str, workers: Callable[[], object]) -> Celery:
    """A real worker process on a fresh queue; a client app that sends to it."""
    workers()
    return client_of(queue)


def run(client: Celery, task: str, *args: Any) -> Any:
    return client.send_task(f"{TASKS}.{task}", args=args).get(timeout=120)


def drain(client: Celery) -> None:
    """Wait until the worker has done the work sent so far and the work that sent in turn
    (a bot match sends a standings update): its one process takes the queue in order, so a
    task sent now is done after everything before it."""
    for _ in range(2):
        assert run(client, "recalculate_standings", 0) == 0  # no such tournament: a marker


def snapshot(tournament: Tournament) -> dict[str, Any]:
    """Everything the tasks write, in a comparable form."""
    return {
        "rounds": list(Round.objects.filter(tournament=tournament)
                       .values_list("number", "status").order_by("number")),
        "results": list(Result.objects.filter(match__round__tournament=tournament)
                        .values_list("match_id", "total_a", "total_b", "winner")
                        .order_by("match_id")),
        "standings": list(Standing.objects.filter(tournament=tournament)
                          .values_list("round_number", "team_id", "rank", "points", "values")
                          .order_by("round_number", "team_id")),
        "jobs": list(Job.objects.filter(tournament=tournament).values_list("done", "total",
                                                                           "status")),
    }


def test_an_all_bot_swiss_tournament_runs_through_the_worker(worker: Celery) -> None:
    tournament = tournament_with_teams(8, rounds_planned=3, bot_level="greedy")
    for entry in tournament.entries.select_related("team"):
        for number in range(1, 4):
            for player in (entry.team.player_a, entry.team.player_b):
                Absence.objects.create(tournament=tournament, round_number=number, player=player)

    for number in range(1, 4):
        round_id = run(worker, "pair_next_round", tournament.pk)
        round = Round.objects.get(pk=round_id)
        assert round.number == number and round.matches.count() == 4
        # The organiser publishes; publishing alone sends the matches to the worker, and
        # each result sends the standings update.
        job = services.round_publish(round=round)
        assert job is not None and len(job.match_ids) == 4
        drain(worker)
        job.refresh_from_db()
        assert (job.done, job.total, job.status) == (4, 4, Job.Status.DONE)
        table = Standing.objects.filter(tournament=tournament, round_number=0)
        assert sorted(table.values_list("played", flat=True)) == [number] * 8
        services.round_complete(round=round)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    results = Result.objects.filter(match__round__tournament=tournament)
    assert results.count() == 12
    for result in results:
        verdict = verify(result.record)
        assert verdict.status == "complete"
        assert list(verdict.totals) == [result.total_a, result.total_b]

    before = snapshot(tournament)
    services.standings_rebuild(tournament=tournament)  # from scratch
    assert snapshot(tournament) == before

    # Every task a second time changes nothing.
    assert run(worker, "pair_next_round", tournament.pk) is None
    for round in tournament.rounds.all():
        assert run(worker, "fill_seats", round.pk) == 0
        for match_id in round.matches.values_list("pk", flat=True):
            assert run(worker, "play_bot_match", match_id, None) is False
    run(worker, "recalculate_standings", tournament.pk)
    run(worker, "recalculate_ratings")
    assert snapshot(tournament) == before


SHEET = {"hand_scores": [[0, 55], [40, 0], [0, 120], [35, 45], [90, 0]],
         "out_seats": [0, 1, 2, None, 3]}


@contextmanager
def broker_unreachable() -> Iterator[None]:
    """Meanwhile the services' Celery app sends to a closed local port: a broker that is
    down (connections refused), not a stand-in for our code. Celery reads the variable
    CELERY_BROKER_URL before its settings, so both are set."""
    from config.celery import app

    conf = app.conf
    saved = os.environ.get("CELERY_BROKER_URL"), conf.broker_url, conf.task_always_eager

    def reconnect() -> None:  # drop the pooled connections to the broker in use so far
        app._pool = None
        app.amqp._producer_pool = None

    os.environ["CELERY_BROKER_URL"] = conf.broker_url = "redis://127.0.0.1:1/0"
    conf.task_always_eager = False
    reconnect()
    try:
        yield
    finally:
        variable, conf.broker_url, conf.task_always_eager = saved
        if variable is None:
            del os.environ["CELERY_BROKER_URL"]
        else:
            os.environ["CELERY_BROKER_URL"] = variable
        reconnect()


def test_with_the_broker_down_writes_are_answered_as_stored_and_sent_when_it_is_back(
        worker: Celery) -> None:
    """A result submitted and a round published while the broker is down: the answers say
    what was stored (201; the round published with its job queued), the owed tasks wait in
    the outbox, and the sweep sends them once the broker answers."""
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    match = published_round(tournament).matches.get()
    bots = tournament_with_teams(4, organisers=[organiser])
    all_absent(bots)
    round = services.round_pair_next(tournament=bots)
    api = APIClient()
    api.force_authenticate(organiser)

    with broker_unreachable():
        response = api.post(f"/api/v1/matches/{match.pk}/result/", {"score_sheet": SHEET},
                            format="json")
        published = act(logged_in(organiser), "round", "publish", round)

    assert response.status_code == 201, response.content
    assert response.json()["result"]["totals"] == [165, 220]
    assert published.status_code == 200 and "published" in said(published)
    round.refresh_from_db()
    assert round.status == Round.Status.PUBLISHED
    job = Job.objects.get(tournament=bots)
    assert job.status == Job.Status.QUEUED
    assert sorted(OutboxTask.objects.values_list("task", flat=True)) == \
        ["play_bot_match", "play_bot_match", "recalculate_standings"]
    assert not Standing.objects.filter(tournament=tournament).exists()  # not caught up yet

    assert run(worker, "sweep") == {"sent": 3, "matches_sent_again": 0,
                                    "mails_sent": 0, "webhooks_sent": 0,
                                    "idempotency_keys_forgotten": 0}  # as beat does
    drain(worker)
    assert not OutboxTask.objects.exists()
    assert sorted(Standing.objects.filter(tournament=tournament, round_number=0)
                  .values_list("played", flat=True)) == [1, 1]
    job.refresh_from_db()
    assert (job.done, job.total, job.status) == (2, 2, Job.Status.DONE)


@contextmanager
def results_held() -> Iterator[psycopg.Connection[Any]]:
    """Meanwhile a connection of the test's own holds the results table in SHARE mode: a
    worker may read it and play, but its result waits, uncommitted, until this ends."""
    with psycopg.connect(database_url(connection.settings_dict)) as held:
        held.execute(f"LOCK TABLE {Result._meta.db_table} IN SHARE MODE")
        try:
            yield held
        finally:
            held.rollback()


def waiting_for_results(held: psycopg.Connection[Any]) -> int:
    """The server process of the worker whose result waits for :func:`results_held`."""
    for _ in range(600):
        row = held.execute(  # table ids are per database; pg_locks spans the server
            "SELECT pid FROM pg_locks WHERE NOT granted AND relation = %s::regclass AND "
            "database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            [Result._meta.db_table]).fetchone()
        if row:
            return int(row[0])
        time.sleep(0.1)
    raise TimeoutError("no worker came to store a result within a minute")


def gone(pid: int) -> None:
    """Wait until PostgreSQL has ended the server process ``pid`` (rolling back its work)."""
    for _ in range(300):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone() is None:
                return
        time.sleep(0.1)
    raise TimeoutError(f"PostgreSQL process {pid} still runs 30 s after its client died")


def test_a_worker_killed_mid_game_strands_nothing(
        queue: str, workers: Callable[[], subprocess.Popen[bytes]]) -> None:
    """``kill -9`` of a worker whose game is played but not stored: the sweep (as Celery beat
    runs it every minute) finds the match marked being played that nobody holds and sends it
    again, so every match ends with exactly one result, the job done and the standings equal
    to a rebuild, without waiting for the broker's visibility timeout."""
    tournament = tournament_with_teams(8, bot_level="greedy")
    all_absent(tournament)
    round = services.round_pair_next(tournament=tournament)
    doomed = workers()
    with results_held() as held:
        job = services.round_publish(round=round)
        assert job is not None
        pid = waiting_for_results(held)
        doomed.kill()  # SIGKILL: nothing runs in the worker after this
        doomed.wait(timeout=30)
    gone(pid)
    stranded = Match.objects.get(round=round, status=Match.Status.PLAYING)
    assert not Result.objects.filter(match__round=round).exists()

    workers()
    client = client_of(queue)
    assert run(client, "sweep") == {"sent": 0, "matches_sent_again": 1, "mails_sent": 0,
                                    "webhooks_sent": 0, "idempotency_keys_forgotten": 0}
    drain(client)
    job.refresh_from_db()
    assert (job.done, job.total, job.status) == (4, 4, Job.Status.DONE)
    assert sorted(Result.objects.filter(match__round=round).values_list("match_id", flat=True)) \
        == sorted(round.matches.values_list("pk", flat=True))
    stranded.refresh_from_db()
    assert stranded.status == Match.Status.DONE
    services.round_complete(round=round)
    before = snapshot(tournament)
    services.standings_rebuild(tournament=tournament)
    assert snapshot(tournament) == before


def health() -> tuple[int, dict[str, Any]]:
    """``manage.py health``: its exit code and its JSON report."""
    out = io.StringIO()
    try:
        call_command("health", "--timeout=2", stdout=out)
        code = 0
    except CommandError as error:
        code = error.returncode
    return code, json.loads(out.getvalue())


def test_the_health_check_sees_a_worker_only_if_it_consumes_the_queue(
        queue: str, workers: Callable[..., subprocess.Popen[bytes]]) -> None:
    """A worker listening elsewhere says "ready" and idles: the health check tells it from
    one that will run what the services send."""
    def ours(names: list[str]) -> list[str]:  # other test runs may share the broker
        return [name.split("@")[0] for name in names if queue in name]

    code, report = health()
    assert code == 1 and report["workers"]["consuming"] == []
    assert report["broker"]["ok"] and report["queue"] == {"name": queue, "length": 0}

    workers(f"{queue}-elsewhere")
    code, report = health()
    assert code == 1 and ours(report["workers"]["live"]) == [f"worker0-{queue}-elsewhere"]
    assert report["workers"]["consuming"] == []
    assert f"no worker answers that consumes the queue '{queue}'" in report["problems"][0]

    workers()
    code, report = health()
    assert code == 0 and report["healthy"] and report["problems"] == []
    assert ours(report["workers"]["consuming"]) == [f"worker1-{queue}"]


def test_the_health_check_reports_the_broker_down_and_stalled_jobs() -> None:
    tournament = tournament_with_teams(2)
    fresh = Job.objects.create(tournament=tournament, kind="play round 1", total=1)
    stalled = Job.objects.create(tournament=tournament, kind="play round 2", total=1)
    Job.objects.filter(pk=stalled.pk).update(updated=timezone.now() - timedelta(minutes=10))
    with broker_unreachable():
        code, report = health()
    assert code == 1 and not report["broker"]["ok"]
    assert "127.0.0.1:1" in report["broker"]["url"]
    assert [job["id"] for job in report["stalled_jobs"]] == [stalled.pk]
    assert report["problems"][0].startswith("the broker does not answer")

    superuser = UserFactory(is_superuser=True)
    page = logged_in(superuser).get(url("job_changelist") + "?stalled=yes")
    assert page.status_code == 200
    assert list(page.context["cl"].result_list) == [stalled]
    assert fresh not in page.context["cl"].result_list
