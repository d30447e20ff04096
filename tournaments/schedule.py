"""A tournament's round schedule as data, and the one step it asks for next: pure.

The schedule (:class:`Plan`) says when each round starts (a fixed time, or some minutes
after the previous round's last table finished), when each round's check-in window opens
and closes, and how long a round may run before its hard deadline. The facts about the
tournament's rounds come in as :class:`Facts` (read by ``services.schedule`` under the
tournament's lock) and :func:`next_step` answers what to do next and when. Every time is an
aware ``datetime`` in UTC; the organiser's time zone is only for reading and writing them.

The service takes the step only when it is due and re-reads the facts under the lock, so a
step repeated finds its work done and asks for the next.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

#: How often a round being played is looked at again although nothing told the schedule that
#: a table finished (a result's nudge lost with its process): the safety net, not the pace.
RECHECK = timedelta(minutes=2)


class Step(enum.StrEnum):
    CHECK_IN = "check_in"  # open the round's check-in window, telling its players
    START = "start"  # pair the round (unless a draft is waiting), publish it, open its tables
    COMPLETE = "complete"  # complete a round whose every table is done; the next is planned
    SETTLE = "settle"  # the hard deadline passed: settle the tables still being played


class Settle(enum.StrEnum):
    """What happens to a table still being played at its round's hard deadline."""

    BOTS = "bots"  # bots play every person's seat for the rest of the game, at full speed
    ADJUDICATE = "adjudicate"  # the table is ended; finished hands count, the rest 0-0


@dataclass(frozen=True, slots=True)
class Plan:
    """A tournament's schedule.

    ``times``: rounds with a time of their own (fixed by the organiser, or a round moved);
    round 1 without one starts at ``starts_at``. A later round without one starts
    ``interval`` after the previous round's last table finished, or waits for the organiser
    when there is no interval. ``check_in_opens`` (None: no window) and ``check_in_closes``
    are durations before a round's start; ``round_length`` (None: no deadline) is how long a
    round may be played, from the moment it was published."""

    starts_at: datetime
    times: Mapping[int, datetime] = field(default_factory=dict)
    interval: timedelta | None = None
    check_in_opens: timedelta | None = None
    check_in_closes: timedelta = timedelta(0)
    round_length: timedelta | None = None


@dataclass(frozen=True, slots=True)
class Facts:
    """The tournament's rounds: the latest (``number`` 0: none yet) and its ``status``
    (``draft``, ``published``, ``complete``; empty: none), how many rounds the format plays
    (None: it cannot say yet, e.g. too few teams), when the latest round was published, how
    many of its tables are still open, when the last table of the latest complete round
    finished (its latest result), the round whose check-in window was opened last and the
    round whose tables were settled at its deadline."""

    number: int = 0
    status: str = ""
    rounds_total: int | None = None
    published_at: datetime | None = None
    open_tables: int = 0
    previous_finished: datetime | None = None
    check_in_round: int = 0
    check_in_required: bool = False
    settled_round: int = 0


@dataclass(frozen=True, slots=True)
class Next:
    """The step to take for round ``number`` at ``at``; ``at`` None: nothing is due by
    itself (the tournament is over, or the round waits for the organiser to give it a
    time)."""

    step: Step | None
    number: int
    at: datetime | None


def round_start(plan: Plan, number: int, previous_finished: datetime | None) -> datetime | None:
    """When round ``number`` starts: its own time, else round 1 at the schedule's start,
    else ``interval`` after the previous round finished; None when that is not known yet
    (the previous round is still played) or there is no interval (the organiser gives it a
    time, or starts it by hand)."""
    if number in plan.times:
        return plan.times[number]
    if number == 1:
        return plan.starts_at
    if previous_finished is None or plan.interval is None:
        return None
    return previous_finished + plan.interval


def check_in_window(plan: Plan, start: datetime) -> tuple[datetime, datetime] | None:
    """When the check-in window of a round starting at ``start`` opens and closes (None:
    the schedule has no windows). A window closes no earlier than it opens."""
    if plan.check_in_opens is None:
        return None
    opens = start - plan.check_in_opens
    closes = max(start - plan.check_in_closes, opens)
    return opens, closes


def deadline(plan: Plan, published_at: datetime) -> datetime | None:
    """The hard deadline of a round published at ``published_at`` (None: it has none)."""
    return None if plan.round_length is None else published_at + plan.round_length


def next_step(plan: Plan, facts: Facts, now: datetime) -> Next:
    """What the schedule does next, and when (a time already past is due at once)."""
    if facts.status == "published":
        ends = deadline(plan, facts.published_at) if facts.published_at else None
        if facts.open_tables == 0:
            return Next(Step.COMPLETE, facts.number, now)
        if ends is not None and ends <= now and facts.settled_round < facts.number:
            return Next(Step.SETTLE, facts.number, now)
        recheck = now + RECHECK
        if ends is None or facts.settled_round >= facts.number:
            return Next(Step.COMPLETE, facts.number, recheck)
        return Next(Step.COMPLETE, facts.number, min(ends, recheck))
    if facts.status == "draft":  # paired already (by hand): published at its time
        return Next(Step.START, facts.number,
                    round_start(plan, facts.number, facts.previous_finished))
    number = facts.number + 1
    if facts.rounds_total is not None and number > facts.rounds_total:
        return Next(None, number, None)  # every round is played
    start = round_start(plan, number, facts.previous_finished)
    if start is None:
        return Next(Step.START, number, None)
    window = check_in_window(plan, start) if facts.check_in_required else None
    if window is not None and facts.check_in_round < number and now < window[1]:
        return Next(Step.CHECK_IN, number, window[0])
    return Next(Step.START, number, start)
