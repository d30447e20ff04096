"""Move deadlines (LIVE.md "Time"): the clock runs only on a person's turn; when it runs
out, the seat's stand-in bot finishes that turn once, however many timers fire; and the
result hook runs apart from the last move, retried by the sweep until it succeeds.

Time passing is the deadline moved into the past in the database: no test sleeps."""

from datetime import timedelta
from multiprocessing import get_context
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from games.bots import make_bot
from games.engine import Discard, deal_from_seed, parse_action, play_game
from games.live import followups, service
from games.live.kinds import on_finished
from games.live.models import LiveAction, LiveSeat, LiveTable
from games.live.tasks import live_turn_timeout

from .conftest import FIRST, SEED, run_out

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _two_minutes(settings: Any) -> None:
    settings.LIVE_MOVE_SECONDS = 120


@pytest.fixture
def table(player: Any) -> LiveTable:
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    service.begin(table.pk)  # the person opened it: its bots play
    return table


def _deadline(table: LiveTable) -> Any:
    return LiveTable.objects.get(pk=table.pk).deadline


def _bots_play(table: LiveTable) -> None:
    """The bots move until the person's turn comes (their tasks, called in turn)."""
    while (view := service.update_since(table.pk, None, 0).view)["to_move"] != FIRST:
        assert service.bot_move(table.pk, view["seq"]) is not None


def _stand_in_turn(table: LiveTable) -> list[str]:
    return list(LiveAction.objects.filter(table=table, client_id__startswith="!stand-in-")
                .order_by("seq").values_list("action", flat=True))


def test_the_clock_runs_only_on_a_persons_turn(table: LiveTable) -> None:
    first = _deadline(table)
    assert first is not None and first > timezone.now() + timedelta(seconds=100)
    view = service.update_since(table.pk, FIRST, 0).view
    assert view["deadline"] == first.isoformat() and view["deadline"].endswith("+00:00")
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    assert _deadline(table) == first  # one countdown for the whole turn
    discard = next(a for a in service.update_since(table.pk, FIRST, 0).view["legal"]
                   if " discard " in a)
    service.table_act(table.pk, FIRST, discard, "c2")
    assert _deadline(table) is None  # a bot's turn
    assert service.update_since(table.pk, None, 0).view["deadline"] is None
    _bots_play(table)
    again = _deadline(table)
    assert again is not None and again > first


def test_a_table_without_a_limit_has_no_deadline(player: Any, settings: Any) -> None:
    settings.LIVE_MOVE_SECONDS = None
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    assert _deadline(table) is None and table.move_seconds is None


def test_a_timer_coming_due_while_the_table_awaits_its_person_is_not_sent_again(
        player: Any, django_capture_on_commit_callbacks: Any) -> None:
    """The clock starts when play begins (``service.begin``): a timer re-armed for the
    deadline that passed meanwhile would fire at once, again and again, for ever (a worker,
    or make run's one timer thread, busy with nothing else)."""
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    passed = timezone.now() - timedelta(minutes=1)
    LiveTable.objects.filter(pk=table.pk).update(deadline=passed, timer_due=passed)
    with django_capture_on_commit_callbacks() as sent:
        assert live_turn_timeout(table.pk, passed.isoformat()) == 0
        assert followups.sweep()["turns_timed_out"] == 0
    assert sent == []  # no timer, no task
    found = LiveTable.objects.get(pk=table.pk)
    assert found.awaiting and found.seq == 0 and found.timer_due is None


def test_a_passed_deadline_lets_the_stand_in_finish_that_turn_once(table: LiveTable) -> None:
    deadline = run_out(table)
    assert live_turn_timeout(table.pk, deadline) >= 2  # a draw, then ... a discard
    turn = _stand_in_turn(table)
    assert turn[0] in (f"{FIRST} take", f"{FIRST} push")
    assert all(parse_action(a).seat == FIRST for a in turn)
    assert isinstance(parse_action(turn[-1]), Discard)
    assert LiveAction.objects.filter(table=table).count() == len(turn)
    assert _deadline(table) is None  # the next seat, a bot, is to move
    # the person keeps the seat, and the same timer again does nothing
    assert LiveSeat.objects.get(table=table, seat=FIRST).user is not None
    assert live_turn_timeout(table.pk, deadline) == 0
    assert len(_stand_in_turn(table)) == len(turn)


def test_a_stale_or_early_timer_does_nothing(table: LiveTable) -> None:
    early = _deadline(table).isoformat()
    assert live_turn_timeout(table.pk, early) == 0  # not yet
    deadline = run_out(table)
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    discard = next(a for a in service.update_since(table.pk, FIRST, 0).view["legal"]
                   if " discard " in a)
    service.table_act(table.pk, FIRST, discard, "c2")  # the person made it after all
    assert live_turn_timeout(table.pk, deadline) == 0
    assert _stand_in_turn(table) == []


def test_an_action_chosen_for_a_past_state_is_refused(table: LiveTable) -> None:
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    with pytest.raises(service.TableError, match="moved on"):
        service.table_act(table.pk, FIRST, f"{FIRST} discard 4C", "late", expected_seq=0)


