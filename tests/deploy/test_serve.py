"""``make serve`` as an operator runs it (docs/operating/serve.md): the production stack
against the test's PostgreSQL and Redis, with the production settings and throwaway
secrets, HAProxy on free local ports in front of two uvicorn processes, the worker and
beat. Through the load balancer the test reads the health URL (answered by both servers),
a page and its stylesheet (collected by the release steps), the health socket, and plays
a turn at a live table over a websocket until a bot answers (played by the stack's
worker). Then Ctrl-C: SIGINT to the process group, as a terminal sends it; every process
stops on its own (none is killed) and none is left.

It needs HAProxy, PostgreSQL and Redis: elsewhere it skips saying which is missing, and in
CI (PUSH_REQUIRE_SERVICES=1) it fails. Every wait is bounded by a timeout only a failure
reaches.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import override_settings
from websockets.sync.client import connect

from config.liveness import OK
from config.worker_process import ROOT, database_url
from games.live import service
from tests.live.conftest import FIRST, SEED, _redis_url
from tests.live.sockets import session_cookie
from tests.live.test_processes import Client
from tests.production import HTTPS, collected_static, production_env
from tests.services import require

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 600  # the release steps and five processes, on a loaded machine
WEBS = 2
STARTED = re.compile(r"\| (\S+) started \(pid=(\d+)\)")


def _free_ports(count: int) -> int:
    """A port that is free with the ``count - 1`` after it, on 127.0.0.1."""
    for _ in range(100):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            first = probe.getsockname()[1]
        if first + count > 65535:
            continue
        try:
            for port in range(first, first + count):
                with socket.socket() as taken:
                    taken.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first
    raise AssertionError(f"no {count} free ports in a row")


class Stack:
    """``make serve`` running in a session of its own; its output read by a thread."""

    def __init__(self, env: dict[str, str], port: int, state: Path) -> None:
        # the engine's build (make compile) is not this test's to remake
        self.process = subprocess.Popen(
            ["make", "-o", "compile", "serve", f"WEBS={WEBS}", "HOST=127.0.0.1",
             f"PORT={port}", f"SERVE_STATE={state}"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def started(self) -> dict[str, int]:
        """honcho's processes by name (web.1, balancer.1, ...), each the leader of a
        session of its own."""
        return {name: int(pid) for name, pid in STARTED.findall(self.output)}

    def interrupt(self) -> None:
        """Ctrl-C in the terminal: SIGINT to make's process group; wait for it to end."""
        os.killpg(self.process.pid, signal.SIGINT)
        self.process.wait(60)

    def stop(self) -> None:
        """After a failure, whatever is left: make's group, then honcho's sessions."""
        leaders = set(self.started().values())
        if self.process.poll() is None:
            try:
                self.interrupt()
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(30)
        for pid in _sessions(leaders):
            os.kill(pid, signal.SIGKILL)


def _stat(pid: int) -> list[str] | None:
    """A live process's state, parent, group, session...; None once it has ended (or is a
    zombie, ended but not yet waited for)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # after the command, which may hold spaces
    return None if fields[0] in ("Z", "X") else fields


def _alive(pid: int) -> bool:
    return _stat(pid) is not None


def _sessions(leaders: set[int]) -> set[int]:
    """Every live process in the sessions these processes lead (a worker's pool
    processes are in its session)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None \
                and int(fields[3]) in leaders:
            found.add(int(entry.name))
    return found


def _until(what: str, stack: Stack, check: Any) -> Any:
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            found = check()
        except (requests.RequestException, OSError):
            found = None
        if found:
            return found
        if stack.process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen; make serve said:\n"
                                 + stack.output[-6000:])
        time.sleep(0.2)


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    require(None if shutil.which("haproxy") else
            "HAProxy is not installed (Debian: apt-get install haproxy)", "make serve")
    redis_url = _redis_url()
    require(f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)"
            if connection.vendor != "postgresql" else
            "no Redis answers (set CELERY_BROKER_URL=redis://...)" if redis_url is None
            else None, "make serve")
    assert redis_url is not None
    tag = f"push-test-serve-{uuid.uuid4().hex[:8]}"
    environ = {name: value for name, value in os.environ.items()
               if not name.startswith(("DJANGO_", "PYTEST_", "MAKE"))}
    # the static files the other tests collected with the release's step: collecting
    # takes 40 s of CPU, a serve that finds them collected seconds (deploy/serve.py; its
    # collecting again only on a change is test_serve_steps.py's)
    yield {**environ, **production_env(collected_static()),
           "DATABASE_URL": database_url(connection.settings_dict),
           "CELERY_BROKER_URL": redis_url, "CELERY_QUEUE": tag,
           "CHANNEL_REDIS_URL": redis_url, "CHANNEL_PREFIX": tag,
           "LIVE_BOT_PAUSE_SECONDS": "0", "PYTHONUNBUFFERED": "1"}
    redis.Redis.from_url(redis_url).delete(tag)


