"""How far the live tables go on one machine, for ``manage.py bench_tables`` (a benchmark,
not a test): the CPU each action costs the PostgreSQL and Redis servers beside the web
server and the bots' workers that ``bench.tables`` times itself, and how many tables one
web process holds at a round's start under a p95 target (``--find-limit``).

PostgreSQL's share is read from ``/proc`` for the server processes serving the bench's
database (its client backends, listed by ``pg_stat_activity``) and, apart, for its shared
background processes (WAL writer, checkpointer, background writer: they also work for
other databases on the same server); Redis's from its own ``INFO cpu`` (the whole server,
whoever else uses it; with the channel layer on several, their sum). Both need the servers
on this machine (Redis's figure does not)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
import redis
from django.db import connection

from bench.load.run import PageRate, PagesLoad
from bench.tables import Figures, channel_redis_urls, cpu_seconds, p
from config.asgi_process import AsgiServer
from config.worker_process import database_url

# the kinds of process a run's CPU is told by, in the order printed
BACKENDS = "PostgreSQL (the database's connections)"
BACKGROUND = "PostgreSQL (its shared background processes)"
REDIS = "Redis (the whole server)"


class ServerCpu:
    """A ``bench.tables.Watch``: the CPU seconds PostgreSQL (the backends of the database
    at ``database``, and the shared background processes) and Redis (the servers at
    ``redis_urls`` together) spent while the people played. A backend that ends meanwhile
    takes its CPU with it, and one that begins meanwhile counts whole: the servers renew
    their connections ``CONN_MAX_AGE`` (60 s) after making them, so only a play that ends
    sooner, counted from the connecting before it, has them all."""

    def __init__(self, database: str, redis_urls: list[str]) -> None:
        self.database = database
        self.redis_urls = redis_urls
        self._begun: tuple[dict[int, float], dict[int, float], float | None] | None = None
        # the web servers' CPU seconds from their start to the play's: their start-up and
        # every client's connection (made one by one before the play)
        self.before_play: float | None = None

    def begin(self, servers: list[AsgiServer], bots: list[int]) -> None:
        self._begun = (*self._postgres(), self._redis())
        so_far = [cpu_seconds(server.process.pid) for server in servers]
        self.before_play = None if None in so_far else sum(filter(None, so_far))

    def end(self) -> dict[str, float | None]:
        assert self._begun is not None, "end() before begin()"
        backends, background, redis_cpu = self._begun
        now_backends, now_background = self._postgres()
        now_redis = self._redis()
        return {BACKENDS: grown(backends, now_backends),
                BACKGROUND: grown(background, now_background),
                REDIS: None if redis_cpu is None or now_redis is None else now_redis - redis_cpu}

    def _postgres(self) -> tuple[dict[int, float], dict[int, float]]:
        """CPU seconds so far of each backend of the database (but this question's own)
        and of each shared background process, by pid; empty where ``/proc`` does not
        show them (PostgreSQL on another machine)."""
        with psycopg.connect(self.database, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid, datname IS NULL FROM pg_stat_activity "
                "WHERE pid <> pg_backend_pid() AND (datname = current_database() "
                "AND backend_type = 'client backend' OR datname IS NULL)").fetchall()
        kinds: tuple[dict[int, float], dict[int, float]] = ({}, {})
        for pid, shared in rows:
            seconds = cpu_seconds(pid)
            if seconds is not None:
                kinds[shared][pid] = seconds
        return kinds

    def _redis(self) -> float | None:
        """The Redis servers' CPU seconds so far, together (``None``: one does not say)."""
        total = 0.0
        for url in self.redis_urls:
            info: dict[str, object] = redis.Redis.from_url(url).info("cpu")  # type: ignore[assignment]
            try:
                total += float(str(info["used_cpu_sys"])) + float(str(info["used_cpu_user"]))
            except (KeyError, TypeError, ValueError):
                return None
        return total


def grown(before: dict[int, float], after: dict[int, float]) -> float | None:
    """The CPU seconds the processes of ``after`` spent since ``before`` (one not in
    ``before`` began meanwhile: all of its time); ``None`` when ``after`` shows none."""
    if not after:
        return None
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


class Watched:
    """What a ``bench_tables`` run watches: the servers' CPU, and the pages' load when
    there is one (``pages``, ``bench_pages``)."""

    def __init__(self, cpu: ServerCpu, pages: PagesLoad | None) -> None:
        self.cpu, self.pages = cpu, pages

    def begin(self, servers: list[AsgiServer], bots: list[int]) -> None:
        if self.pages:  # first: its start may take a while, and is not the play's
            self.pages.begin(servers, bots)
        self.cpu.begin(servers, bots)

    def end(self) -> dict[str, float | None]:
        kinds = self.cpu.end()
        if self.pages:
            self.pages.end()
        return kinds

    def rates(self) -> list[PageRate]:
        return self.pages.rates if self.pages else []


def server_cpu() -> ServerCpu:
    """The watch of the database Django uses and the channel layer's Redis servers."""
    return ServerCpu(database_url(connection.settings_dict), channel_redis_urls())


def per_action_line(figures: Figures) -> str:
    """Each kind of process's CPU time over the actions played, in ms an action."""
    if not figures.played:
        return "CPU an action: no action was played"
    kinds = {"web server(s)": figures.server_cpu, "bot workers": figures.workers_cpu,
             **figures.kinds, "simulated clients": figures.clients_cpu}
    return "CPU an action: " + ", ".join(
        f"{kind} " + ("not known here" if seconds is None
                      else f"{1000 * seconds / figures.played:.2f} ms")
        for kind, seconds in kinds.items())


def connecting_line(watch: Watched, figures: Figures) -> str:
    """The servers' CPU before the play, to set beside another run's: the difference over
    the difference in connections is what a connection costs at a round's start."""
    seconds = watch.cpu.before_play
    return (f"the servers' CPU before the play (their start-up and {figures.clients} people's "
            f"and {figures.tables} echoes' connections): "
            + ("not known here" if seconds is None else f"{seconds:.2f} s"))


def held(figures: Figures, target_ms: float) -> bool:
    """Whether a run met the target: the people's p95 under ``target_ms`` and every person
    acted (one who never did was not served at all)."""
    p95 = p(figures.latencies, 0.95)
    return not math.isnan(p95) and p95 < target_ms and figures.people_acted == figures.clients


def limit_line(limit: int, trials: list[Trial], servers: int, target_ms: float) -> str:
    tried = ", ".join(f"{trial.tables}{'' if trial.held else ' (no)'}" for trial in trials)
    return (f"the limit: {limit} tables a process ({limit * servers} on {servers}) with the "
            f"people's p95 under {target_ms:g} ms; tried, a process: {tried}")


@dataclass(frozen=True)
class Trial:
    """One run of the limit's search: the tables at each web process, and whether the
    target held."""

    tables: int
    held: bool


def find_limit(holds: Callable[[int], bool], *, first: int, step: int,
               most: int) -> tuple[int, list[Trial]]:
    """The largest multiple of ``step`` up to ``most`` for which ``holds`` (taken to hold
    up to some size and no further) holds, 0 if none does; and the trials, in order.

    From ``first`` (rounded to ``step``) the size doubles while it holds, then the gap
    between the largest that held and the smallest that did not is halved until they are
    one ``step`` apart: some 2 log2(limit / step) runs, each a benchmark run of its own."""
    if step < 1 or most < step or first < 1:
        raise ValueError("step and first must be at least 1, and most at least step")
    trials: list[Trial] = []

    def tried(units: int) -> bool:
        held = holds(units * step)
        trials.append(Trial(units * step, held))
        return held

    top = most // step
    low, high = 0, top + 1  # low held (0: nothing tried held), high did not (or is past most)
    units = max(1, min(top, -(-first // step)))
    while units < high:
        if not tried(units):
            high = units
            break
        low, units = units, min(top + 1, 2 * units)
    while high - low > 1:
        middle = (low + high) // 2
        if tried(middle):
            low = middle
        else:
            high = middle
    return low * step, trials
