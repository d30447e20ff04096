"""``manage.py bench_tables`` on two tables for a few seconds, with one, two and four
people at each: the people's arrival in its first line, the figures' line with the number
of clients, the p95 of each 10 s, the echo's beside it, actions acknowledged, who played
at whose seats, and nothing left behind. Timing values are not checked. Needs PostgreSQL
and Redis (skips elsewhere, fails in CI without them)."""

import io
import os
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from bench import tables as bench
from config.worker_process import database_url
from games.live.models import ChatMessage, LiveTable
from tests.services import require

pytestmark = pytest.mark.django_db(transaction=True)


def _services() -> None:
    missing = bench.missing_services()
    require(missing, "bench_tables")


@pytest.mark.parametrize("humans", [1, 2, 4])
def test_bench_tables_prints_its_figures_and_cleans_up(humans: int) -> None:
    _services()
    out = io.StringIO()
    call_command("bench_tables", tables=2, seconds=6, workers=1, seed=1, bot_pause=0.2,
                 ramp=2, humans_per_table=humans, stdout=out)
    lines = out.getvalue().splitlines()
    assert "2 Celery workers" not in lines[0] and "1 Celery workers (nice 10)" in lines[0]
    assert f" {humans} {'person' if humans == 1 else 'people'} at each table, " in lines[0]
    assert lines[0].endswith("people arriving over the first 2 s"), lines
    figures = [re.fullmatch(rf"tables 2, clients {2 * humans}, human actions (\d+), "
                            r"p50 [\d.]+ ms, p95 [\d.]+ ms", line) for line in lines]
    found = [match for match in figures if match]
    assert len(found) == 1, lines
    assert int(found[0].group(1)) > 0  # acknowledged, each with its update
    windows, echo = lines[figures.index(found[0]) + 1:figures.index(found[0]) + 3]
    assert re.fullmatch(r"p95 in each 10 s of the run: \d+(, \d+)* ms", windows), windows
    assert re.fullmatch(r"bare websocket echo .*: \d+ echoes, p95 [\d.]+ ms; "
                        r"table p95 / echo p95 [\d.]+", echo), echo
    assert not any("refused" in line for line in lines), lines
    # each table's first mover is a person, so at least one person a table acted; at the
    # people's seats only their clients (no time runs out in 6 s), at the bots' only bots
    logged = [re.fullmatch(r"actions logged at the people's seats: (\d+) by clients "
                           rf"\((\d) of {2 * humans} people acted\); at the bots' seats: "
                           r"(none|\d+ by bots)", line) for line in lines]
    found = [match for match in logged if match]
    assert len(found) == 1, lines
    by_clients, acted, at_bots = found[0].groups()
    assert int(by_clients) >= int(acted) >= 2
    assert humans < 4 or at_bots == "none", lines  # no bot at a table of four people
    assert not LiveTable.objects.exists()
    assert not get_user_model().objects.filter(username__startswith="bench-").exists()


def test_bench_tables_chats_and_sends_heartbeats_on_request() -> None:
    """Every line said is answered to its sender and reaches the other people at its
    table (the table's chat), none refused; the heartbeats are sent; nothing left."""
    _services()
    out = io.StringIO()
    call_command("bench_tables", tables=2, seconds=6, workers=1, seed=1, bot_pause=0.2,
                 ramp=0, humans_per_table=2, chat_per_minute=30, heartbeat=1, stdout=out)
    lines = out.getvalue().splitlines()
    assert "30 chat lines a minute each, a heartbeat every 1 s, " in lines[0], lines
    talk = [re.fullmatch(r"chat: (\d+) lines said, p50 [\d.]+ ms, p95 [\d.]+ ms to the "
                         r"sender's answer, (\d+) delivered to the others, 0 refused; "
                         r"heartbeats sent: (\d+)", line) for line in lines]
    found = [match for match in talk if match]
    assert len(found) == 1, lines
    said, delivered, pings = (int(number) for number in found[0].groups())
    # each line to the one other person at its table: those said in the last moment may
    # not have arrived when the run ended
    assert said > 0 and said - 4 <= delivered <= said and pings >= 4 * 5, lines
    assert not LiveTable.objects.exists() and not ChatMessage.objects.exists()


def test_bench_tables_refuses_without_a_redis_channel_layer(settings: Any) -> None:
    """Whatever this machine has: with the in-memory layer (one process) it says why not."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with pytest.raises(CommandError, match="bench_tables not run: "):
        call_command("bench_tables", tables=2, seconds=1, ramp=0)
    assert not LiveTable.objects.exists()


@pytest.mark.parametrize("ramp", [-1, 6, 9])
def test_bench_tables_refuses_a_ramp_outside_the_run(ramp: float) -> None:
    with pytest.raises(CommandError, match="--ramp from 0 to under --seconds"):
        call_command("bench_tables", tables=2, seconds=6, ramp=ramp)
    assert not LiveTable.objects.exists()


@pytest.mark.parametrize("humans", [0, 5])
def test_bench_tables_refuses_people_at_a_table_outside_1_to_4(humans: int) -> None:
    with pytest.raises(CommandError, match="--humans-per-table from 1 to 4"):
        call_command("bench_tables", tables=2, seconds=6, ramp=0, humans_per_table=humans)
    assert not LiveTable.objects.exists()


@pytest.mark.parametrize("nice", [-1, 20])
def test_bench_tables_refuses_a_niceness_outside_0_to_19(nice: int) -> None:
    with pytest.raises(CommandError, match="--worker-nice from 0 to 19"):
        call_command("bench_tables", tables=2, seconds=6, ramp=0, worker_nice=nice)


def test_the_bench_starts_its_workers_at_our_priority_then_lowers_every_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's bots' workers (``--worker-nice``), real: each says it is ready while
    still at our priority (niced from the start, on a busy machine one took minutes over
    its imports), then all its threads run below ours."""
    _services()
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    at_ready: list[set[int]] = []
    ready = bench.wait_ready

    def wait_then_look(log: Path, process: Any) -> None:
        ready(log, process)
        at_ready.append(_nices(process.pid))

    monkeypatch.setattr(bench, "wait_ready", wait_then_look)
    queue = f"push-test-nice-{uuid.uuid4().hex[:8]}"
    with bench._workers(1, queue, {"DATABASE_URL": database_url(connection.settings_dict)},
                        nice=5) as pids:
        lowered = _nices(pids[0])

    assert at_ready == [{ours}]
    assert lowered == {min(19, ours + 5)}


def _nices(pid: int) -> set[int]:
    """The nice values of the threads of process ``pid``."""
    found = {nice for task in Path(f"/proc/{pid}/task").iterdir()
             if (nice := _nice(task)) is not None}
    assert found
    return found


def _nice(task: Path) -> int | None:
    """A thread's nice value (the 19th field of /proc/<pid>/task/<tid>/stat), ``None`` when
    the thread has ended meanwhile."""
    try:
        return int((task / "stat").read_text().rsplit(")", 1)[1].split()[16])
    except FileNotFoundError:
        return None