def test_make_serve_starts_the_stack_and_ctrl_c_stops_it(env: dict[str, str],
                                                         tmp_path: Path) -> None:
    player = get_user_model().objects.create_user("alice", password="pw-alice-serve-1")
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    with override_settings(SECRET_KEY=env["DJANGO_SECRET_KEY"]):  # the stack's key
        cookie = session_cookie(player)
    port = _free_ports(WEBS + 1)
    site = f"http://127.0.0.1:{port}"
    stack = Stack(env, port, tmp_path / "state")
    try:
        health = _until("the health URL answering through HAProxy", stack,
                        lambda: requests.get(f"{site}/health/", timeout=5))
        assert health.status_code == 200 and health.text == OK

        def both_answered() -> bool:
            """HAProxy's access log names the server that answered each request."""
            requests.get(f"{site}/health/", timeout=5)
            answered = set(re.findall(r" web/(web\d) ", stack.output))
            return answered == {f"web{n}" for n in range(1, WEBS + 1)}

        _until("both web processes answering", stack, both_answered)

        page = requests.get(f"{site}/", headers={**HTTPS, "Host": "127.0.0.1"}, timeout=30)
        assert page.status_code == 200, page.text[:500]
        assert page.headers["X-Request-ID"]  # given by HAProxy, carried to the response
        stylesheet = re.search(r'href="(/static/[^"]+\.css)"', page.text)
        assert stylesheet, page.text[:2000]
        css = requests.get(site + stylesheet.group(1), headers=HTTPS, timeout=30)
        assert css.status_code == 200 and "immutable" in css.headers["Cache-Control"]

        with connect(f"ws://127.0.0.1:{port}/ws/health/", open_timeout=30) as socket_:
            assert socket_.recv(timeout=30) == OK

        class Balancer:  # Client.join asks its server for the URL
            @staticmethod
            def url(path: str) -> str:
                return f"ws://127.0.0.1:{port}{path}"

        async def play() -> None:
            client = await Client.join(Balancer(), table.pk, cookie)  # type: ignore[arg-type]
            while client.view["to_move"] == FIRST:  # a whole turn: draw ... discard
                await client.act()
            # the next seat is a bot: the stack's worker plays it
            await client.until(lambda: any(event["seat"] != FIRST
                                           for event in client.events.values()))
            await client.ws.close()

        asyncio.run(play())

        started = stack.started()
        assert sorted(started) == ["balancer.1", "beat.1", *[f"web.{n}" for n in
                                   range(1, WEBS + 1)], "worker.1"]
        running = _sessions(set(started.values()))
        assert set(started.values()) <= running
        # the worker at a lower CPU priority than the web processes (field 19: nice)
        nice = {name: int(fields[16]) for name, pid in started.items()
                if (fields := _stat(pid)) is not None}
        assert nice["worker.1"] == nice["web.1"] + 10 == os.getpriority(os.PRIO_PROCESS, 0) + 10

        stack.interrupt()
        left = _sessions(set(started.values())) | {pid for pid in running if _alive(pid)}
    finally:
        stack.stop()
    output = stack.output
    assert "SIGINT received" in output
    for name in started:
        assert re.search(rf"\| {re.escape(name)} stopped \(rc=", output), output[-4000:]
    assert "SIGKILL" not in output, output[-5000:]  # each stopped in the 30 s given
    assert "Traceback" not in output, output[output.find("Traceback") - 3000:][:6000]
    # honcho ends with the status of a run interrupted by SIGINT (128 + 2), as make says
    assert "serve] Error 130" in output
    assert not left
