"""A live table's rows in plain SQL: the reads and writes behind every action and every
update a connection is sent.

They run for every action of every table, and on the project's machine the ORM spent
longer compiling each of them than the database took to answer it. The tables come back
as the ORM's own instances (``LiveTable.from_db``, each column through Django's
converters), written through the fields' own ``get_db_prep_save``, so the rest of the code
sees no difference. PostgreSQL locks the table row (``FOR UPDATE OF``); SQLite, which has
no row locks, serialises its writers itself (as the ORM's ``select_for_update`` does there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field
from django.utils import timezone

from . import seating
from .models import LiveAction, LiveSeat, LiveTable

Converter = Callable[[Any, Any, Any], Any]

_TABLE = LiveTable._meta
_FIELDS: list[Field[Any, Any]] = list(_TABLE.concrete_fields)
_NAMES = [field.attname for field in _FIELDS]
_BY_NAME = {field.name: field for field in _FIELDS}
_COLS = [field.get_col(_TABLE.db_table) for field in _FIELDS]
_converters: dict[str, list[list[Converter]]] = {}  # per database vendor


_statements: dict[tuple[str, object], str] = {}  # per database vendor and statement


def _statement(key: object, build: Callable[[], str]) -> str:
    """The SQL ``build`` makes, made once per database vendor: quoting each name asks the
    connection (a thread-local lookup), 40 times for a statement naming every column."""
    vendor = connection.vendor
    text = _statements.get((vendor, key))
    if text is None:
        text = _statements[vendor, key] = build()
    return text


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _column(field: Field[Any, Any]) -> str:
    """A concrete field's column, quoted (only a field that is not concrete has none)."""
    assert field.column is not None
    return _q(field.column)


def _columns(alias: str) -> str:
    return ", ".join(f"{alias}.{_column(field)}" for field in _FIELDS)


def _table(row: Sequence[Any]) -> LiveTable:
    """The table whose columns (as :func:`_columns` lists them) begin ``row``."""
    db = connections[DEFAULT_DB_ALIAS]  # the thread's own, looked up once (not per column)
    converters = _converters.get(db.vendor)
    if converters is None:
        converters = _converters[db.vendor] = [
            db.ops.get_db_converters(col) + field.get_db_converters(db)
            for field, col in zip(_FIELDS, _COLS, strict=True)]
    values = []
    for col, convert, value in zip(_COLS, converters, row, strict=False):
        for converter in convert:
            value = converter(value, col, db)
        values.append(value)
    return LiveTable.from_db(db.alias, _NAMES, values)


def _in_range(table_id: int) -> bool:
    return 0 < table_id < 2**63  # beyond the id column's range the SQL would be refused


def read_table(table_id: int) -> LiveTable | None:
    """The table's row (``None``: no such table, nor such an id)."""
    if not _in_range(table_id):
        return None
    with connection.cursor() as cursor:
        cursor.execute(_statement("read", lambda: f"SELECT {_columns('t')} "
                                  f"FROM {_q(_TABLE.db_table)} t WHERE t.id = %s"), [table_id])
        row = cursor.fetchone()
    return None if row is None else _table(row)


@dataclass
class Since:
    """A table's row and its actions after number ``after``: their text forms in order,
    and the numbers of those the server chose (a bot's, a substitute's, the stand-in's)."""

    table: LiveTable
    after: int
    actions: list[str]
    by_server: set[int]


def read_table_since(table_id: int, after: int) -> Since | None:
    """The table's row and its actions after number ``after``, read in one statement (one
    snapshot: the actions are those up to the row's ``seq``); ``None``: no such table."""
    if not _in_range(table_id):
        return None
    with connection.cursor() as cursor:
        cursor.execute(_statement("since", lambda: (
            f"SELECT {_columns('t')}, a.seq, a.client_id, a.action "
            f"FROM {_q(_TABLE.db_table)} t LEFT JOIN {_q(LiveAction._meta.db_table)} a "
            "ON a.table_id = t.id AND a.seq > %s WHERE t.id = %s ORDER BY a.seq")),
            [after, table_id])
        found = cursor.fetchall()
    if not found:
        return None
    return Since(_table(found[0]), after, [row[-1] for row in found if row[-1] is not None],
                 {row[-3] for row in found if row[-2] is not None and row[-2].startswith("!")})


@dataclass
class Locked:
    """A table whose row is locked until the transaction ends, with each seat's own bot
    level ("" for a person's seat), its substitute's level ("" for a bot's seat) and its
    state (``seating``, from the table's row; written back with it by ``log_action``
    and ``write_table``)."""

    table: LiveTable
    bots: dict[int, str]
    substitutes: dict[int, str]
    states: list[seating.SeatState]
    #: The deadline a timer is to be sent for once the transaction commits (``turns``).
    timer: datetime | None = None
    #: The number the action asked about was logged at already (``lock_table``'s
    #: ``resent``), if it was.
    resent_seq: int | None = None

    @property
    def levels(self) -> dict[int, str]:
        """Which bot plays each seat now ("": its person)."""
        return {seat: seating.level(bot, self.substitutes[seat], self.states[seat])
                for seat, bot in self.bots.items()}

    @property
    def bot_seats(self) -> set[int]:
        """The seats a bot plays now (its own, or a person's substitute)."""
        return {seat for seat, level in self.levels.items() if level}

    def person(self, seat: int) -> bool:
        """Whether a person holds ``seat`` (whoever plays it now)."""
        return not self.bots[seat]


