"""A table a person opens starts with its first action (``LiveTable.awaiting``): at a
practice table no bot moves, by its task or by the sweep, until the person holding the
seat connects; then play begins, once, however many connections arrive at the same time.
At a table with a clock and a grace, neither runs until then.
On PostgreSQL (row locks), with the tasks in-process."""

import threading
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.live import followups, presence, service
from games.live.models import LiveAction, LiveTable
from games.live.seating import load

from .conftest import FIRST, SEED, in_thread, quiet_for
from .sockets import joined

pytestmark = pytest.mark.usefixtures("postgres", "eager_tasks")

PERSON = (FIRST + 1) % 4  # the person sits after the first mover: a bot moves first
GRACE = 60


def _table(player: Any, seat: int = PERSON) -> LiveTable:
    table = service.create_practice_table(player, "greedy", seat=seat, seed=SEED)
    assert LiveTable.objects.get(pk=table.pk).awaiting
    return table


def _seq(table: LiveTable) -> int:
    return LiveTable.objects.get(pk=table.pk).seq


def test_a_practice_tables_bots_wait_until_the_person_connects(
        player: Any, cookie: str) -> None:
    table = _table(player)
    assert _seq(table) == 0  # the first mover is a bot, and it did not move
    assert service.bot_move(table.pk, 0) is None  # its task does nothing
    quiet_for(table, followups.STALLED_SECONDS + 5)
    assert followups.sweep()["bot_moves_sent"] == 0  # nor does the sweep send one
    assert _seq(table) == 0

    async def arrive() -> Any:
        comm, first = await joined(table.pk, cookie)
        await comm.disconnect()
        return first

    first = async_to_sync(arrive)()
    # the first update shows the table as it was; then the bots played up to the person
    assert first["view"]["seq"] == 0 and first["view"]["log"] == []
    found = LiveTable.objects.get(pk=table.pk)
    assert not found.awaiting and found.seq > 0
    assert service.to_move(found) == PERSON


def test_a_spectator_does_not_start_it(player: Any) -> None:
    table = _table(player)

    async def watch() -> None:
        comm, _first = await joined(table.pk)
        await comm.disconnect()

    async_to_sync(watch)()
    assert LiveTable.objects.get(pk=table.pk).awaiting and _seq(table) == 0


def test_the_persons_own_first_action_starts_it(player: Any,
                                                django_capture_on_commit_callbacks: Any) -> None:
    table = _table(player, seat=FIRST)  # the person moves first
    with django_capture_on_commit_callbacks(execute=True):
        service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    discard = next(a for a in service.update_since(table.pk, FIRST, 0).view["legal"]
                   if " discard " in a)
    with django_capture_on_commit_callbacks(execute=True):
        service.table_act(table.pk, FIRST, discard, "c2")
    found = LiveTable.objects.get(pk=table.pk)
    assert not found.awaiting and found.seq > 2  # the bots answered
    assert service.to_move(found) == FIRST


def test_two_connections_arriving_at_once_begin_it_once(player: Any) -> None:
    table = _table(player)
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:  # the table's row locked while both arrive
        with transaction.atomic():
            LiveTable.objects.select_for_update().get(pk=table.pk)
            locked.set()
            release.wait(10)

    holder, _held = in_thread(hold)
    assert locked.wait(10)
    arrivals = [in_thread(lambda: service.begin(table.pk)) for _ in range(2)]
    release.set()
    holder.join(10)
    for thread, _out in arrivals:
        thread.join(30)
    assert sorted(out.get("value") for _thread, out in arrivals) == [False, True]
    found = LiveTable.objects.get(pk=table.pk)
    assert not found.awaiting and service.to_move(found) == PERSON
    seqs = list(LiveAction.objects.filter(table=table).values_list("seq", flat=True))
    assert seqs == list(range(1, found.seq + 1))  # the bots played once, in order


def test_a_tournament_style_table_never_awaits(player: Any) -> None:
    table = service.create_table([service.SeatPlan(user=player)]
                                 + [service.SeatPlan(bot="greedy")] * 3, seed=SEED)
    assert not LiveTable.objects.get(pk=table.pk).awaiting


def test_a_friends_table_awaits_its_first_person_too(player: Any) -> None:
    from games.live import friends

    waiting = friends.open_friend_table(player, seat=PERSON, friends=[(PERSON + 2) % 4],
                                        bot="greedy")
    table = friends.start_friend_table(player, waiting.pk)  # the friend's seat: a bot's
    found = LiveTable.objects.get(pk=table.pk)
    assert found.awaiting and found.seq == 0
    first = service.to_move(found)  # the deal is random: a bot's seat, or the host's
    assert service.begin(table.pk)  # the host opened it
    assert (_seq(table) > 0) == (first != PERSON)  # the bots before the host have played
    assert service.to_move(LiveTable.objects.get(pk=table.pk)) == PERSON


def _awaiting_match(player: Any) -> tuple[LiveTable, int]:
    """A tournament-style table of two people (the player to move first, the other in the
    next seat) and two bots, with a clock and a grace, that awaits its first person (an
    online tournament's that waits for its players); and the other person's seat."""
    other = get_user_model().objects.create_user("bea", password="pw-bea-123")
    absent = (FIRST + 1) % 4
    plans = [service.SeatPlan(bot="greedy")] * 4
    plans[FIRST] = service.SeatPlan(user=player, substitute="greedy")
    plans[absent] = service.SeatPlan(user=other, substitute="greedy")
    table = service.create_table(plans, seed=SEED, move_seconds=30, grace_seconds=GRACE,
                                 awaiting=True)
    return table, absent


def test_nobody_is_substituted_or_timed_out_while_the_table_awaits_its_people(
        player: Any) -> None:
    table, _absent = _awaiting_match(player)
    # an hour later nobody has come: no substitute, no stand-in for the lapsed turn
    quiet_for(table, 3600)
    LiveTable.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(hours=1))
    assert presence.check_away(table.pk) == []
    assert service.turn_timeout(table.pk) == 0
    found = LiveTable.objects.get(pk=table.pk)
    assert found.seq == 0 and found.awaiting and not any(s.away for s in load(found.seating))


def test_when_the_first_person_sits_down_the_clock_and_the_grace_start_then(
        player: Any) -> None:
    table, absent = _awaiting_match(player)
    quiet_for(table, 3600)
    LiveTable.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(hours=1))
    assert service.begin(table.pk)
    found = LiveTable.objects.get(pk=table.pk)
    assert found.began is not None and found.deadline is not None
    assert found.deadline > timezone.now() + timedelta(seconds=20)  # the turn's 30 s anew
    assert presence.check_away(table.pk) == []  # the other person's grace runs from now
    LiveTable.objects.filter(pk=table.pk).update(began=timezone.now()
                                                 - timedelta(seconds=GRACE + 1))
    assert presence.check_away(table.pk) == [FIRST, absent]  # neither seen since
