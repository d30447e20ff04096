"""How far the live tables go (``bench.capacity``, ``bench.load``): the limit's search on
any size and step, the CPU of processes that come and go, the locustfile's user and its
pages in the route list, ``bench_tables`` printing each kind of process's CPU an action
and a limit, and ``bench_pages`` the pages' figures beside the tables, leaving nothing
behind. Timing
values are not checked: these are not load tests."""

import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import resolve, reverse
from hypothesis import given
from hypothesis import strategies as st

from bench import capacity
from bench import tables as bench
from bench.load import round as load_round
from bench.load import run
from bench.load.pages import PAGES, WEIGHTS
from bench.load.run import read_stats
from games.live.models import LiveTable
from tests.services import require
from tournaments.models import Tournament

REPO = Path(__file__).resolve().parents[2]


@given(limit=st.integers(0, 3000), first=st.integers(1, 3000), step=st.integers(1, 64),
       most=st.integers(1, 2048))
def test_the_search_finds_the_largest_size_that_holds(limit: int, first: int, step: int,
                                                       most: int) -> None:
    """Whatever the true limit, the first guess and the step: the answer is the largest
    multiple of the step up to ``most`` that holds, every size tried is a multiple of the
    step within bounds and tried once, and the runs are about twice log2 of the sizes."""
    if most < step:
        with pytest.raises(ValueError):
            capacity.find_limit(lambda tables: True, first=first, step=step, most=most)
        return

    found, trials = capacity.find_limit(lambda tables: tables <= limit, first=first,
                                        step=step, most=most)

    assert found == min(most // step, limit // step) * step
    sizes = [trial.tables for trial in trials]
    assert len(sizes) == len(set(sizes)) and all(
        size % step == 0 and step <= size <= most for size in sizes)
    assert all(trial.held == (trial.tables <= limit) for trial in trials)
    assert len(trials) <= 2 * math.ceil(math.log2(most // step + 1)) + 2


def test_grown_counts_a_process_begun_meanwhile_whole_and_none_without_any() -> None:
    assert capacity.grown({1: 2.0, 2: 5.0}, {1: 2.5, 3: 0.25}) == pytest.approx(0.75)
    assert capacity.grown({1: 2.0}, {}) is None


def test_the_locustfile_asks_every_page_and_each_is_in_the_route_list() -> None:
    """The user class imports (in a process of its own: locust patches the standard
    library) with one task a page, at its weight; each page's route reverses with a
    round's arguments and resolves back to a view."""
    script = ("import json\nfrom bench.load.locustfile import RoundFollower\n"
              "print(json.dumps(sorted(t.__name__ for t in RoundFollower.tasks)))")
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    tasks = json.loads(result.stdout)
    # locust repeats a task once for each unit of its weight
    assert len(tasks) == sum(WEIGHTS.values())
    assert sorted(set(tasks)) == sorted(name.lower().replace(" ", "_") for name in PAGES)
    assert set(WEIGHTS) == set(PAGES)
    for name, (route, args) in PAGES.items():
        path = reverse(route, args=[7] * len(args))
        assert resolve(path).route, name


def test_locusts_figures_are_read_page_by_page(tmp_path: Path) -> None:
    stats = tmp_path / "pages_stats.csv"
    stats.write_text(
        "Type,Name,Request Count,Failure Count,Requests/s,95%\n"
        "GET,standings,40,1,4.0,120\nGET,round live,0,0,0.0,N/A\n,Aggregated,40,1,4.0,120\n")

    rates = read_stats(stats)

    assert [(r.name, r.requests, r.failures, r.per_second) for r in rates] == [
        ("round page", 0, 0, 0.0), ("round live", 0, 0, 0.0), ("standings", 40, 1, 4.0),
        ("tables list", 0, 0, 0.0), ("API standings", 0, 0, 0.0)]
    assert rates[2].p95 == 120
    assert all(math.isnan(rate.p95) for rate in rates if rate.name != "standings")


def test_a_locust_that_ends_before_its_users_start_is_reported_with_what_it_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The play waits for locust's users to start (a line the locustfile prints), and
    does not wait out the guard for one that ended."""
    monkeypatch.setattr(run, "LOCUSTFILE", tmp_path / "missing.py")
    pages = run.PagesLoad(1, 1, {}, tmp_path)
    server = SimpleNamespace(port=1)  # never asked: locust ends first

    with pytest.raises(RuntimeError) as ended:
        pages.begin([server], [])  # type: ignore[list-item]

    assert str(ended.value).startswith("locust ended (exit status 1) before its users started;")
    assert "missing.py" in str(ended.value)


def _services() -> None:
    require(bench.missing_services(), "bench_tables")


def _left_behind() -> bool:
    return (LiveTable.objects.exists()
            or Tournament.objects.filter(name__startswith=load_round.PREFIX).exists()
            or get_user_model().objects.filter(username__startswith="bench-").exists())


@pytest.mark.django_db(transaction=True)
def test_bench_pages_prints_the_cpu_of_each_kind_and_the_pages_beside_the_tables() -> None:
    _services()
    out = io.StringIO()
    call_command("bench_pages", tables=2, seconds=8, workers=1, seed=1, bot_pause=0.2,
                 ramp=0, humans_per_table=4, users=4, stdout=out)
    lines = out.getvalue().splitlines()

    cpu = [line for line in lines if line.startswith("CPU an action: ")]
    assert len(cpu) == 1, lines
    for kind in ("web server(s)", "bot workers", capacity.BACKENDS, capacity.BACKGROUND,
                 capacity.REDIS, "simulated clients"):
        assert re.search(re.escape(kind) + r" [\d.]+ ms", cpu[0]), (kind, cpu[0])
    assert any(re.fullmatch(r"the servers' CPU before the play \(their start-up and 8 "
                            r"people's and 2 echoes' connections\): [\d.]+ s", line)
               for line in lines), lines
    pages = [re.fullmatch(r"page (.+): (\d+) requests, [\d.]+/s, p95 (nan|\d+) ms, 0 failed",
                          line)
             for line in lines]
    found = {match.group(1): int(match.group(2)) for match in pages if match}
    assert set(found) == set(PAGES), lines
    assert sum(found.values()) > 0
    assert not _left_behind()


@pytest.mark.django_db(transaction=True)
def test_bench_tables_finds_a_limit_and_says_what_it_tried() -> None:
    """At most one table a process: one run, and its answer, held or not."""
    _services()
    out = io.StringIO()
    call_command("bench_tables", tables=1, seconds=5, workers=1, seed=1, bot_pause=0.2,
                 ramp=0, humans_per_table=2, find_limit=True, step=1, most=1, stdout=out)
    lines = out.getvalue().splitlines()

    said = [line for line in lines if line.startswith("1 tables a process: ")]
    limit = re.fullmatch(r"the limit: (\d) tables a process \(\d on 1\) with the people's "
                         r"p95 under 100 ms; tried, a process: 1( \(no\))?", lines[-1])
    assert len(said) == 1 and limit, lines
    assert (limit.group(1) == "1") == said[0].endswith(": held")
    assert not _left_behind()


@pytest.mark.parametrize(("option", "value"), [("step", 0), ("most", 4), ("target_p95", 0)])
def test_bench_tables_refuses_a_search_out_of_range(option: str, value: int) -> None:
    with pytest.raises(CommandError, match="--step from 1 to --most"):
        call_command("bench_tables", tables=2, seconds=6, ramp=0,
                     **{"step": 8, **{option: value}})


def test_bench_pages_refuses_no_users() -> None:
    with pytest.raises(CommandError, match="--users must be at least 1"):
        call_command("bench_pages", tables=2, seconds=6, ramp=0, users=0)
