"""A live table's rows in plain SQL (games/live/rows.py) read and write what the ORM
would, on the database the suite runs on (SQLite, or PostgreSQL in CI)."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from games.live import rows, service
from games.live.models import LiveAction, LiveTable

from .conftest import FIRST, SEED

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(player: Any) -> LiveTable:
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    LiveTable.objects.filter(pk=table.pk).update(
        deadline=timezone.now() + timedelta(seconds=30), record={"format": "push-record/1"})
    return table


def _fields(table: LiveTable) -> dict[str, Any]:
    return {**model_to_dict(table), "created": table.created}


def test_a_table_read_is_the_orms(table: LiveTable) -> None:
    read = rows.read_table(table.pk)
    assert read is not None
    assert _fields(read) == _fields(LiveTable.objects.get(pk=table.pk))
    assert read.deadline is not None and read.deadline.tzinfo is not None
    assert read.record == {"format": "push-record/1"}


@pytest.mark.parametrize("table_id", [0, -1, 2**63, 10**30])
def test_an_id_out_of_the_columns_range_is_no_table(table_id: int) -> None:
    assert rows.read_table(table_id) is None
    assert rows.lock_table(table_id) is None


def test_the_lock_reads_the_table_and_its_seats(table: LiveTable) -> None:
    with transaction.atomic():
        locked = rows.lock_table(table.pk)
    assert locked is not None
    assert _fields(locked.table) == _fields(LiveTable.objects.get(pk=table.pk))
    assert locked.levels == {s: ("" if s == FIRST else "greedy") for s in range(4)}
    assert rows.lock_table(table.pk + 1000) is None


def test_a_table_and_its_actions_after_a_number_are_read_together(table: LiveTable) -> None:
    read = rows.read_table(table.pk)
    assert read is not None
    for text in ("0 take", "0 discard 4C", "1 push"):  # the last one a bot's
        read.seq += 1
        rows.log_action(read, int(text[0]), text, f"!bot-{read.seq - 1}" if read.seq == 3
                        else f"c-{read.seq}")
    found = [rows.read_table_since(table.pk, after) for after in (0, 1, 3)]
    assert all(found)
    assert all(_fields(read.table) == _fields(LiveTable.objects.get(pk=table.pk))
               for read in filter(None, found))
    assert [(read.after, read.actions, read.by_server) for read in filter(None, found)] == [
        (0, ["0 take", "0 discard 4C", "1 push"], {3}), (1, ["0 discard 4C", "1 push"], {3}),
        (3, [], set())]
    assert rows.read_table_since(table.pk + 1000, 0) is None
    assert rows.read_table_since(2**63, 0) is None


def test_an_action_logged_is_what_the_orm_reads_back(table: LiveTable) -> None:
    read = rows.read_table(table.pk)
    assert read is not None
    read.seq, read.status = read.seq + 1, LiveTable.Status.FINISHED
    read.deadline, read.record = None, {"hands": [1, 2]}
    with transaction.atomic():
        rows.log_action(read, 2, "2 discard 4C", "c-1")
    assert _fields(LiveTable.objects.get(pk=table.pk)) == _fields(read)
    logged = LiveAction.objects.get(table=table)
    assert (logged.seq, logged.seat, logged.action, logged.client_id) == (
        read.seq, 2, "2 discard 4C", "c-1")
    assert abs(timezone.now() - logged.created) < timedelta(seconds=60)
    assert rows.logged_actions(table.pk, 0, read.seq) == ["2 discard 4C"]
    assert rows.logged_seq(table.pk, 2, "c-1") == read.seq
    assert rows.logged_seq(table.pk, 1, "c-1") is None