@pytest.mark.usefixtures("eager_tasks")
def test_the_sweep_sends_the_timer_of_a_passed_deadline(table: LiveTable) -> None:
    assert followups.sweep()["turns_timed_out"] == 0
    run_out(table)
    assert followups.sweep()["turns_timed_out"] == 1
    assert _stand_in_turn(table) and _deadline(table) is None


def _race(table_id: int, deadline: str, barrier: Any) -> None:
    connections.close_all()  # a connection of its own, not the parent's
    barrier.wait(timeout=60)
    service.turn_timeout(table_id)
    connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_two_timers_racing_make_the_turn_once(table: LiveTable) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks between processes need PostgreSQL")
    deadline = run_out(table)
    connections.close_all()
    fork = get_context("fork")
    barrier = fork.Barrier(2)
    timers = [fork.Process(target=_race, args=(table.pk, deadline, barrier)) for _ in range(2)]
    for timer in timers:
        timer.start()
    for timer in timers:
        timer.join(timeout=120)
        assert timer.exitcode == 0
    turn = _stand_in_turn(table)
    draws = [a for a in turn if a.endswith((" take", " push"))]
    assert len(draws) == 1 and turn[0] == draws[0]
    assert sum(isinstance(parse_action(a), Discard) for a in turn) <= 1
    assert list(LiveAction.objects.filter(table=table).values_list("seq", flat=True)) == list(
        range(1, len(turn) + 1))
    assert _deadline(table) is None


# -- the result hook ---------------------------------------------------------------------

hook_calls: list[int] = []
hook_broken = True


def flaky_hook(table: LiveTable) -> None:
    """A finished-table handler whose service is down until the test mends it."""
    if hook_broken:
        raise ConnectionError("the results service is down")
    hook_calls.append(table.pk)


on_finished("test-deadlines", flaky_hook)


def _one_action_from_the_end(table: LiveTable) -> tuple[int, str]:
    """Log a whole game of bots but its last action; that action's seat and text."""
    first_dealer, decks = deal_from_seed(SEED)
    record = play_game([make_bot("greedy", seat) for seat in range(4)], first_dealer, decks)
    actions = [a for hand in record.hands for a in hand.actions]
    LiveAction.objects.bulk_create(
        LiveAction(table=table, seq=i, seat=a.seat, action=str(a), client_id=f"g{i}")
        for i, a in enumerate(actions[:-1], start=1))
    LiveTable.objects.filter(pk=table.pk).update(
        seq=len(actions) - 1, reports_to="test-deadlines", result_ref="match 3")
    return actions[-1].seat, str(actions[-1])


def test_a_failing_hook_neither_breaks_the_last_move_nor_loses_the_result(
        table: LiveTable, act: Any) -> None:
    global hook_broken
    seat, last = _one_action_from_the_end(table)
    hook_broken = True
    try:
        act(table.pk, seat, last, "last")  # the hook fails in its task, not here
        table.refresh_from_db()
        assert table.status == LiveTable.Status.FINISHED and table.record is not None
        assert not table.reported and hook_calls == []
        hook_broken = False  # the service is back: the sweep reports, once
        assert followups.sweep()["reports_sent"] == 1
        assert followups.sweep()["reports_sent"] == 0
    finally:
        hook_broken = True
    table.refresh_from_db()
    assert table.reported and hook_calls == [table.pk]


def _timer(table: LiveTable) -> Any:
    return LiveTable.objects.get(pk=table.pk).timer_due


def _play_a_turn(table: LiveTable, client: str) -> None:
    service.table_act(table.pk, FIRST, f"{FIRST} take", client + "t")
    discard = next(a for a in service.update_since(table.pk, FIRST, 0).view["legal"]
                   if " discard " in a)
    service.table_act(table.pk, FIRST, discard, client + "d")
    _bots_play(table)


def test_a_table_has_one_timer_out_not_one_a_turn(table: LiveTable) -> None:
    first = _deadline(table)
    assert _timer(table) == first  # the first turn sent the table's timer
    _play_a_turn(table, "a")
    later = _deadline(table)
    assert later > first and _timer(table) == first  # out already, due before it: none sent


def test_the_timer_finding_the_deadline_ahead_is_sent_again_for_it(table: LiveTable) -> None:
    _play_a_turn(table, "a")
    now_due = timezone.now() - timedelta(seconds=1)  # the timer's time has come
    LiveTable.objects.filter(pk=table.pk).update(timer_due=now_due)
    assert live_turn_timeout(table.pk, now_due.isoformat()) == 0  # the turn is not over
    assert _timer(table) == _deadline(table) and _stand_in_turn(table) == []


def test_a_timer_lost_long_ago_is_replaced_by_the_next_turn(table: LiveTable) -> None:
    lost = timezone.now() - timedelta(seconds=60)
    LiveTable.objects.filter(pk=table.pk).update(timer_due=lost)
    _play_a_turn(table, "a")
    assert _timer(table) == _deadline(table)


def test_the_stand_in_leaves_no_timer_out_and_the_next_turn_sends_one(
        table: LiveTable) -> None:
    deadline = run_out(table)
    LiveTable.objects.filter(pk=table.pk).update(timer_due=deadline)
    assert live_turn_timeout(table.pk, deadline) >= 2
    assert _timer(table) is None and _deadline(table) is None  # a bot's turn
    _bots_play(table)
    assert _timer(table) == _deadline(table) is not None
