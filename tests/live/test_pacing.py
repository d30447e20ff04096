"""The pause after a hand's end (games/live/pacing.py): the next bot waits
``LIVE_HAND_PAUSE_SECONDS`` instead of its own pause, so people see the hand's end before
the next deal. Timed through the process's timer thread with delays on, as
test_in_process.py times the bots' own pause (real threads, a real database)."""

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from config import in_process
from games.live import service
from games.live.models import LiveAction, LiveTable
from games.live.pacing import bot_delay
from games.live.state import replay

from .conftest import SEED


def test_the_pause_after_a_hands_end_replaces_the_bots_own() -> None:
    assert bot_delay(False, 1.0, 5.0) == 1.0
    assert bot_delay(True, 1.0, 5.0) == 5.0
    assert bot_delay(True, 1.0, 0.0) == 0.0  # no pause asked: none
    assert bot_delay(False, -1.0, 5.0) == 0.0 and bot_delay(True, 1.0, -2.0) == 0.0


@pytest.fixture
def _delays_in_process(settings: Any, eager_tasks: None) -> Iterator[None]:
    settings.CELERY_EAGER_DELAYS = True
    yield
    in_process.clear()


def _hand_of(texts: list[str], seq: int) -> int:
    return int(replay(SEED, texts[:seq]).game.observation(0).hand_no)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_delays_in_process")
def test_the_next_bot_waits_the_hand_pause_after_a_hands_end(settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    settings.LIVE_HAND_PAUSE_SECONDS = 1.0
    # four bots: hand 1 is played inside the creation's commit, at no pause
    table = service.create_table([service.SeatPlan(bot="greedy")] * 4, seed=SEED,
                                 move_seconds=None)
    first_hand = LiveTable.objects.get(pk=table.pk).seq
    ended_at = timezone.now()
    assert first_hand > 10 and in_process.pending() == 1  # the next bot's move waits
    end = time.monotonic() + 20
    while LiveTable.objects.get(pk=table.pk).seq == first_hand:
        assert time.monotonic() < end, "hand 2 did not begin"
        time.sleep(0.05)
    LiveTable.objects.filter(pk=table.pk).update(paused_at=timezone.now())  # no more moves
    actions = list(LiveAction.objects.filter(table=table).order_by("seq"))
    texts = [action.action for action in actions]
    assert _hand_of(texts, first_hand - 1) == 1 and _hand_of(texts, first_hand + 1) == 2
    gap = actions[first_hand].created - actions[first_hand - 1].created
    assert gap.total_seconds() >= 0.95  # the hand's end stood a pause's length
    assert (actions[first_hand].created - ended_at).total_seconds() >= 0.9
    # and only there: hand 1 was played at the bots' pause (none), before the creation
    # returned, however slow this machine
    assert actions[first_hand - 1].created <= ended_at


def test_nobody_playing_means_no_pause() -> None:
    assert bot_delay(False, 1.0, 5.0, people=False) == 0.0
    assert bot_delay(True, 1.0, 5.0, people=False) == 0.0
    assert bot_delay(True, 1.0, 5.0, people=True) == 5.0
