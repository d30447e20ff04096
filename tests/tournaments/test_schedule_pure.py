"""The schedule's pure rule (tournaments/schedule.py): when each round starts, its check-in
window, its deadline, and the one step the scheduler takes next."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.schedule import (
    RECHECK,
    Facts,
    Plan,
    Step,
    check_in_window,
    deadline,
    next_step,
    round_start,
)

START = datetime(2026, 12, 6, 18, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def test_round_one_starts_at_the_start_and_later_ones_after_the_interval() -> None:
    plan = Plan(starts_at=START, interval=10 * MINUTE)
    assert round_start(plan, 1, None) == START
    finished = START + 47 * MINUTE
    assert round_start(plan, 2, finished) == finished + 10 * MINUTE
    assert round_start(plan, 2, None) is None  # round 1 still played


def test_a_fixed_or_moved_time_wins_over_the_interval() -> None:
    moved = START + timedelta(days=1)
    plan = Plan(starts_at=START, times={1: START + MINUTE, 3: moved}, interval=5 * MINUTE)
    assert round_start(plan, 1, None) == START + MINUTE
    assert round_start(plan, 3, START) == moved


def test_without_an_interval_a_round_without_a_time_waits_for_the_organiser() -> None:
    plan = Plan(starts_at=START)
    assert round_start(plan, 2, START) is None
    facts = Facts(number=1, status="complete", rounds_total=3, previous_finished=START)
    step = next_step(plan, facts, START)
    assert (step.step, step.number, step.at) == (Step.START, 2, None)


def test_the_check_in_window_opens_and_closes_before_the_round() -> None:
    plan = Plan(starts_at=START, check_in_opens=30 * MINUTE, check_in_closes=5 * MINUTE)
    assert check_in_window(plan, START) == (START - 30 * MINUTE, START - 5 * MINUTE)
    assert check_in_window(Plan(starts_at=START), START) is None
    # a window that would close before it opens closes when it opens
    odd = Plan(starts_at=START, check_in_opens=MINUTE, check_in_closes=9 * MINUTE)
    assert check_in_window(odd, START) == (START - MINUTE, START - MINUTE)


def test_the_deadline_counts_from_the_round_being_published() -> None:
    assert deadline(Plan(starts_at=START, round_length=90 * MINUTE), START) == \
        START + 90 * MINUTE
    assert deadline(Plan(starts_at=START), START) is None


def test_check_in_opens_first_then_the_round_starts() -> None:
    plan = Plan(starts_at=START, check_in_opens=30 * MINUTE, check_in_closes=5 * MINUTE)
    first = Facts(rounds_total=3, check_in_required=True)
    step = next_step(plan, first, START - timedelta(hours=2))
    assert (step.step, step.number, step.at) == (Step.CHECK_IN, 1, START - 30 * MINUTE)
    opened = Facts(rounds_total=3, check_in_required=True, check_in_round=1)
    step = next_step(plan, opened, START - 20 * MINUTE)
    assert (step.step, step.number, step.at) == (Step.START, 1, START)
    # without check-in required there is no window
    step = next_step(plan, Facts(rounds_total=3), START - timedelta(hours=2))
    assert (step.step, step.at) == (Step.START, START)


def test_a_round_played_is_completed_when_its_tables_are_done_and_settled_at_its_deadline(
) -> None:
    plan = Plan(starts_at=START, round_length=60 * MINUTE)
    playing = Facts(number=1, status="published", rounds_total=3, published_at=START,
                    open_tables=2)
    step = next_step(plan, playing, START + MINUTE)
    assert (step.step, step.at) == (Step.COMPLETE, START + MINUTE + RECHECK)
    step = next_step(plan, playing, START + 59 * MINUTE)
    assert (step.step, step.at) == (Step.COMPLETE, START + 60 * MINUTE)
    step = next_step(plan, playing, START + 60 * MINUTE)
    assert (step.step, step.at) == (Step.SETTLE, START + 60 * MINUTE)
    settled = Facts(number=1, status="published", rounds_total=3, published_at=START,
                    open_tables=2, settled_round=1)
    now = START + 61 * MINUTE
    assert next_step(plan, settled, now) == next_step(plan, settled, now)
    assert next_step(plan, settled, now).step == Step.COMPLETE
    done = Facts(number=1, status="published", rounds_total=3, published_at=START)
    assert next_step(plan, done, now).at == now


def test_after_the_last_round_nothing_is_due() -> None:
    plan = Plan(starts_at=START, interval=MINUTE)
    over = Facts(number=3, status="complete", rounds_total=3, previous_finished=START)
    assert next_step(plan, over, START).step is None
    assert next_step(plan, over, START).at is None


def test_a_draft_paired_by_hand_is_published_at_its_time() -> None:
    plan = Plan(starts_at=START)
    step = next_step(plan, Facts(number=1, status="draft", rounds_total=3), START - MINUTE)
    assert (step.step, step.number, step.at) == (Step.START, 1, START)


aware = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1),
                     timezones=st.just(UTC))
minutes = st.integers(min_value=0, max_value=24 * 60).map(lambda m: m * MINUTE)


@settings(max_examples=examples(300), deadline=None)
@given(start=aware, interval=st.none() | minutes, opens=st.none() | minutes, closes=minutes,
       length=st.none() | minutes.filter(bool), finished=aware, now=aware,
       number=st.integers(0, 6), status=st.sampled_from(["", "draft", "published", "complete"]),
       open_tables=st.integers(0, 4), total=st.none() | st.integers(1, 6),
       check_in_round=st.integers(0, 6), settled_round=st.integers(0, 6),
       required=st.booleans())
def test_the_next_step_is_one_the_facts_allow(
        start: datetime, interval: timedelta | None, opens: timedelta | None,
        closes: timedelta, length: timedelta | None, finished: datetime, now: datetime,
        number: int, status: str, open_tables: int, total: int | None, check_in_round: int,
        settled_round: int, required: bool) -> None:
    if not status:
        number = 0
    plan = Plan(starts_at=start, interval=interval, check_in_opens=opens,
                check_in_closes=closes, round_length=length)
    facts = Facts(number=number, status=status, rounds_total=total,
                  published_at=start if status == "published" else None,
                  open_tables=open_tables if status == "published" else 0,
                  previous_finished=finished, check_in_round=check_in_round,
                  check_in_required=required, settled_round=settled_round)
    step = next_step(plan, facts, now)
    if status == "published":
        # a round being played is only ever completed or settled, never paired over
        assert step.number == number and step.step in (Step.COMPLETE, Step.SETTLE)
        assert step.at is not None and step.at <= now + RECHECK
        if step.step == Step.SETTLE:
            assert length is not None and start + length <= now and settled_round < number
        if open_tables == 0:
            assert (step.step, step.at) == (Step.COMPLETE, now)
        return
    if status == "draft":
        assert (step.step, step.number) == (Step.START, number)
        return
    if total is not None and number + 1 > total:
        assert step.step is None and step.at is None
        return
    assert step.number == number + 1
    if step.step == Step.CHECK_IN:  # only before its window closed, and once
        assert required and opens is not None and check_in_round < number + 1
        begins = round_start(plan, number + 1, finished)
        assert begins is not None and step.at == begins - opens and now < begins - min(
            closes, opens)
    else:
        assert step.step == Step.START
        assert step.at == round_start(plan, number + 1, finished)
