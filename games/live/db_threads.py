"""Where the websocket edge runs its database work (``consumers``, ``shared``): never in
the event loop, and not in the one thread Channels keeps for it either, where every call
would queue behind every other."""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection

_pools: dict[int, ThreadPoolExecutor] = {}  # per process (a forked child makes its own)

#: Seconds a database thread's connection counts as sound after a call used it: the next
#: call within them skips Django's health check (a ``SELECT 1`` round trip before every
#: call's first query, as many as the actions and updates themselves); one idle longer is
#: checked as before. A connection that broke meanwhile fails that one call (the client
#: resends by id, or resumes), and Django, seeing the error, replaces it before the next.
SOUND_SECONDS = 1.0
_used = threading.local()  # when this thread's connection last served a call


_P = ParamSpec("_P")
_R = TypeVar("_R")


def call(func: Callable[_P, _R]) -> Callable[_P, Awaitable[_R]]:
    """``func`` to await, run where the live tables' database work runs: in a pool of
    ``LIVE_DB_THREADS`` threads, each with its own connection, so that one commit waiting
    on the disk holds up only itself; with 0, in Channels' one thread."""
    if not settings.LIVE_DB_THREADS:
        return database_sync_to_async(func)
    pool = _pools.get(os.getpid())
    if pool is None:
        pool = _pools[os.getpid()] = ThreadPoolExecutor(settings.LIVE_DB_THREADS,
                                                         thread_name_prefix="live-db")
    return database_sync_to_async(_checked_when_idle(func), thread_sensitive=False,
                                  executor=pool)


def _checked_when_idle(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """``func``, its connection's health check skipped when the connection served a call
    less than ``SOUND_SECONDS`` ago (runs after Channels' clean-up, which asks for one)."""
    @functools.wraps(func)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if time.monotonic() - getattr(_used, "at", -SOUND_SECONDS) < SOUND_SECONDS:
            connection.health_check_done = True  # type: ignore[attr-defined]  # not in the stubs
        try:
            return func(*args, **kwargs)
        finally:
            _used.at = time.monotonic()
    return run
