"""One read of a table for all of this process's connections at it that ask at once.

When a table moves on, its channel group tells every connection at it in the same
moment, and each used to read the table's row from the database, bring the game up to
it and build its view on its own: four people at a table made four reads of one row.
Here the first connection to ask opens a *batch* for the table, the others asking in
the same moment join it, and one call (``updates.updates_since``, in a database thread)
reads the table once and builds each one's own update from its own seat's observation.

The database stays the truth: a connection joins only a batch whose read has not begun
(``_Batch.join``), so what it is sent was read after it asked, as if it had read alone.
The read is handed to the database threads on the loop's next turn, so that the other
connections woken by the same notice have joined by then; a batch that has begun
reading takes no more. The text sent (JSON) is made once per distinct update, so
spectators from the same number share one.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any
from weakref import WeakKeyDictionary

from . import updates
from .errors import TableError
from .updates import Key, Update

#: This process's batches not yet read, by table, per event loop (one in a server).
_open: WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, _Batch]] = WeakKeyDictionary()

Found = dict[Key, Update | TableError]
#: How a function runs in a database thread: ``db_threads.call``.
Run = Callable[[Callable[["_Batch"], Found]], Callable[["_Batch"], Awaitable[Found]]]


class _Batch:
    """The connections of one table asking for an update at once: their keys (seat, last
    number), and once read, what each is sent."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.keys: set[Key] = set()
        self.begun = False
        self._lock = threading.Lock()  # between the loop's joins and the thread's start
        self.done: asyncio.Future[Found] = asyncio.get_running_loop().create_future()
        # marked as seen, so that a failure no connection was left to await is not logged
        self.done.add_done_callback(lambda done: done.cancelled() or done.exception())
        self.texts: dict[Key, str] = {}

    def join(self, key: Key) -> bool:
        """Add ``key`` unless the read has begun (then it would not see what was committed
        before the connection asked); whether it was added."""
        with self._lock:
            if not self.begun:
                self.keys.add(key)
            return not self.begun

    def read(self) -> Found:
        """In a database thread: take no more keys, and read."""
        with self._lock:
            self.begun = True
            keys = set(self.keys)
        return updates.updates_since(self.table_id, keys)

    def text(self, key: Key, update: Update) -> str:
        """The frame of ``update``, made once for every connection it goes to."""
        text = self.texts.get(key)
        if text is None:
            text = self.texts[key] = frame(
                {"type": "update", "events": update.events, "view": update.view})
        return text


def frame(message: dict[str, Any]) -> str:
    """A message's frame text: ASCII (json's default), so no string can fail to encode as
    the server sends it, and without the spaces after separators (a tenth of an update)."""
    return json.dumps(message, separators=(",", ":"))


async def update(run: Run, table_id: int, seat: int | None,
                 since: int | None) -> tuple[Update, str]:
    """``seat``'s update after ``since`` (``None``: only the view) and its frame's text,
    read together with any other connection's at the table asking now; ``run`` runs a
    function in a database thread (``db_threads.call``). ``TableError`` as
    ``updates.update_since`` says."""
    loop = asyncio.get_running_loop()
    batches = _open.setdefault(loop, {})
    key: Key = (seat, since)
    batch = batches.get(table_id)
    if batch is None or not batch.join(key):
        batch = batches[table_id] = _Batch(table_id)
        batch.join(key)
        loop.call_soon(_start, run, batch)
    found = (await asyncio.shield(batch.done))[key]
    if isinstance(found, TableError):
        raise found
    return found, batch.text(key, found)


def _start(run: Run, batch: _Batch) -> None:
    """On the loop's next turn, the connections woken with ``batch``'s first having joined
    it: hand its read to a database thread."""
    task = asyncio.ensure_future(run(_Batch.read)(batch))
    task.add_done_callback(lambda _task: _finish(batch, task))


def _finish(batch: _Batch, task: asyncio.Future[Found]) -> None:
    batches = _open.get(asyncio.get_running_loop(), {})
    if batches.get(batch.table_id) is batch:
        del batches[batch.table_id]
    if task.cancelled():
        batch.done.cancel()
    elif task.exception() is not None:
        batch.done.set_exception(task.exception())  # type: ignore[arg-type]
    else:
        batch.done.set_result(task.result())
