"""End to end through a real Celery worker over Redis, on PostgreSQL (nothing mocked).

The worker is a separate process started here, on a queue of this run's own, reading the
same test database; the test sends tasks by name over Redis and waits for their results.
In CI (PUSH_REQUIRE_SERVICES=1) missing services fail the run; elsewhere these tests skip
and say which service did not answer.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery
from django.db import connection

from config.worker_process import database_url, sending_to, start_worker, wait_ready
from games.engine import verify
from tournaments import services
from tournaments.models import Absence, Job, Result, Round, Standing, Tournament

from .factories import tournament_with_teams

BROKER = os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/0"
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
def worker(tmp_path: Path) -> Iterator[Celery]:
    """A real worker process on a fresh queue; yields a client app that sends to it."""
    missing = _missing_service()
    if missing:
        if os.environ.get("PUSH_REQUIRE_SERVICES") == "1":
            pytest.fail(f"CI requires the real services: {missing}")
        pytest.skip(f"Celery end-to-end test not run: {missing}")
    queue = f"push-test-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    process = start_worker(queue=queue, database=database_url(connection.settings_dict),
                           broker=BROKER, backend=BACKEND, log=log)
    client = Celery("push-test", broker=BROKER, backend=BACKEND)
    client.conf.task_default_queue = queue
    try:
        wait_ready(log)
        with sending_to(queue):  # what the services send here goes to this worker too
            yield client
    finally:
        process.terminate()
        process.wait(timeout=30)
        redis.Redis.from_url(BROKER).delete(queue)


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
