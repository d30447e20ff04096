"""Opening live tables: each seated, dealt and with its first turn started, many in a few
queries (a tournament's round opens one table a match, a scheduler tick a hundred rounds at
once).

Each table's first turn is worked out before its row is written (who moves, their clock,
the table's timer), so a table's row and seats are two bulk inserts for all the tables,
with no row lock to take and no row to write again: nobody else can see a table before the
transaction that makes it commits. What goes out once it commits (the first bot's move, the
turn's timer, the notice) goes per table, as after any change (``turns.after_commit``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from games.bots import BOTS

from . import seating
from .errors import TableError
from .models import LiveSeat, LiveTable
from .rows import Locked
from .state import replay
from .turns import STAND_IN, after_commit, start_turn

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class SeatPlan:
    """Who plays a seat of a new table: a person (``user``), whose ``substitute`` bot plays
    for them while they are gone, or a bot of level ``bot``."""

    user: User | None = None
    bot: str = ""
    substitute: str = STAND_IN


@dataclass(frozen=True)
class TablePlan:
    """A new table, as :func:`create_table` takes it: seated as ``seats`` (seat 0 first),
    dealt from ``seed`` (random when None; kept secret with the table), telling the handler
    of ``reports_to`` when its game ends, each person with ``move_seconds`` a turn and a
    reserve of ``reserve_seconds``, their substitute playing for them once they are gone for
    ``grace_seconds`` (None: never); with ``awaiting``, no bot moves until the first person
    holding a seat opens the table."""

    seats: Sequence[SeatPlan]
    seed: int | None = None
    reports_to: str = ""
    result_ref: str = ""
    move_seconds: int | None | Literal["default"] = "default"
    reserve_seconds: int | None = None
    grace_seconds: int | None = None
    awaiting: bool = False


def check(plan: TablePlan) -> None:
    """``TableError`` unless every seat of ``plan`` has a person or a bot (not both) and
    every bot level named is known; four seats."""
    if len(plan.seats) != 4:
        raise TableError(_("A table has four seats, not %(count)d.")
                         % {"count": len(plan.seats)})
    for number, seat in enumerate(plan.seats):
        if (seat.user is None) == (not seat.bot):
            raise TableError(_("Seat %(seat)d needs a person or a bot, not both or neither.")
                             % {"seat": number})
        for level in (seat.bot, seat.substitute):
            if level and level not in BOTS:
                raise TableError(_("Unknown bot level %(bot)s; choose from %(names)s.")
                                 % {"bot": level, "names": ", ".join(BOTS)})


def create_tables(plans: Sequence[TablePlan]) -> list[LiveTable]:
    """The tables of ``plans``, in their order, each as :func:`create_table` makes one, in
    one transaction and a handful of queries whatever their number (``TableError`` and no
    table at all if any plan is refused). The first turn of each starts at once: a bot's
    is scheduled once committed, a person's clock runs."""
    for plan in plans:
        check(plan)
    if not plans:
        return []
    tables, turns = [], []
    for plan in plans:
        table = LiveTable(
            seed=secrets.randbits(62) if plan.seed is None else plan.seed,
            reports_to=plan.reports_to, result_ref=plan.result_ref,
            move_seconds=settings.LIVE_MOVE_SECONDS if plan.move_seconds == "default"
            else plan.move_seconds, reserve_seconds=plan.reserve_seconds,
            grace_seconds=plan.grace_seconds, awaiting=plan.awaiting)
        locked = Locked(table, {s: seat.bot for s, seat in enumerate(plan.seats)},
                        {s: "" if seat.bot else seat.substitute
                         for s, seat in enumerate(plan.seats)},
                        seating.initial(plan.reserve_seconds))
        mover = replay(table.seed, []).game.to_move
        start_turn(locked, mover)  # its deadline, clock and timer, on the row to insert
        table.seating = seating.dump(locked.states)
        tables.append(table)
        turns.append((locked, mover))
    # no savepoint: the plans were checked above, so what could fail now is the database,
    # which leaves the caller's transaction to roll back in any case
    with transaction.atomic(savepoint=False):
        LiveTable.objects.bulk_create(tables)
        LiveSeat.objects.bulk_create(
            LiveSeat(table=table, seat=s, user=seat.user, bot=seat.bot,
                     substitute="" if seat.bot else seat.substitute)
            for table, plan in zip(tables, plans, strict=True)
            for s, seat in enumerate(plan.seats))
        for locked, mover in turns:
            after_commit(locked, mover, locked.bot_seats)
    return tables


def create_table(seats: Sequence[SeatPlan], *, seed: int | None = None, reports_to: str = "",
                 result_ref: str = "",
                 move_seconds: int | None | Literal["default"] = "default",
                 reserve_seconds: int | None = None,
                 grace_seconds: int | None = None, awaiting: bool = False) -> LiveTable:
    """A new table seated as ``seats`` (seat 0 first), dealt from ``seed`` (random when
    None; kept secret with the table), telling the handler of ``reports_to`` when its game
    ends (``finished``). Each person has ``move_seconds`` a turn and a reserve of
    ``reserve_seconds`` for the game (``seating``), and their substitute plays for them
    once they are gone for ``grace_seconds`` (``presence``; None: never). The first turn
    starts at once: a bot's is scheduled, a person's clock runs; with ``awaiting``, no
    bot moves until the first person holding a seat opens the table (``begin``).
    :func:`create_tables`' one-table case."""
    return create_tables([TablePlan(
        seats, seed=seed, reports_to=reports_to, result_ref=result_ref,
        move_seconds=move_seconds, reserve_seconds=reserve_seconds,
        grace_seconds=grace_seconds, awaiting=awaiting)])[0]
