"""Updates made with a person's action for this process's other connections at its table.

A person's action is played in a database thread that holds the table's game right
after it (``service.act_and_update``). Every other connection at the table in this
process would then be woken by the group's notice and read the table again
(``shared``) to build, from the same game, the same views: one more thread hop, one
more statement and one more catch-up of the game per action. So the mover's call also
builds the update of each seat connected here that was at the same number as the mover
(:func:`seats` says which), and a notice of exactly that action hands each its update
made already (:func:`take`); anything else (a notice of another number, a connection
further behind, a ``changed`` notice) reads as before. An update made here is of the
table as that action committed it, so it is what a read then would have given; what
changes later comes with its own notice.

The connections are counted per table on the server's loop; the updates are kept, one
action's per table, under a lock, as the database threads write them.
"""

from __future__ import annotations

import threading
from collections import Counter

from .shared import frame
from .updates import Key, Update

#: Each table's connections in this process, by seat (``None``: a spectator).
_seats: dict[int, Counter[int | None]] = {}
#: Each table's updates made with its last action here: its number, and each key's
#: update and frame text.
_made: dict[int, tuple[int, dict[Key, tuple[Update, str]]]] = {}
_lock = threading.Lock()


def arrived(table_id: int, seat: int | None) -> None:
    """A connection at ``table_id`` for ``seat`` opened in this process."""
    with _lock:
        _seats.setdefault(table_id, Counter())[seat] += 1


def left(table_id: int, seat: int | None) -> None:
    """That connection closed; the table's updates go with its last connection."""
    with _lock:
        counted = _seats.get(table_id)
        if counted is None:
            return
        counted[seat] -= 1
        if counted[seat] <= 0:
            del counted[seat]
        if not counted:
            del _seats[table_id]
            _made.pop(table_id, None)


def seats(table_id: int) -> frozenset[int | None]:
    """The seats connected at ``table_id`` in this process."""
    with _lock:
        return frozenset(_seats.get(table_id, ()))


def keep(table_id: int, seq: int, found: dict[Key, Update]) -> None:
    """Keep the updates made with action ``seq`` (replacing an earlier action's) while a
    connection at the table is open here."""
    with _lock:
        if table_id in _seats:
            held = _made.get(table_id)
            if held is None or held[0] < seq:
                _made[table_id] = (seq, {key: (update, "") for key, update in found.items()})


def take(table_id: int, seq: int, key: Key) -> tuple[Update, str] | None:
    """The update made with action ``seq`` for ``key`` and its frame text (made once for
    every connection it goes to), or ``None`` when none was."""
    with _lock:
        held = _made.get(table_id)
        if held is None or held[0] != seq or key not in held[1]:
            return None
        update, text = held[1][key]
        if not text:
            text = frame({"type": "update", "events": update.events, "view": update.view})
            held[1][key] = (update, text)
        return update, text
