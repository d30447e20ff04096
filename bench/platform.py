"""Platform speed figures for ``manage.py bench_platform`` (a benchmark, not a test)."""

from __future__ import annotations

import http.client
import math
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from celery import Celery
from django.conf import settings
from django.db import connection, transaction

from bench.swiss_field import bench_swiss_input
from config.worker_process import ROOT, database_url, sending_to, start_worker, wait_ready
from tournaments import services
from tournaments.formats.swiss import pair_swiss_round
from tournaments.models import (
    Absence,
    Entry,
    Job,
    Match,
    Player,
    Result,
    Round,
    Team,
    Tournament,
)
from tournaments.standings import (
    MatchResult,
    ScoringRule,
    StandingsRules,
    compute_standings,
    standings_by_round,
)


def swiss_pairing_seconds(teams: int = 1024, rounds: int = 5) -> float:
    entries = bench_swiss_input(teams=teams, rounds=rounds, seed=0)
    start = time.perf_counter()
    pair_swiss_round(entries, odd="bye")
    return time.perf_counter() - start


def synthetic_results(teams: int, results: int, seed: int = 0) -> list[MatchResult]:
    """Random rounds (every team plays each round) until ``results`` results exist."""
    rng = random.Random(seed)
    out: list[MatchResult] = []
    number = 0
    while len(out) < results:
        number += 1
        order = rng.sample(range(1, teams + 1), teams)
        for a, b in zip(order[::2], order[1::2], strict=True):
            totals = (rng.randrange(0, 400, 5), rng.randrange(0, 400, 5))
            winner = None if totals[0] == totals[1] else int(totals[1] < totals[0])
            out.append(MatchResult(number, a, b, totals, (rng.randrange(3), rng.randrange(3)),
                                   winner))
    return out[:results]


RULES = StandingsRules(ScoringRule(win=2, draw=1, loss=0, bye=2),
                       ("score_diff", "buchholz", "sonneborn_berger", "head_to_head"))


@dataclass(frozen=True)
class StandingsTimes:
    """Seconds for the same league: the pure computation (``compute_standings``, the
    reference), the current table from the database after a new result, and every completed
    round's table rebuilt; each the fastest of the repeats, taken in turn, so load from
    other programs on the machine touches all three alike."""

    computed: float
    current: float
    full: float
    one_pass: float  # the pure one-pass core alone, every round's table (what full uses)


def standings_seconds(teams: int = 512, results: int = 10_000,
                      repeats: int = 3) -> StandingsTimes:
    """The standings service reading ``results`` results from the database and writing the
    tables, beside the pure function on the same results; everything happens in a
    transaction that is rolled back afterwards."""
    data = synthetic_results(teams, results)
    times: dict[str, list[float]] = {"computed": [], "current": [], "full": [], "one_pass": []}
    numbers = [0, *sorted({r.round for r in data})]
    try:
        with transaction.atomic():
            tournament = _league(teams, data)
            for _ in range(repeats):
                times["computed"].append(_seconds(
                    lambda: compute_standings(list(range(1, teams + 1)), data, RULES)))
                times["one_pass"].append(_seconds(lambda: standings_by_round(
                    list(range(1, teams + 1)), data, RULES, numbers)))
                times["full"].append(_seconds(
                    lambda: services.standings_rebuild(tournament=tournament, full=True)))
                # as after a new result: the completed rounds' tables are stored
                times["current"].append(_seconds(
                    lambda: services.standings_rebuild(tournament=tournament, full=False)))
            raise _Rollback
    except _Rollback:
        pass
    return StandingsTimes(**{name: min(seconds) for name, seconds in times.items()})


def _seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


class _Rollback(Exception):
    pass


