"""The platform across several hosts on one machine (``manage.py several_hosts``): each
host a network namespace (``bench.netns``), every process reaching the others only by
address, and a round of live tables played to the end across them, with faults.

The hosts: ``pg`` (a PostgreSQL cluster of its own, made for the run), ``redis`` (the
broker and the channel layer), ``web1`` and ``web2`` (uvicorn), ``lb`` (HAProxy in front
of them, configured as in production by ``deploy.haproxy``), ``worker`` (a Celery worker
with beat: the turns' timers, the stand-ins, the sweep) and ``people`` (``bench.people``:
the simulated people, four at each table, through the load balancer). The faults, in
order, each on its own after play began:

* ``kill-web``: web1's server is killed (SIGKILL); its people's connections end, they
  connect again through the load balancer, which sends them to web2, and go on;
* ``cut-worker``: the worker host's cable is pulled for a while, then mended: timers and
  stand-ins wait meanwhile, and resume;
* ``restart-redis``: Redis is stopped and started again (empty: it keeps nothing on disk),
  so the channel layer's subscriptions and the broker's connections are made anew, and
  the sweep sends again what the broker lost.

Everything is made in a temporary folder and namespaces of the run's own, and removed at
the end, after a failure or Ctrl-C too; a run killed outright is cleaned up by the next.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import netns
from bench.tables import cpu_seconds
from config.worker_process import ROOT
from deploy import haproxy

HOSTS = ("lb", "web1", "web2", "worker", "pg", "redis", "people")
def _pg_bin() -> Path:
    """Debian's PostgreSQL binaries, of its newest version installed."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"),
                   key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0)
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()
WEB_PORT = 8000
LB_PORT = 8000
FAULTS = ("kill-web", "cut-worker", "restart-redis")
#: Seconds after a fault began that count as during it (its effect and the recovery);
#: a cut counts its own length on top.
DURING = 10.0
#: The start of the name of each run's temporary folder, then its pid.
FOLDER = "push-hosts-"


