"""This process's replayed games, so that an action does not replay the whole log again.

Only a speed-up, never an authority: an entry is the game of one table after its action
``seq``. It is used for the table row read from the database (under its lock, to act) at
that ``seq`` or later: the actions logged after ``seq`` (by another process: a bot's
worker, another server) are read from the log and played onto it. An entry ahead of the
row read, or of another table with the same id, is not used; the caller replays the whole
log then. An entry is *taken* (removed) while in use and *kept* (put back) after, so no
two threads ever hold one game. A process that restarts or misses just replays.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from .models import LiveTable
from .rows import logged_actions
from .state import LiveGame, advance

LIMIT = 2000  # tables a process remembers; the least recently used go first

# table id: (the table's identity, the sequence number, the game after that action)
_games: OrderedDict[int, tuple[Any, int, LiveGame]] = OrderedDict()
_lock = threading.Lock()


def _identity(table: LiveTable) -> Any:
    # a table id alone could come back (SQLite reuses the ids of rolled-back rows)
    return table.seed, table.created


def held(table_id: int) -> int | None:
    """The sequence number this process's game of the table is at, if it has one."""
    with _lock:
        entry = _games.get(table_id)
    return None if entry is None else entry[1]


def take(table: LiveTable, logged: tuple[int, list[str]] | None = None) -> LiveGame | None:
    """The game of ``table`` after its action ``table.seq``, removed from the cache and
    brought up to ``table.seq`` from the log (``logged``: the actions after a number,
    read already, used when the game is at that number); ``None`` when this process has
    no game of the table at ``table.seq`` or before."""
    with _lock:
        entry = _games.pop(table.pk, None)
    if entry is None or entry[0] != _identity(table) or entry[1] > table.seq:
        return None
    seq, game = entry[1], entry[2]
    if seq < table.seq:
        missing = (logged[1] if logged is not None and logged[0] == seq
                   else logged_actions(table.pk, seq, table.seq))
        if len(missing) != table.seq - seq:  # not the log this copy came from
            return None
        advance(game, missing)
    return game


def keep(table: LiveTable, game: LiveGame) -> None:
    """Remember ``game`` as ``table``'s after its action ``table.seq`` (unless a later one
    is remembered already)."""
    identity = _identity(table)
    with _lock:
        held = _games.get(table.pk)
        if held is not None and held[0] == identity and held[1] > table.seq:
            return
        _games[table.pk] = (identity, table.seq, game)
        _games.move_to_end(table.pk)
        while len(_games) > LIMIT:
            _games.popitem(last=False)
