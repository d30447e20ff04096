"""Start a real ASGI server (uvicorn, the production one, or daphne, which ``make run``
uses) as a child process, for the live-table tests and ``bench_tables``: one process
serving ``config.asgi:application`` on a port of its own."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence

from config.worker_process import ROOT

# each server's command (on a free port) and the log line that says where it listens
COMMANDS = {
    "uvicorn": ["uvicorn", "--host", "127.0.0.1", "--port", "0", "--no-access-log",
                "--timeout-graceful-shutdown", "10", "--ws-max-size", "16384",
                "--ws-per-message-deflate", "false"],
    "daphne": ["daphne", "-b", "127.0.0.1", "-p", "0"],
}
# uvicorn says https:// when it serves TLS itself (--ssl-certfile)
LISTENING = re.compile(r"(?:Uvicorn running on https?://|Listening on TCP address )"
                       r"[\d.]+:(\d+)")


class AsgiServer:
    """A server process (``server``, one of ``COMMANDS``) on 127.0.0.1 and a free port
    (``port``), once it listens. Its log is read by a thread of its own (so the pipe never
    fills), which notices when it listens: starting waits on that, not on a timer.
    ``args`` go to the server's command line (e.g. uvicorn's ``--proxy-headers``)."""

    #: Seconds a server may take to listen: a last guard, as for a worker
    #: (``config.worker_process.READY_SECONDS``): it imports the whole platform, which on
    #: a machine loaded far beyond its cores takes tens of seconds.
    START_SECONDS = 180.0

    def __init__(self, env: Mapping[str, str], start_timeout: float = START_SECONDS,
                 server: str = "uvicorn", args: Sequence[str] = ()) -> None:
        from config import settings as production  # tests.settings changes it

        self.server = server
        self.process = subprocess.Popen(
            [sys.executable, "-m", *COMMANDS[server], *args, "config.asgi:application"],
            cwd=ROOT, env={**os.environ, "LIVE_DB_THREADS": str(production.LIVE_DB_THREADS),
                           **env}, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True)
        self.log: list[str] = []
        self._listening = threading.Event()
        self.port = 0
        threading.Thread(target=self._read, daemon=True).start()
        if not self._listening.wait(start_timeout) or not self.port:
            self.stop()
            raise RuntimeError(f"{server} did not start listening within "
                               f"{start_timeout:g} s, or ended; its log:\n"
                               + "".join(self.log[-30:]))

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log.append(line)
            found = LISTENING.search(line)
            if found and not self.port:
                self.port = int(found.group(1))
                self._listening.set()
        self._listening.set()  # the process ended: stop waiting (port stays 0 if never)

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def stop(self, kill: bool = False, timeout: float = 60) -> None:
        """SIGTERM (the server closes its connections and exits), or SIGKILL; then wait."""
        if self.process.poll() is None:
            (self.process.kill if kill else self.process.terminate)()
        self.process.wait(timeout=timeout)
