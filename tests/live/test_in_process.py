"""Where there is no broker (``make run``), tasks sent for later wait for their time in the
process's timer thread (config/in_process.py): the bots answer after their pause, not
inside the person's request, and a person's turn runs out on time. Real threads on a real
database (the timer thread's connection sees only what was committed); no test sleeps
longer than the thing it waits for."""

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from config import in_process
from games.engine import parse_action
from games.live import service
from games.live.models import LiveAction, LiveTable

from .conftest import FIRST, SEED

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _delays_in_process(settings: Any, eager_tasks: None) -> Iterator[None]:
    settings.CELERY_EAGER_DELAYS = True
    yield
    in_process.clear()


def _until(done: Callable[[], bool], seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "not done in time"
        time.sleep(0.05)


def _person_to_move(table: LiveTable) -> bool:
    return service.update_since(table.pk, None, 0).view["to_move"] == FIRST


def test_the_bots_answer_after_their_pause_not_inside_the_request(player: Any,
                                                                    settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0.3
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    discard = next(a for a in service.update_since(table.pk, FIRST, 0).view["legal"]
                   if " discard " in a)
    assert service.table_act(table.pk, FIRST, discard, "c2") == 2
    _until(lambda: _person_to_move(table))
    bots = list(LiveAction.objects.filter(table=table, seq__gt=2).order_by("seq"))
    assert {parse_action(a.action).seat for a in bots} == {s for s in range(4) if s != FIRST}
    turns = [a for a in bots if a.client_id.startswith("!bot-")]
    # each bot's turn began a pause after the turn before it ended
    starts = [later.created for earlier, later in zip(bots, bots[1:], strict=False)
              if parse_action(later.action).seat != parse_action(earlier.action).seat]
    ends = [earlier.created for earlier, later in zip(bots, bots[1:], strict=False)
            if parse_action(later.action).seat != parse_action(earlier.action).seat]
    # the first bot waited its pause after the person's move: not inside their request
    first_gap = (bots[0].created - LiveAction.objects.get(table=table, seq=2).created)
    assert turns and first_gap.total_seconds() >= 0.25
    assert all((s - e).total_seconds() >= 0.25 for s, e in zip(starts, ends, strict=True))


def test_a_persons_turn_runs_out_on_time(player: Any, settings: Any) -> None:
    settings.LIVE_MOVE_SECONDS = 1
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    service.begin(table.pk)  # the person opened it: their clock runs
    armed = LiveTable.objects.get(pk=table.pk)
    assert armed.deadline is not None and armed.timer_due == armed.deadline
    _until(lambda: LiveAction.objects.filter(table=table,
                                             client_id__startswith="!stand-in-").exists())
    stand_in = LiveAction.objects.filter(table=table).order_by("seq").first()
    assert stand_in is not None and parse_action(stand_in.action).seat == FIRST
    assert stand_in.created >= armed.deadline  # not before the turn ran out


def test_every_repeats_its_job() -> None:
    runs: list[float] = []
    in_process.every(0.05, lambda: runs.append(time.monotonic()))
    _until(lambda: len(runs) >= 3, seconds=5)
    assert all(b - a >= 0.04 for a, b in zip(runs, runs[1:], strict=False))
