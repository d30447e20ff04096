"""Clocks with a reserve, and substitutes (LIVE.md "Time", "Substitutes", "Say who
played"): a person gone longer than the table's grace has their seat's substitute bot
play the turns they miss, takes the seat back on returning, and the record says which
actions a bot played for them. Time passing is a time moved into the past in the
database: no test sleeps."""

from datetime import timedelta
from multiprocessing import get_context
from typing import Any

import pytest
from django.db import connections
from django.utils import timezone

from games.engine import verify
from games.live import director, followups, presence, service
from games.live.models import LiveAction, LiveSeat, LiveTable
from games.live.seating import load
from games.live.tasks import live_turn_timeout

from .conftest import FIRST, SEED, run_out

pytestmark = pytest.mark.django_db

TURN, RESERVE, GRACE = 60, 120, 90


@pytest.fixture
def table(player: Any) -> LiveTable:
    """The person at the seat to move first, three greedy bots; a clock and a grace."""
    return service.create_table(
        [service.SeatPlan(user=player) if s == FIRST else service.SeatPlan(bot="greedy")
         for s in range(4)], seed=SEED, move_seconds=TURN, reserve_seconds=RESERVE,
        grace_seconds=GRACE)


def _row(table: LiveTable) -> LiveTable:
    return LiveTable.objects.get(pk=table.pk)


def _view(table: LiveTable, seat: int | None = FIRST) -> dict[str, Any]:
    return service.update_since(table.pk, seat, 0).view


def _ago(seconds: float) -> Any:
    return timezone.now() - timedelta(seconds=seconds)


def _play_turn(table: LiveTable, tag: str) -> None:
    """The person draws and discards (their whole turn)."""
    service.table_act(table.pk, FIRST, f"{FIRST} take", f"{tag}-1")
    discard = next(a for a in _view(table)["legal"] if " discard " in a)
    service.table_act(table.pk, FIRST, discard, f"{tag}-2")


def _bots_play(table: LiveTable) -> None:
    while (view := _view(table, None))["to_move"] != FIRST:
        assert service.bot_move(table.pk, view["seq"]) is not None


def _by(table: LiveTable, prefix: str) -> list[str]:
    return list(LiveAction.objects.filter(table=table, client_id__startswith=prefix)
                .order_by("seq").values_list("action", flat=True))


# -- the clock: a time per turn and a reserve ----------------------------------------------

def test_a_turn_has_its_time_and_the_whole_reserve(table: LiveTable) -> None:
    row = _row(table)
    assert row.deadline is not None and row.turn_started is not None
    left = (row.deadline - row.turn_started).total_seconds()
    assert left == TURN + RESERVE
    view = _view(table)
    assert view["seats"][FIRST]["reserve"] == RESERVE and TURN < view["time_left"] <= TURN + RESERVE
    assert _view(table, None)["seats"][FIRST] == view["seats"][FIRST]  # shown to the table


def test_a_turn_longer_than_its_time_spends_the_reserve(table: LiveTable) -> None:
    LiveTable.objects.filter(pk=table.pk).update(turn_started=_ago(TURN + 40))
    _play_turn(table, "t")
    reserve = load(_row(table).seating)[FIRST].reserve
    assert reserve is not None and RESERVE - 41 < reserve <= RESERVE - 40
    _bots_play(table)
    row = _row(table)  # the next turn: its time and what is left of the reserve
    assert row.deadline is not None and row.turn_started is not None
    assert abs((row.deadline - row.turn_started).total_seconds() - (TURN + reserve)) < 0.01


def test_a_turn_within_its_time_keeps_the_reserve(table: LiveTable) -> None:
    _play_turn(table, "t")
    assert load(_row(table).seating)[FIRST].reserve == RESERVE


def test_when_time_and_reserve_are_gone_the_bot_plays_that_turn_then_the_person(
        table: LiveTable) -> None:
    deadline = run_out(table)
    LiveTable.objects.filter(pk=table.pk).update(turn_started=_ago(TURN + RESERVE + 1))
    assert live_turn_timeout(table.pk, deadline) >= 2  # a draw ... a discard
    assert load(_row(table).seating)[FIRST].reserve == 0
    _bots_play(table)
    row = _row(table)  # the person's next turn: the turn's time, no reserve left
    assert row.deadline is not None and row.turn_started is not None
    assert (row.deadline - row.turn_started).total_seconds() == TURN
    stood_in = _by(table, "!stand-in-")
    _play_turn(table, "next")  # the person plays it
    assert len(_by(table, "next-")) == 2 and _by(table, "!stand-in-") == stood_in


# -- substitutes ---------------------------------------------------------------------------

