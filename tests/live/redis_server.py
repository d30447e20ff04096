"""A ``redis-server`` of a test's own, to stop and start under the processes that use it,
and a bounded wait."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import redis

TIMEOUT = 60  # seconds: only reached when something never happens (a failure)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """A ``redis-server`` of the test's own on a free port, stopped and started at will."""

    def __init__(self, directory: Path) -> None:
        self.port, self.directory = _free_port(), directory
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        until(lambda: self._answers(), "Redis to answer")

    def stop(self) -> None:
        assert self.process is not None
        self.process.kill()  # as a crash: nothing is saved, clients are cut off
        self.process.wait(timeout=TIMEOUT)

    def _answers(self) -> bool:
        try:
            return bool(redis.Redis.from_url(self.url, socket_timeout=1).ping())
        except redis.RedisError:
            return False


def until(done: Callable[[], bool], what: str, seconds: float = TIMEOUT) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:.0f} s for {what}")
        time.sleep(0.2)


def no_redis_server() -> str | None:
    return "no redis-server program" if shutil.which("redis-server") is None else None
