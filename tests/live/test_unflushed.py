"""A heartbeat's write does not wait for the disk; an action's does (docs/operating/
capacity.md, "The commits"). On PostgreSQL, each UPDATE of a seat or a table is followed,
in the same transaction, by a read of the ``synchronous_commit`` it will commit with."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.live import presence, service
from games.live.models import LiveSeat, LiveTable

from .conftest import FIRST, SEED

pytestmark = pytest.mark.usefixtures("postgres")

TABLES = {LiveSeat._meta.db_table: "seat", LiveTable._meta.db_table: "table"}
UPDATED = re.compile(r'\bUPDATE "(\w+)" SET\b')


@pytest.fixture
def table(player: Any) -> LiveTable:
    """The person at the seat to move first, three greedy bots."""
    return service.create_table(
        [service.SeatPlan(user=player) if s == FIRST else service.SeatPlan(bot="greedy")
         for s in range(4)], seed=SEED)


@contextmanager
def commit_settings() -> Iterator[list[tuple[str, str]]]:
    """Meanwhile, each UPDATE of a seat or a table, as ("seat" or "table", the
    ``synchronous_commit`` of its transaction), read on the same connection right after."""
    seen: list[tuple[str, str]] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        # an action's is "WITH logged AS (INSERT ...) UPDATE ...", one statement
        for name in UPDATED.findall(sql):
            if name in TABLES:
                seen.append((TABLES[name], _setting(context["connection"].connection)))
        return result

    with connection.execute_wrapper(record):
        yield seen


def _setting(raw: Any) -> str:
    """The driver's connection's ``synchronous_commit``, in its transaction (if any)."""
    with raw.cursor() as cursor:
        cursor.execute("SELECT current_setting('synchronous_commit')")
        return str(cursor.fetchone()[0])


def _heartbeat_due(table: LiveTable) -> None:
    """The seat was last written long enough ago that a heartbeat writes it again."""
    LiveSeat.objects.filter(table=table, seat=FIRST).update(
        seen=timezone.now() - timedelta(seconds=2 * presence.WRITE_EVERY))


def test_a_heartbeat_commits_without_waiting_for_the_disk_and_an_action_waits(
        table: LiveTable) -> None:
    with commit_settings() as arriving:
        presence.heard(table.pk, FIRST, arriving=True)
    _heartbeat_due(table)
    with commit_settings() as heartbeat:
        assert presence.heard(table.pk, FIRST) is None  # the usual one: nothing new
    with commit_settings() as hidden:
        assert presence.heard(table.pk, FIRST, hidden=True) is not None  # a change told
    with commit_settings() as acting:
        service.table_act(table.pk, FIRST, f"{FIRST} take", "t-1")

    assert heartbeat == [("seat", "off")]
    assert hidden and set(hidden) == {("seat", "off")}
    assert arriving == [("seat", "on")]
    assert acting and set(acting) == {("table", "on")}
    # the setting went with the heartbeat's transaction
    assert _setting(connection.connection) == "on"
    assert LiveSeat.objects.get(table=table, seat=FIRST).tab == LiveSeat.Tab.HIDDEN


def test_a_heartbeat_in_a_callers_transaction_leaves_its_durability_alone(
        table: LiveTable) -> None:
    _heartbeat_due(table)
    with commit_settings() as heartbeat, transaction.atomic():
        presence.heard(table.pk, FIRST)

    assert heartbeat and set(heartbeat) == {("seat", "on")}