def test_a_person_who_never_came_gets_their_substitute_after_the_grace(
        table: LiveTable, django_capture_on_commit_callbacks: Any) -> None:
    assert presence.check_away(table.pk) == []  # within the grace
    LiveTable.objects.filter(pk=table.pk).update(created=_ago(GRACE + 1))
    with django_capture_on_commit_callbacks() as sent:
        assert presence.check_away(table.pk) == [FIRST]
    assert sent  # the bot's move (and the notice)
    row = _row(table)
    assert row.deadline is None and load(row.seating)[FIRST].away
    assert _view(table)["seats"][FIRST]["substitute"] is True
    assert service.bot_move(table.pk, row.seq) == row.seq + 1
    assert _by(table, "!substitute-") and not _by(table, "!bot-")


def test_a_person_gone_silent_gets_their_substitute_and_takes_the_seat_back(
        table: LiveTable) -> None:
    presence.heard(table.pk, FIRST, arriving=True)
    assert presence.check_away(table.pk) == []
    LiveSeat.objects.filter(table=table, seat=FIRST).update(seen=_ago(GRACE + 1))
    assert presence.check_away(table.pk) == [FIRST]
    seq = service.bot_move(table.pk, _row(table).seq)  # the substitute draws
    assert seq == 1
    presence.heard(table.pk, FIRST)  # a heartbeat: back, in the middle of the turn
    row = _row(table)
    assert not load(row.seating)[FIRST].away and row.deadline is not None
    assert service.bot_move(table.pk, seq) is None  # the seat is the person's again
    discard = next(a for a in _view(table)["legal"] if " discard " in a)
    assert service.table_act(table.pk, FIRST, discard, "back") == seq + 1  # no turn lost


def test_the_sweep_sends_the_away_check_of_a_silent_table(table: LiveTable) -> None:
    assert followups.sweep()["away_checks_sent"] == 0
    LiveTable.objects.filter(pk=table.pk).update(created=_ago(GRACE + 1))
    assert followups.tables_to_check(timezone.now()) == [table.pk]
    assert followups.sweep()["away_checks_sent"] == 1


def test_a_table_without_a_grace_has_no_substitutes(player: Any) -> None:
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    LiveTable.objects.filter(pk=table.pk).update(created=_ago(10_000))
    assert presence.check_away(table.pk) == []
    assert followups.tables_to_check(timezone.now()) == []


def test_the_record_marks_every_action_a_bot_played_for_a_person(table: LiveTable) -> None:
    LiveTable.objects.filter(pk=table.pk).update(created=_ago(GRACE + 1))
    assert presence.check_away(table.pk) == [FIRST]
    while (row := _row(table)).status == LiveTable.Status.PLAYING:  # bots play it all
        assert service.bot_move(table.pk, row.seq) is not None
    record = row.record
    assert record is not None
    mine = [a for hand in record["hands"] for a in hand["actions"] if a["seat"] == FIRST]
    others = [a for hand in record["hands"] for a in hand["actions"] if a["seat"] != FIRST]
    assert mine and all(a["bot"] == "greedy" for a in mine)  # its substitute, the default
    assert all("bot" not in a for a in others)  # a bot's own seat is no person's
    assert verify(record).status == "complete"  # readers ignore the mark


def test_every_event_says_whether_the_server_chose_it(table: LiveTable) -> None:
    """For the page's log: a substitute's action for the person is marked, the person's
    own is not, whichever way the events are read (the process's copy of the game, a
    replay from the log, or right after the person's action)."""
    LiveTable.objects.filter(pk=table.pk).update(created=_ago(GRACE + 1))
    presence.check_away(table.pk)
    assert service.bot_move(table.pk, 0) == 1  # the substitute draws for the person
    presence.come_back(table.pk, FIRST)
    discard = next(a for a in _view(table)["legal"] if " discard " in a)
    seq, update = service.act_and_update(table.pk, FIRST, discard, "mine", 0)
    assert [(e["seq"], e.get("bot", False)) for e in update.events] == [(1, True), (2, False)]
    for seat in (FIRST, None, (FIRST + 1) % 4):
        events = service.update_since(table.pk, seat, 0).events
        assert [(e["seq"], e.get("bot", False)) for e in events] == [(1, True), (2, False)]
    _bots_play(table)
    later = service.update_since(table.pk, FIRST, seq).events
    assert later and all(e["bot"] for e in later)  # the bots' own seats: chosen by the server


# -- races: exactly one action -------------------------------------------------------------

def _race_return(table_id: int, barrier: Any) -> None:
    connections.close_all()
    barrier.wait(timeout=60)
    presence.come_back(table_id, FIRST)
    connections.close_all()


def _race_bot(table_id: int, seq: int, barrier: Any) -> None:
    connections.close_all()
    barrier.wait(timeout=60)
    service.bot_move(table_id, seq)
    connections.close_all()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("run", range(3))
