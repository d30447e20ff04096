"""Opening many tables at once (``service.create_tables``): each as ``create_table`` opens
one, in a few queries whatever their number, and none at all when one plan is refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.live import service
from games.live.models import LiveSeat, LiveTable
from games.live.rows import lock_table

from .conftest import FIRST, SEED

pytestmark = pytest.mark.django_db


def plans(count: int, *, move_seconds: int | None = 60) -> list[service.TablePlan]:
    """``count`` tables, each with a person of their own in the seat that moves first."""
    made = get_user_model().objects.count()
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"opening-{made + n}") for n in range(count)])
    return [service.TablePlan(
        [service.SeatPlan(user=user, substitute="random") if seat == FIRST
         else service.SeatPlan(bot="greedy") for seat in range(4)],
        seed=SEED, reports_to="", result_ref=str(n), move_seconds=move_seconds,
        reserve_seconds=30, grace_seconds=90) for n, user in enumerate(users)]


def opening_queries(count: int) -> int:
    tables = plans(count)
    with CaptureQueriesContext(connection) as queries:
        service.create_tables(tables)
    return len(queries)


def test_opening_sixteen_tables_costs_the_queries_of_opening_two() -> None:
    assert opening_queries(16) == opening_queries(2)


def test_each_table_is_seated_dealt_and_on_its_first_turn_as_one_opened_alone(
        django_capture_on_commit_callbacks: Any) -> None:
    many = plans(3)
    with django_capture_on_commit_callbacks() as sent:
        tables = service.create_tables(many)
    alone = service.create_table(many[0].seats, seed=SEED, move_seconds=60,
                                 reserve_seconds=30, grace_seconds=90)
    assert [table.result_ref for table in tables] == ["0", "1", "2"]
    assert len(sent) == 3  # each table's first turn goes out once committed
    for table, plan in zip(tables, many, strict=True):
        stored = LiveTable.objects.get(pk=table.pk)
        # the person to move has the turn's time and their reserve, and the timer is out
        assert stored.turn_started is not None and stored.deadline is not None
        assert round((stored.deadline - stored.turn_started).total_seconds()) == 90
        assert stored.timer_due == stored.deadline
        assert stored.seating == LiveTable.objects.get(pk=alone.pk).seating
        assert (stored.seed, stored.move_seconds, stored.reserve_seconds,
                stored.grace_seconds, stored.awaiting) == (SEED, 60, 30, 90, False)
        seats = LiveSeat.objects.filter(table=table).order_by("seat")
        assert [(s.user, s.bot, s.substitute) for s in seats] == [
            (p.user, p.bot, "" if p.bot else p.substitute) for p in plan.seats]
        locked = lock_table(table.pk)
        assert locked is not None and locked.bot_seats == {0, 1, 2, 3} - {FIRST}


def test_a_refused_plan_opens_no_table_at_all() -> None:
    good = plans(2)
    bad = service.TablePlan([service.SeatPlan(bot="genius")] * 4)
    with pytest.raises(service.TableError, match="Unknown bot level genius"):
        service.create_tables([*good, bad])
    assert not LiveTable.objects.exists() and not LiveSeat.objects.exists()