def lock_table(table_id: int, resent: tuple[int, str] | None = None) -> Locked | None:
    """The table, its row locked until the transaction ends, read with its seats in one
    statement (``None``: no such table). ``resent``: a seat and a client's action id, and
    whether that action was logged already (``Locked.resent_seq``), asked once the lock is
    held (so that it sees an action committed while the lock waited) in the same round
    trip on PostgreSQL: its own statement after the locking one, with a snapshot of its
    own."""
    if not _in_range(table_id):
        return None
    select = _statement("lock", _lock_select)
    done: int | None = None
    with connection.cursor() as cursor:
        if resent is not None and connection.vendor == "postgresql":
            cursor.execute(f"{select}; {_LOGGED_SEQ}", [table_id, table_id, *resent])
            rows = cursor.fetchall()
            cursor.nextset()
            found = cursor.fetchone()
            done = None if found is None else int(found[0])
        else:
            cursor.execute(select, [table_id])
            rows = cursor.fetchall()
            if resent is not None and rows:
                done = logged_seq(table_id, *resent)
    if not rows:
        return None
    table = _table(rows[0])
    return Locked(table, {row[-3]: row[-2] for row in rows}, {row[-3]: row[-1] for row in rows},
                  seating.load(table.seating), resent_seq=done)


def _lock_select() -> str:
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    return (f"SELECT {_columns('t')}, s.seat, s.bot, s.substitute "
            f"FROM {_q(_TABLE.db_table)} t "
            f"JOIN {_q(LiveSeat._meta.db_table)} s ON s.table_id = t.id WHERE t.id = %s{lock}")


def logged_actions(table_id: int, after: int, upto: int) -> list[str]:
    """The text forms of the table's actions numbered ``after`` + 1 to ``upto``, in order."""
    with connection.cursor() as cursor:
        cursor.execute(_statement("actions", lambda: (
            f"SELECT action FROM {_q(LiveAction._meta.db_table)} "
            "WHERE table_id = %s AND seq > %s AND seq <= %s ORDER BY seq")),
            [table_id, after, upto])
        return [row[0] for row in cursor.fetchall()]


_LOGGED_SEQ = (f"SELECT seq FROM {_q(LiveAction._meta.db_table)} "
               "WHERE table_id = %s AND seat = %s AND client_id = %s")


def logged_seq(table_id: int, seat: int, client_id: str) -> int | None:
    """The sequence number ``seat``'s action with ``client_id`` was logged at, if any. Read
    after the lock (its own statement, so it sees what the lock waited for)."""
    with connection.cursor() as cursor:
        cursor.execute(_LOGGED_SEQ, [table_id, seat, client_id])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


#: What an action may change on the table's row.
_WRITTEN = ("seq", "status", "record", "deadline", "timer_due", "turn_started", "seating")


def log_action(table: LiveTable, seat: int, action: str, client_id: str) -> None:
    """Append ``action`` at ``table.seq`` and write the table's fields an action changes
    (``_WRITTEN``), under the row lock: one statement on PostgreSQL."""
    actions = LiveAction._meta
    created = actions.get_field("created").get_db_prep_save(timezone.now(), connection)
    insert = _statement("log", lambda: (
        f"INSERT INTO {_q(actions.db_table)} (table_id, seq, seat, action, client_id, "
        "created) VALUES (%s, %s, %s, %s, %s, %s)"))
    inserted = [table.pk, table.seq, seat, action, client_id, created]
    update, updated = _update(table, _WRITTEN)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # a data-modifying WITH runs in any case
            cursor.execute(f"WITH logged AS ({insert}) {update}", inserted + updated)
        else:
            cursor.execute(insert, inserted)
            cursor.execute(update, updated)


def _update(table: LiveTable, names: Sequence[str]) -> tuple[str, list[Any]]:
    """The UPDATE of the table's fields ``names`` from ``table``, and its parameters."""
    fields = [_BY_NAME[name] for name in names]
    update = _statement(("update", tuple(names)), lambda: (
        f"UPDATE {_q(_TABLE.db_table)} SET "
        + ", ".join(f"{_column(field)} = %s" for field in fields) + " WHERE id = %s"))
    return update, [field.get_db_prep_save(getattr(table, field.attname), connection)
                    for field in fields] + [table.pk]


def write_table(locked: Locked, *names: str) -> None:
    """Write the locked table's fields ``names`` (its seats' states and timer always), under the
    row lock: what the director and the substitutes change between actions."""
    locked.table.seating = seating.dump(locked.states)
    update, updated = _update(locked.table, ("seating", "timer_due", *names))
    with connection.cursor() as cursor:
        cursor.execute(update, updated)


def server_actions(table_id: int, after: int = 0, upto: int | None = None) -> dict[int, str]:
    """The ids of the table's actions the server chose (a bot's, a substitute's, the
    stand-in's: ids beginning with ``!``), by sequence number (those after ``after``, up
    to ``upto``)."""
    with connection.cursor() as cursor:
        cursor.execute(_statement("by server", lambda: (
            f"SELECT seq, client_id FROM {_q(LiveAction._meta.db_table)} "
            "WHERE table_id = %s AND client_id LIKE %s AND seq > %s AND seq <= %s")),
            [table_id, "!%", after, 2**31 if upto is None else upto])
        return {int(seq): client_id for seq, client_id in cursor.fetchall()}