def _league(teams: int, results: list[MatchResult]) -> Tournament:
    tag = uuid.uuid4().hex[:6]
    tournament = Tournament.objects.create(name=f"bench {tag}", tiebreaks=list(RULES.tiebreaks))
    players = Player.objects.bulk_create(Player(name=f"p{i}", handle=f"bench-{tag}-p{i}")
                                         for i in range(2 * teams))
    made = Team.objects.bulk_create(
        Team(name=f"bench {tag} {i}", player_a=players[2 * i], player_b=players[2 * i + 1])
        for i in range(teams))
    ids = {i + 1: team.pk for i, team in enumerate(made)}
    Entry.objects.bulk_create(Entry(tournament=tournament, team=t) for t in made)
    rounds = {n: Round.objects.create(tournament=tournament, number=n,
                                      status=Round.Status.COMPLETE)
              for n in sorted({r.round for r in results})}
    matches = Match.objects.bulk_create(
        Match(round=rounds[r.round], team_a_id=ids[r.team_a], team_b_id=ids[r.team_b or 0],
              status=Match.Status.DONE) for r in results)
    Result.objects.bulk_create(
        Result(match=m, source=Result.Source.SHEET, hand_scores=[], out_seats=[],
               total_a=r.totals[0], total_b=r.totals[1],
               winner="d" if r.winner is None else "ab"[r.winner])
        for m, r in zip(matches, results, strict=True) if r.totals)
    return tournament


@dataclass(frozen=True)
class Rate:
    """Requests answered per second by the server, the 95th percentile of their times, and
    the size of one answer."""

    per_second: float
    p95: float
    size: int


