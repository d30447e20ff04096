"""locust beside the live tables: a ``bench.tables.Watch`` that starts locust headless
(``bench/load/locustfile.py``) against the bench's servers on 127.0.0.1 just before the
people begin to play, for as long as they play, and reads each page's requests a second
and p95 from locust's CSV when it ends. locust takes a second or more to start (on a busy
machine, tens of seconds), so the play waits for the line its users print as they start;
the servers stay up until it ends, a moment after the play."""

from __future__ import annotations

import csv
import math
import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from django.urls import reverse

from bench.load.pages import HOSTS, PAGES, READY, path_variable
from config.asgi_process import AsgiServer
from config.worker_process import ROOT

LOCUSTFILE = Path(__file__).with_name("locustfile.py")


def paths(tournament: int, round: int) -> dict[str, str]:
    """Each page's path for the round ``round`` of ``tournament``."""
    values = {"tournament": tournament, "round": round}
    return {name: reverse(route, args=[values[arg] for arg in args])
            for name, (route, args) in PAGES.items()}


@dataclass(frozen=True)
class PageRate:
    """A page's requests over the run: how many, failed, a second, and their p95 (ms)."""

    name: str
    requests: int
    failures: int
    per_second: float
    p95: float

    def line(self) -> str:
        return (f"page {self.name}: {self.requests} requests, {self.per_second:.1f}/s, "
                f"p95 {self.p95:.0f} ms, {self.failures} failed")


class PagesLoad:
    """``users`` locust users asking the pages at ``paths`` for ``seconds``; their CSV
    under ``folder``. A watch of no CPU of its own: :attr:`rates` has the figures."""

    #: Seconds locust may take to start its users: a last guard (it imports gevent and
    #: locust, about a second of CPU, which a machine at load 25 to 30 stretches a lot).
    START_SECONDS = 180.0

    def __init__(self, users: int, seconds: float, paths: dict[str, str],
                 folder: Path) -> None:
        self.users, self.seconds, self.paths = users, seconds, paths
        self.prefix = folder / "pages"
        self.process: subprocess.Popen[str] | None = None
        self.rates: list[PageRate] = []
        self.said: list[str] = []  # what locust printed, its errors among it
        self._ready = threading.Event()  # its users start, or it ended first
        self._started = False  # its users started
        self._reader: threading.Thread | None = None

    def begin(self, servers: list[AsgiServer], bots: list[int]) -> None:
        """Start locust and return as its users start; RuntimeError, with what locust
        said, if it ends first or is not there within ``START_SECONDS``."""
        hosts = ",".join(f"http://127.0.0.1:{server.port}" for server in servers)
        env = {**os.environ, HOSTS: hosts,
               **{path_variable(name): path for name, path in self.paths.items()}}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
             "--users", str(self.users), "--spawn-rate", str(self.users),
             "--run-time", f"{max(1, math.ceil(self.seconds))}s",
             "--host", hosts.split(",")[0], "--csv", str(self.prefix), "--only-summary",
             "--stop-timeout", "2", "--loglevel", "ERROR"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        waited = self._ready.wait(self.START_SECONDS)
        if self._started:
            return
        self.process.kill()
        status = self.process.wait()
        self._reader.join()
        raise RuntimeError(
            (f"locust did not start its users within {self.START_SECONDS:g} s" if not waited
             else f"locust ended (exit status {status}) before its users started")
            + f"; it said:\n{self._said()}")

    def _read(self) -> None:
        """Keep what locust prints (so its pipe never fills) and notice its users start."""
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            if line.strip() == READY:
                self._started = True
                self._ready.set()
            else:
                self.said.append(line)
        self._ready.set()  # it ended: stop waiting

    def _said(self) -> str:
        return "".join(self.said)[-2000:] or "(nothing)"

    def end(self) -> dict[str, float | None]:
        assert self.process is not None and self._reader is not None, "end() before begin()"
        try:
            self.process.wait(timeout=self.seconds + 60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            self._reader.join()
            raise RuntimeError(f"locust did not end within 60 s of its run time; it said:\n"
                               f"{self._said()}") from None
        self._reader.join()
        stats = self.prefix.with_name(self.prefix.name + "_stats.csv")
        if not stats.exists():
            raise RuntimeError(f"locust wrote no figures; it said:\n{self._said()}")
        self.rates = read_stats(stats)
        return {}


def read_stats(path: Path) -> list[PageRate]:
    """Each page's row of locust's ``*_stats.csv`` (not its Aggregated row), in the order
    of ``PAGES``; a page never asked (no row), with no requests."""
    with path.open(newline="") as stats:
        rows = {row["Name"]: row for row in csv.DictReader(stats)}
    never = {"Request Count": "0", "Failure Count": "0", "Requests/s": "0", "95%": "N/A"}
    return [PageRate(name, int(row["Request Count"]), int(row["Failure Count"]),
                     float(row["Requests/s"]), _number(row["95%"]))
            for name in PAGES for row in [rows.get(name, never)]]


def _number(cell: str) -> float:
    """A figure of locust's CSV, which says N/A where no request was answered."""
    try:
        return float(cell)
    except ValueError:
        return math.nan