def missing() -> str | None:
    """What running the hosts here lacks (``None``: nothing)."""
    lacking = netns.missing()
    if lacking:
        return lacking
    for tool in ("haproxy", "redis-server", "setpriv"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if not (PG_BIN / "postgres").exists():
        return f"no PostgreSQL binaries in {PG_BIN}"
    return None


@dataclass(frozen=True)
class Fault:
    kind: str
    began: float  # monotonic
    ended: float  # when it was over (a cut mended; else when it was done)


@dataclass
class Outcome:
    """The round's figures (``bench.people.Figures``' fields) and the faults' times."""

    figures: dict[str, Any]
    faults: list[Fault] = field(default_factory=list)
    began: float = 0.0
    ended: float = 0.0
    # CPU seconds each host's processes used while the people played (of those there at
    # both ends: a host whose process was killed or restarted meanwhile reads low)
    cpu: dict[str, float] = field(default_factory=dict)

    def windows(self) -> list[tuple[str, float, float]]:
        """(name, from, to): the whole round, and during and after each fault (after: up
        to the next fault, or the round's end)."""
        found = [("whole round", self.began, self.ended)]
        for index, fault in enumerate(self.faults):
            during = fault.ended + DURING
            after = self.faults[index + 1].began if index + 1 < len(self.faults) else self.ended
            found += [(f"during {fault.kind}", fault.began, during),
                      (f"after {fault.kind}", during, after)]
        return found

    def p95(self, start: float, end: float) -> tuple[int, float]:
        """The actions sent in [start, end): how many, and their p95 in milliseconds."""
        late = sorted(seconds for sent, seconds in self.figures["actions"]
                      if start <= sent < end)
        if not late:
            return 0, math.nan
        return len(late), 1000 * late[max(0, math.ceil(0.95 * len(late)) - 1)]

    def lines(self) -> list[str]:
        f = self.figures
        out = [f"{f['tables']} tables, {f['people']} people: {f['finished']} finished, "
               f"{f['logged']} actions logged ({f['stand_ins']} by stand-ins), "
               f"{len(f['actions'])} people's actions timed, in "
               f"{self.ended - self.began:.0f} s"]
        for name, start, end in self.windows():
            count, p95 = self.p95(start, end)
            stood = sum(start <= moment < end for moment in f["stand_in_times"])
            out.append(f"  {name}: {count} people's actions, p95 {p95:.0f} ms; "
                       f"{stood} stand-ins' actions")
        refused = ", ".join(f"{n} {why}" for why, n in f["refused"].items()) or "none"
        if self.cpu:
            seconds = self.ended - self.began
            out.append("cores busy on average while they played: " + ", ".join(
                f"{host} {cpu / seconds:.2f}" for host, cpu in self.cpu.items()))
        out.append(f"reconnects {f['reconnects']}, actions resent {f['resent']}, "
                   f"refused: {refused}")
        out.append(f"actions lost {f['lost']}, doubled {f['doubled']}, unknown "
                   f"{f['unknown']}, events told wrong {f['told_wrong']}, "
                   f"tables with gaps in their log {f['gaps']}")
        return out

    @property
    def sound(self) -> bool:
        """Every table finished, every action applied once, everyone told the truth."""
        f = self.figures
        return (f["finished"] == f["tables"] and not f["lost"] and not f["doubled"]
                and not f["unknown"] and not f["told_wrong"] and not f["gaps"])


class Stack:
    """The hosts' processes, started on ``net``; logs in ``folder``."""

    def __init__(self, net: netns.Network, folder: Path, say: Callable[[str], None]) -> None:
        self.net, self.folder, self.say = net, folder, say
        self.address = net.addresses
        self.procs: dict[str, subprocess.Popen[Any]] = {}
        redis = f"redis://{self.address['redis']}:6379"
        # a small environment of its own, so nothing reaches this machine's own services
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder),
            "LANG": "C.UTF-8", "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "true",
            "DJANGO_ALLOWED_HOSTS": ",".join(self.address[h] for h in ("lb", "web1", "web2")),
            "DATABASE_URL": f"postgres://postgres@{self.address['pg']}:5432/push",
            "CELERY_BROKER_URL": f"{redis}/0", "CHANNEL_REDIS_URL": f"{redis}/0",
            "CHANNEL_PREFIX": "push-hosts", "CELERY_QUEUE": "push-hosts",
            "LIVE_BOT_PAUSE_SECONDS": "0", "LIVE_HAND_PAUSE_SECONDS": "0",
            "LIVE_SWEEP_SECONDS": "5",
        }
        for name in ("PUSH_ENGINE_PURE",):
            if name in os.environ:
                self.env[name] = os.environ[name]

    def cpu(self, host: str) -> float:
        """CPU seconds the processes on ``host`` have used so far."""
        return sum(cpu_seconds(pid) or 0.0 for pid in self.net.pids(host))

    def _log(self, name: str) -> Path:
        return self.folder / f"{name}.log"

    def _start(self, name: str, host: str, argv: Sequence[str], *, user: str | None = None,
               env: dict[str, str] | None = None) -> subprocess.Popen[Any]:
        log = self._log(name).open("ab")
        process = self.net.start(host, argv, env=env or self.env, cwd=str(ROOT), stdout=log,
                                 stderr=subprocess.STDOUT, user=user)
        self.procs[name] = process
        return process

    def _run(self, host: str, argv: Sequence[str], timeout: float = 120,
             user: str | None = None) -> None:
        """Run ``argv`` on ``host`` to its end; fail with its output if it fails."""
        process = self.net.start(host, argv, env=self.env, cwd=str(ROOT),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, user=user)
        out, _ = process.communicate(timeout=timeout)
        if process.returncode:
            raise RuntimeError(f"{' '.join(argv)} on {host} failed:\n{out.decode()[-3000:]}")

    def _until(self, what: str, ready: Callable[[], bool], timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what} not ready after {timeout:.0f} s; logs in "
                                   f"{self.folder}")
            time.sleep(0.2)

    def _answers(self, host: str, argv: Sequence[str]) -> bool:
        return self.net.start(host, argv, env=self.env).wait(timeout=30) == 0

    def _logged(self, name: str, text: str) -> bool:
        log = self._log(name)
        return log.exists() and text in log.read_text(errors="replace")

    def start_pg(self) -> None:
        data = self.folder / "pg"
        data.mkdir()
        shutil.chown(data, "postgres", "postgres")
        self._run("pg", [str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U",
                         "postgres", "--no-sync"], user="postgres")
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {netns.SUBNET}0/24 trust\n")
        self._start("pg", "pg", [str(PG_BIN / "postgres"), "-D", str(data), "-c",
                                 f"listen_addresses={self.address['pg']}", "-c",
                                 f"unix_socket_directories={data}", "-c", "max_connections=200"],
                    user="postgres")
        self._until("PostgreSQL", lambda: self._answers(
            "pg", [str(PG_BIN / "pg_isready"), "-q", "-U", "postgres", "-h",
                   self.address["pg"]]))
        self._run("pg", [str(PG_BIN / "createdb"), "-h", self.address["pg"], "-U", "postgres",
                         "push"])

    def start_redis(self) -> None:
        self._start("redis", "redis", ["redis-server", "--bind", self.address["redis"],
                                       "--port", "6379", "--save", "", "--appendonly", "no",
                                       "--protected-mode", "no"])
        self._until("Redis", lambda: self._answers(
            "redis", ["redis-cli", "-h", self.address["redis"], "ping"]))

    def stop_redis(self) -> None:
        netns.stop(self.procs.pop("redis"))

    def migrate(self) -> None:
        self._run("worker", [sys.executable, "manage.py", "migrate", "--noinput"], timeout=300)

    def start_web(self, host: str) -> None:
        self._start(host, host, [
            sys.executable, "-m", "uvicorn", "--host", self.address[host], "--port",
            str(WEB_PORT), "--no-access-log", "--timeout-graceful-shutdown", "10",
            "--ws-max-size", "16384", "--ws-per-message-deflate", "false",
            "config.asgi:application"])
        self._until(host, lambda: self._logged(host, "Uvicorn running on"))

    def kill_web(self, host: str) -> None:
        netns.stop(self.procs.pop(host), kill=True)

    def start_worker(self) -> None:
        self._start("worker", "worker", [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q",
            self.env["CELERY_QUEUE"], "--without-gossip", "--without-mingle",
            "--without-heartbeat", "-l", "info", "-B", "-s", str(self.folder / "beat"),
            "-n", "hosts@%h"])
        self._until("the Celery worker", lambda: self._logged("worker", "ready."))

    def start_lb(self) -> None:
        config = self.folder / "haproxy.cfg"
        config.write_text(haproxy.render(
            (self.address["lb"], LB_PORT),
            [(self.address[h], WEB_PORT) for h in ("web1", "web2")]))
        self._start("lb", "lb", ["haproxy", "-db", "-f", str(config)])
        self._until("HAProxy", lambda: self._answers("people", [
            sys.executable, "-c", "import socket; socket.create_connection"
            f"(('{self.address['lb']}', {LB_PORT}), 2)"]))

    def people(self, plan: dict[str, Any]) -> subprocess.Popen[bytes]:
        """The people's process, started; its stdout a pipe of JSON lines."""
        process = self.net.start("people", [sys.executable, "-m", "bench.people",
                                            json.dumps(plan)], env=self.env, cwd=str(ROOT),
                                 stdout=subprocess.PIPE, stderr=self._log("people").open("ab"))
        self.procs["people"] = process
        return process