def test_a_return_racing_the_substitutes_move_ends_in_one_action(
        postgres: None, table: LiveTable, run: int) -> None:
    """Real processes on PostgreSQL: the person coming back and the substitute's move for
    the same turn. Whichever takes the table's lock first wins; never both, never none
    lost (the person then plays on from where it is)."""
    LiveTable.objects.filter(pk=table.pk).update(created=_ago(GRACE + 1))
    assert presence.check_away(table.pk) == [FIRST]
    connections.close_all()
    fork = get_context("fork")
    barrier = fork.Barrier(2)
    racers = [fork.Process(target=_race_return, args=(table.pk, barrier)),
              fork.Process(target=_race_bot, args=(table.pk, 0, barrier))]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(timeout=120)
        assert racer.exitcode == 0
    row = _row(table)
    assert row.seq in (0, 1) and not load(row.seating)[FIRST].away
    assert list(LiveAction.objects.filter(table=table).values_list("seq", flat=True)) == list(
        range(1, row.seq + 1))
    assert row.deadline is not None  # the person's clock runs: it is their turn
    assert _view(table)["to_move"] == FIRST


def _race_timer(table_id: int, deadline: str, barrier: Any) -> None:
    connections.close_all()
    barrier.wait(timeout=60)
    live_turn_timeout(table_id, deadline)
    connections.close_all()


def _race_heard(table_id: int, barrier: Any) -> None:
    connections.close_all()
    barrier.wait(timeout=60)
    presence.heard(table_id, FIRST)  # a heartbeat: the person is here (again)
    connections.close_all()


def _race_away_then_bot(table_id: int, barrier: Any) -> None:
    connections.close_all()
    barrier.wait(timeout=60)
    if presence.check_away(table_id):
        service.bot_move(table_id, LiveTable.objects.get(pk=table_id).seq)
    connections.close_all()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("run", range(3))
def test_two_timers_a_return_and_the_substitute_racing_make_one_turn(
        postgres: None, table: LiveTable, run: int) -> None:
    """Real processes on PostgreSQL, all at the person's turn whose time ran out while
    they were gone: two timers, the away check with the substitute's move, and the
    person coming back. Whoever wins each lock, the turn is drawn once, discarded at most
    once, and the log has no gap."""
    presence.heard(table.pk, FIRST, arriving=True)
    LiveSeat.objects.filter(table=table, seat=FIRST).update(seen=_ago(GRACE + 1))
    deadline = run_out(table)
    connections.close_all()
    fork = get_context("fork")
    barrier = fork.Barrier(4)
    racers = [fork.Process(target=_race_timer, args=(table.pk, deadline, barrier)),
              fork.Process(target=_race_timer, args=(table.pk, deadline, barrier)),
              fork.Process(target=_race_away_then_bot, args=(table.pk, barrier)),
              fork.Process(target=_race_heard, args=(table.pk, barrier))]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(timeout=120)
        assert racer.exitcode == 0
    turn = list(LiveAction.objects.filter(table=table, seat=FIRST).order_by("seq")
                .values_list("action", flat=True))
    assert sum(a.endswith((" take", " push")) for a in turn) <= 1
    assert sum(" discard " in a for a in turn) <= 1
    seqs = list(LiveAction.objects.filter(table=table).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1)) == list(range(1, _row(table).seq + 1))


@pytest.mark.django_db(transaction=True)
def test_with_tasks_in_process_the_bots_play_a_pinned_persons_game_to_its_end(
        player: Any, eager_tasks: None, caplog: pytest.LogCaptureFixture) -> None:
    """``make run`` runs tasks in-process and commits for real, so each bot's move sends
    the next one's at once: they run one after another, not inside one another (a game of
    bots nested a frame deeper each move, and stopped about ninety moves in)."""
    table = service.create_table(
        [service.SeatPlan(user=player) if s == FIRST else service.SeatPlan(bot="greedy")
         for s in range(4)], seed=SEED, grace_seconds=GRACE)
    with caplog.at_level("WARNING", logger="games.live.turns"):
        assert director.pin(table.pk, FIRST) is True  # every seat a bot's from here on
    row = _row(table)
    assert row.status == LiveTable.Status.FINISHED and row.seq > 100
    assert row.record is not None and verify(row.record).status == "complete"
    assert caplog.records == []  # no move failed to go out


def test_a_seats_state_is_stored_with_every_field_and_read_back_the_same() -> None:
    from dataclasses import fields

    from games.live.seating import SeatState, dump

    states = [SeatState(reserve=12.5, away=True), SeatState(pinned=True), SeatState(),
              SeatState(reserve=0.0)]
    assert all(set(entry) == {f.name for f in fields(SeatState)} for entry in dump(states))
    assert load(dump(states)) == states
