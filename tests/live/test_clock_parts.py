"""The turn's clock told apart (games/live/seating.py ``clock_parts``, and every view's
``turn_left`` and ``reserve_left``): the turn's own time first, the reserve only once that
is gone, as chess and bridge clocks show them."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.live import service
from games.live.models import LiveTable
from games.live.seating import clock_parts

from .conftest import FIRST, SEED


def test_the_turns_own_time_is_spent_before_the_reserve() -> None:
    assert clock_parts(None, 300.0) == (None, None)
    assert clock_parts(360.0, 300.0) == (60.0, 300.0)  # a fresh turn: not "6:00"
    assert clock_parts(310.0, 300.0) == (10.0, 300.0)
    assert clock_parts(200.0, 300.0) == (0.0, 200.0)
    assert clock_parts(0.0, 300.0) == (0.0, 0.0)
    assert clock_parts(90.0, None) == (90.0, None)  # no reserve at this table


@pytest.mark.django_db
def test_every_view_has_the_turn_and_the_reserve_apart(player: Any) -> None:
    table = service.create_table(
        [service.SeatPlan(user=player) if s == FIRST else service.SeatPlan(bot="greedy")
         for s in range(4)], seed=SEED, move_seconds=60, reserve_seconds=300)
    view = service.update_since(table.pk, None, 0).view
    assert view["time_left"] == pytest.approx(360, abs=2)
    assert view["turn_left"] == pytest.approx(60, abs=2)
    assert view["reserve_left"] == 300
    # 100 seconds into the turn: its own time gone, 40 seconds of the reserve spent
    started = timezone.now() - timedelta(seconds=100)
    LiveTable.objects.filter(pk=table.pk).update(
        turn_started=started, deadline=started + timedelta(seconds=360))
    view = service.update_since(table.pk, FIRST, 0).view
    assert view["turn_left"] == 0
    assert view["reserve_left"] == pytest.approx(260, abs=2)
    practice = service.create_practice_table(player, "random", seat=FIRST, seed=SEED)
    view = service.update_since(practice.pk, FIRST, 0).view  # its turn only, no reserve
    assert view["reserve_left"] is None and view["turn_left"] == pytest.approx(120, abs=2)