def remove_old_folders() -> None:
    """The folders of runs killed before they could remove them (their process gone)."""
    for old in Path(tempfile.gettempdir()).glob(f"{FOLDER}*-*"):
        pid = old.name.removeprefix(FOLDER).split("-")[0]
        if pid.isdigit() and not netns.alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)


@contextmanager
def stack(say: Callable[[str], None]) -> Iterator[Stack]:
    """Every host up (PostgreSQL, Redis, the schema, the worker, two web hosts, the load
    balancer); everything removed after."""
    remove_old_folders()
    with tempfile.TemporaryDirectory(prefix=f"{FOLDER}{os.getpid()}-") as folder, \
            netns.Network(HOSTS) as net:
        os.chmod(folder, 0o755)  # PostgreSQL's own user makes its cluster inside
        hosts = Stack(net, Path(folder), say)
        try:
            say("namespaces " + ", ".join(f"{h} {a}" for h, a in net.addresses.items()))
            hosts.start_pg()
            hosts.start_redis()
            say("PostgreSQL and Redis up; migrating")
            hosts.migrate()
            hosts.start_worker()
            for web in ("web1", "web2"):
                hosts.start_web(web)
            hosts.start_lb()
            say("worker, web1, web2 and the load balancer up")
            yield hosts
        except BaseException:
            for name in sorted(hosts.procs):
                log = hosts._log(name)
                if log.exists():
                    say(f"--- {name}'s log, its end:\n"
                        + log.read_text(errors="replace")[-1500:])
            raise


