"""Updates made with a person's action for this process's other connections at the table
(games/live/prepared.py): each is what a read of its own would have sent, and a notice of
that action is answered without reading the table again."""

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model

from games.live import prepared, service, shared, updates
from games.live.models import LiveTable

from .conftest import FIRST, SEED
from .sockets import TIMEOUT, joined, session_cookie, update_at


def _four_people() -> tuple[LiveTable, list[Any]]:
    people = [get_user_model().objects.create_user(f"person-{seat}") for seat in range(4)]
    table = service.create_table([service.SeatPlan(user=user) for user in people],
                                 seed=SEED, move_seconds=None)
    return table, people


@pytest.fixture
def _counted() -> Any:
    """What the test counted as connected here, and kept, forgotten after it."""
    yield
    prepared._seats.clear()
    prepared._made.clear()


@pytest.mark.django_db
@pytest.mark.usefixtures("_counted")
def test_the_updates_made_with_an_action_are_what_each_would_read() -> None:
    table, _people = _four_people()
    assert FIRST is not None
    for seat in (0, 1, 2, 3, None):
        prepared.arrived(table.pk, seat)
    legal = service.update_since(table.pk, FIRST, 0).view["legal"]
    seq, mine = service.act_and_update(table.pk, FIRST, legal[0], "c-1", 0,
                                       prepared.seats(table.pk))
    assert seq == 1
    for seat in (0, 1, 2, 3, None):
        made = prepared.take(table.pk, 1, (seat, 0))
        assert made is not None
        read = service.update_since(table.pk, seat, 0)
        assert (made[0].events, made[0].view) == (read.events, read.view)
        assert made[1] == shared.frame({"type": "update", "events": read.events,
                                        "view": read.view})
    assert prepared.take(table.pk, 1, (FIRST, 0))[0].view == mine.view  # type: ignore[index]
    # another number, or a connection that was further behind, reads as before
    assert prepared.take(table.pk, 2, (0, 0)) is None
    assert prepared.take(table.pk, 1, (0, None)) is None


@pytest.mark.django_db
@pytest.mark.usefixtures("_counted")
def test_nothing_is_kept_for_a_table_nobody_here_is_at_and_the_last_to_leave_clears_it(
        ) -> None:
    table, _people = _four_people()
    prepared.keep(table.pk, 1, {})
    assert table.pk not in prepared._made
    prepared.arrived(table.pk, 2)
    prepared.arrived(table.pk, 2)
    prepared.keep(table.pk, 3, {(2, 2): updates.Update([], {"seq": 3})})
    prepared.keep(table.pk, 2, {(2, 1): updates.Update([], {"seq": 2})})  # an older action's
    assert prepared.take(table.pk, 3, (2, 2)) is not None
    prepared.left(table.pk, 2)
    assert prepared.seats(table.pk) == {2}
    prepared.left(table.pk, 2)
    assert prepared.seats(table.pk) == frozenset()
    assert prepared.take(table.pk, 3, (2, 2)) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("layer", "eager_tasks")
def test_a_notice_of_the_action_made_here_is_answered_without_a_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The partner and a spectator connected here get the mover's action with no read of
    the table; the spectator sees no card of a hand; after all leave nothing is kept."""
    table, people = _four_people()
    assert FIRST is not None
    partner = (FIRST + 2) % 4
    reads: list[object] = []
    real_read = shared.update
    cookies = {seat: session_cookie(people[seat]) for seat in (FIRST, partner)}

    async def counted_read(*args: Any) -> Any:
        reads.append(args[2:])
        return await real_read(*args)

    async def run() -> None:
        mover, first = await joined(table.pk, cookies[FIRST])
        other, _ = await joined(table.pk, cookies[partner])
        watcher, _ = await joined(table.pk)
        monkeypatch.setattr(shared, "update", counted_read)
        action = first["view"]["legal"][0]
        await mover.send_json_to({"type": "act", "action": action, "id": "c-1"})
        for comm, seat in ((other, partner), (watcher, None)):
            got = await update_at(comm, 1, [])
            assert got["events"][0]["action"] == action
            assert got["view"]["seat"] == seat
            assert ("hand" in got["view"]) == (seat is not None)
        assert reads == []  # no connection read the table for the notice
        for comm in (mover, other, watcher):
            await comm.disconnect(timeout=TIMEOUT)

    async_to_sync(run)()
    assert table.pk not in prepared._made and table.pk not in prepared._seats
