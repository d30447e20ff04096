"""A real uvicorn with production settings (DEBUG off, behind the TLS proxy, with
``--proxy-headers`` as README "Production" runs it), for the tests that need what
production does: its logs (tests/test_logging.py), the client address uvicorn takes from
``X-Forwarded-For`` (tests/api/test_forwarded.py)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from config.asgi_process import AsgiServer
from config.worker_process import ROOT

# what README "Production" starts uvicorn with; the tests' requests come from 127.0.0.1,
# the proxy's address
PROXY_HEADERS = ["--proxy-headers", "--forwarded-allow-ips", "127.0.0.1"]
# the TLS proxy's own header: without it the production settings redirect to HTTPS
HTTPS = {"X-Forwarded-Proto": "https"}
Record = dict[str, Any]


def production_env(static_root: Path, **extra: str) -> dict[str, str]:
    return {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_BEHIND_TLS_PROXY": "true",
            "DJANGO_STATIC_ROOT": str(static_root), **extra}


def collect_static(env: dict[str, str]) -> None:
    """The production settings serve static files from a manifest that collectstatic
    writes; every page with a stylesheet needs it."""
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env={**os.environ, **env}, check=True)


@contextmanager
def uvicorn(env: dict[str, str]) -> Iterator[AsgiServer]:
    server = AsgiServer(env, args=PROXY_HEADERS)
    try:
        yield server
    finally:
        server.stop()


def log_records(server: AsgiServer) -> list[Record]:
    """Every line the server has written to stderr so far, each parsed as JSON: a line
    that is not JSON fails the test."""
    return [json.loads(line) for line in list(server.log)]


def wait_for_record(server: AsgiServer, matches: Callable[[Record], bool],
                    seconds: float = 30) -> Record:
    """The first record that ``matches``: a thread reads the server's stderr, so a line
    written before the response may be read a little after it."""
    deadline = time.monotonic() + seconds
    while True:
        found = [record for record in log_records(server) if matches(record)]
        if found:
            return found[0]
        if time.monotonic() > deadline:
            raise AssertionError("no such record in the server's log:\n"
                                 + "".join(server.log[-30:]))
        time.sleep(0.05)
