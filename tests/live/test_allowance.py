"""A connection's frame allowance (games/live/allowance.py): a token bucket, walked with
hypothesis; and on the real application and both channel layers, a client sending beyond
it gets an error for each frame beyond, which is not read, and the connection stays."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from hypothesis import given
from hypothesis import strategies as st

from games.live import service
from games.live.allowance import Allowance
from games.live.models import LiveAction, LiveTable

from .conftest import FIRST, SEED
from .sockets import answer, joined, send_frame

AT_ONCE = st.integers(1, 50)
PER_SECOND = st.floats(0.1, 100)
GAPS = st.lists(st.floats(0, 5), max_size=200)  # seconds between one frame and the next


def _arrivals(gaps: list[float]) -> list[float]:
    now, times = 1000.0, []
    for gap in gaps:
        now += gap
        times.append(now)
    return times


@given(AT_ONCE, PER_SECOND, GAPS)
def test_no_connection_sends_more_than_its_burst_and_its_rate(
        at_once: int, per_second: float, gaps: list[float]) -> None:
    allowance = Allowance(at_once, per_second)
    times = _arrivals(gaps)
    read = [t for t in times if allowance.take(t)]
    if read:
        assert len(read) <= at_once + (read[-1] - times[0]) * per_second + 1e-6


@given(AT_ONCE, PER_SECOND, GAPS)
def test_a_client_at_the_rate_is_never_refused(
        at_once: int, per_second: float, gaps: list[float]) -> None:
    allowance = Allowance(at_once, per_second)
    paced = [max(gap, 1 / per_second) for gap in gaps]
    assert all(allowance.take(t) for t in _arrivals(paced))


@given(AT_ONCE, PER_SECOND)
def test_a_burst_gets_exactly_its_allowance_and_the_rest_waits(
        at_once: int, per_second: float) -> None:
    allowance = Allowance(at_once, per_second)
    assert [allowance.take(10.0) for _ in range(at_once + 3)] == [True] * at_once + [False] * 3
    assert not allowance.take(10.0 + 0.5 / per_second)  # half a frame earned
    assert allowance.take(10.0 + 1 / per_second)  # a whole one, with the half before


def test_a_refused_frame_counts_nothing_and_a_rest_refills_no_more_than_the_burst() -> None:
    allowance = Allowance(2, 1.0)
    assert [allowance.take(0.0) for _ in range(5)] == [True, True, False, False, False]
    assert [allowance.take(100.0) for _ in range(3)] == [True, True, False]


# ---- on the application ----------------------------------------------------------------

RESUME = json.dumps({"type": "resume", "since": 0})


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks", "layer")
def test_frames_beyond_the_allowance_are_refused_unread_and_the_connection_stays(
        player: Any, cookie: str, settings: Any) -> None:
    settings.LIVE_FRAMES_AT_ONCE, settings.LIVE_FRAMES_A_SECOND = 3, 0.1
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    take = json.dumps({"type": "act", "id": "c1", "action": f"{FIRST} take"})

    async def run() -> list[dict[str, Any]]:
        comm, _ = await joined(table.pk, cookie)
        for frame in [RESUME] * 3 + [take, RESUME]:
            await send_frame(comm, frame)
        answers = [await answer(comm) for _ in range(5)]
        await send_frame(comm, RESUME)  # still open: answered, not closed
        answers.append(await answer(comm))
        await comm.disconnect()
        return answers

    answers = async_to_sync(run)()
    assert [a["type"] for a in answers] == ["update"] * 3 + ["error"] * 3
    for error in answers[3:]:
        assert error == {"type": "error", "id": None, "rule": "", "field": None,
                         "message": "Too many messages: at most 0.1 a second; this one was "
                                    "not read."}
    assert LiveTable.objects.get(pk=table.pk).seq == 0 and not LiveAction.objects.exists()