def play(hosts: Stack, *, tables: int, faults: Sequence[str], first: float, gap: float,
         cut_seconds: float, timeout: float, seed: int,
         say: Callable[[str], None]) -> Outcome:
    """A round of ``tables`` tables of four people on ``hosts``, with ``faults`` (of
    ``FAULTS``, in that order) the first ``first`` seconds after play began and each next
    ``gap`` seconds after the one before was over."""
    plan = {"url": f"ws://{hosts.address['lb']}:{LB_PORT}", "tables": tables,
            "timeout": timeout, "seed": seed}
    process = hosts.people(plan)
    assert process.stdout is not None
    lines: list[dict[str, Any]] = []
    playing = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            if raw.strip().startswith(b"{"):
                lines.append(json.loads(raw))
                playing.set()
        playing.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if not playing.wait(timeout) or not lines:
        raise RuntimeError(f"the people did not begin; see {hosts._log('people')}")
    began = float(lines[0]["playing"])
    cpu = {host: hosts.cpu(host) for host in HOSTS}
    say(f"{tables * 4} people playing")
    done: list[Fault] = []
    at = began + first
    for kind in faults:
        if not _sleep_until(at, process):
            break
        start = time.monotonic()
        say(f"fault: {kind}")
        if kind == "kill-web":
            hosts.kill_web("web1")
        elif kind == "cut-worker":
            hosts.net.cut("worker")
            _sleep_until(start + cut_seconds, process)
            hosts.net.mend("worker")
        else:
            hosts.stop_redis()
            hosts.start_redis()
        done.append(Fault(kind, start, time.monotonic()))
        at = done[-1].ended + gap
    while (process.poll() is None and not any("ended" in line for line in lines)
           and time.monotonic() < began + timeout + 120):
        time.sleep(0.2)
    cpu = {host: max(0.0, hosts.cpu(host) - cpu[host]) for host in HOSTS}
    process.wait(timeout=timeout + 120)
    reader.join(timeout=30)
    ended = next((float(line["ended"]) for line in lines if "ended" in line), time.monotonic())
    figures = next((line["figures"] for line in lines if "figures" in line), None)
    if figures is None:
        raise RuntimeError(f"the people gave no figures; see {hosts._log('people')}:\n"
                           + hosts._log("people").read_text(errors="replace")[-3000:])
    return Outcome(figures, done, began, ended, cpu)


def _sleep_until(moment: float, process: subprocess.Popen[Any]) -> bool:
    """Wait until ``moment`` (monotonic); False if the people finished before it."""
    while time.monotonic() < moment:
        if process.poll() is not None:
            return False
        time.sleep(0.1)
    return True