def standings_page_rates(teams: int = 256, rounds: int = 8, workers: int = 4,
                         threads: int = 8, requests: int = 200,
                         repeats: int = 3) -> tuple[Rate, Rate]:
    """The standings page and the API's JSON standings of one tournament, served by
    gunicorn (``workers`` processes) on 127.0.0.1 and asked by ``threads`` clients at once,
    ``requests`` a turn, page and API in turn ``repeats`` times so both meet the same load.
    The tournament is stored (the server must see it) and deleted afterwards."""
    tournament = _league(teams, synthetic_results(teams, teams // 2 * rounds))
    try:
        services.standings_rebuild(tournament=tournament)
        paths = (f"/tournaments/{tournament.pk}/standings/",
                 f"/api/v1/tournaments/{tournament.pk}/standings/")
        with _web_server(workers) as port:
            for path in paths:  # each process loads its code and fills its cache first
                _load(port, path, threads, 4 * workers)
            turns: dict[str, list[Rate]] = {path: [] for path in paths}
            for _ in range(repeats):
                for path in paths:
                    turns[path].append(_load(port, path, threads, requests))
        page, api = (_combined(turns[path]) for path in paths)
        return page, api
    finally:
        _delete(tournament)


def _combined(turns: list[Rate]) -> Rate:
    """Rates averaged over the turns; the p95 the worst turn's."""
    return Rate(sum(t.per_second for t in turns) / len(turns), max(t.p95 for t in turns),
                turns[0].size)


def _load(port: int, path: str, threads: int, requests: int) -> Rate:
    """``requests`` GETs of ``path`` from ``threads`` threads at once, each with its own
    connection; raises unless every answer is a 200."""
    def client(count: int) -> tuple[list[float], int]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        seconds, size = [], 0
        for _ in range(count):
            start = time.perf_counter()
            # as a TLS proxy would pass it on: production settings answer HTTPS only
            connection.request("GET", path, headers={"X-Forwarded-Proto": "https",
                                                     "Accept-Language": "en"})
            response = connection.getresponse()
            size = len(response.read())
            if response.status != 200:
                raise RuntimeError(f"GET {path}: {response.status} {response.reason}")
            seconds.append(time.perf_counter() - start)
        connection.close()
        return seconds, size

    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        answers = list(pool.map(client, [requests // threads] * threads))
    elapsed = time.perf_counter() - start
    seconds = sorted(t for own, _ in answers for t in own)
    return Rate(len(seconds) / elapsed, seconds[max(0, math.ceil(0.95 * len(seconds)) - 1)],
                answers[0][1])


@contextmanager
def _web_server(workers: int) -> Iterator[int]:
    """gunicorn serving this database with production settings (DEBUG off, static files
    collected to a temporary folder) on a free port of 127.0.0.1."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict),
               "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
               "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_BEHIND_TLS_PROXY": "true",
               "DJANGO_STATIC_ROOT": folder}
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                       cwd=ROOT, env=env, check=True)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(workers),
             "--bind", f"127.0.0.1:{port}", "--timeout", "120"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_listening(port)
            yield port
        finally:
            server.terminate()
            server.wait(timeout=60)


def _wait_listening(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"gunicorn did not listen on port {port} within "
                                   f"{seconds:.0f} s") from None
            time.sleep(0.2)


def end_to_end_seconds(workers: int, teams: int = 16, rounds: int = 4) -> float:
    """Wall time of an all-bot Swiss tournament run through ``workers`` real Celery workers.
    Needs PostgreSQL and a broker; the tournament is deleted afterwards."""
    tournament = _all_bot_tournament(teams, rounds)
    try:
        with _workers(workers) as client:
            start = time.perf_counter()
            for _ in range(rounds):
                paired = _run(client, "pair_next_round", tournament.pk)
                assert paired is not None, "the all-bot tournament could not pair a round"
                round = Round.objects.get(pk=paired)
                job = services.round_publish(round=round)  # sends the matches to the workers
                if job is not None:  # None only if a person had a seat: nothing to play
                    _wait_for(job)
                services.round_complete(round=round)
            return time.perf_counter() - start
    finally:
        _delete(tournament)


def _wait_for(job: Job, seconds: float = 600) -> None:
    deadline = time.monotonic() + seconds
    while job.status not in (Job.Status.DONE, Job.Status.FAILED):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{job} did not finish within {seconds:.0f} s")
        time.sleep(0.05)
        job.refresh_from_db()
    if job.status == Job.Status.FAILED:
        raise RuntimeError(f"{job}: {job.message}")


def _all_bot_tournament(teams: int, rounds: int) -> Tournament:
    tag = uuid.uuid4().hex[:6]
    tournament = Tournament.objects.create(name=f"bench {tag}", rounds_planned=rounds,
                                           bot_level="greedy", tiebreaks=["score_diff"])
    for i in range(teams):
        team = Team.objects.create(name=f"bench {tag} {i}",
                                   player_a=Player.objects.create(name=f"a{i}"),
                                   player_b=Player.objects.create(name=f"b{i}"))
        Entry.objects.create(tournament=tournament, team=team, seed=i + 1)
        Absence.objects.bulk_create(
            Absence(tournament=tournament, round_number=n, player=p)
            for n in range(1, rounds + 1) for p in (team.player_a, team.player_b))
    return tournament


def _delete(tournament: Tournament) -> None:
    teams = list(Team.objects.filter(entries__tournament=tournament))
    players = [p for t in teams for p in (t.player_a_id, t.player_b_id)]
    tournament.delete()
    Team.objects.filter(pk__in=[t.pk for t in teams]).delete()
    Player.objects.filter(pk__in=players).delete()


def _run(client: Celery, task: str, *args: object) -> int | None:
    """What the task answers: an id (None when there was nothing to do)."""
    answer: int | None = client.send_task(f"tournaments.tasks.{task}", args=args).get(
        timeout=600)
    return answer


@contextmanager
def _workers(count: int) -> Iterator[Celery]:
    broker = settings.CELERY_BROKER_URL
    backend = broker.rsplit("/", 1)[0] + "/1"
    queue = f"push-bench-{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory() as folder:
        logs = [Path(folder) / f"worker{i}.log" for i in range(count)]
        processes = [start_worker(queue=queue, database=database_url(connection.settings_dict),
                                  broker=broker, backend=backend, log=log) for log in logs]
        try:
            for log, process in zip(logs, processes, strict=True):
                wait_ready(log, process)
            client = Celery("push-bench", broker=broker, backend=backend)
            client.conf.task_default_queue = queue
            with sending_to(queue):
                yield client
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait(timeout=60)
