"""Each seat's state at a live table beyond who holds it: what is left of its clock's
reserve, and whether its substitute bot plays it now (LIVE.md "Time" and "Substitutes").

Pure: the table service keeps the states on the table's row (``LiveTable.seating``) and
calls these under the row's lock. A person's turn has ``move_seconds``; a turn that lasts
longer spends the reserve, and when both are gone the seat's bot plays that turn (the
person plays the next one, with the turn's time and no reserve). The clock runs only on
that person's own turn, and not while the table is paused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any


@dataclass
class SeatState:
    #: Seconds of reserve left (None: the table gives none).
    reserve: float | None = None
    #: Its substitute plays the seat now: the person was gone longer than the grace.
    away: bool = False
    #: The director seated the substitute for the rest of the game (the person coming
    #: back does not take the seat back until the director gives it back).
    pinned: bool = False


def initial(reserve_seconds: int | None) -> list[SeatState]:
    return [SeatState(reserve=None if reserve_seconds is None else float(reserve_seconds))
            for _ in range(4)]


def load(data: Sequence[dict[str, Any]] | None) -> list[SeatState]:
    """The states stored on a table's row (a table older than them has none: defaults)."""
    states = [SeatState(**entry) for entry in data or ()]
    return states + [SeatState() for _ in range(4 - len(states))]


def dump(states: Sequence[SeatState]) -> list[dict[str, Any]]:
    # not ``asdict``: it deep-copies every value, and this runs for every action
    return [{"reserve": state.reserve, "away": state.away, "pinned": state.pinned}
            for state in states]


def level(bot: str, substitute: str, state: SeatState) -> str:
    """Which bot plays the seat now ("": its person): a bot's seat its own bot; a person's,
    the substitute while they are away or pinned out."""
    if bot:
        return bot
    return substitute if state.away or state.pinned else ""


def turn_deadline(now: datetime, move_seconds: int | None,
                  state: SeatState) -> datetime | None:
    """When a person's turn starting ``now`` runs out: the turn's time and the reserve."""
    if move_seconds is None:
        return None
    return now + timedelta(seconds=move_seconds + (state.reserve or 0))


def spend(state: SeatState, started: datetime, now: datetime, move_seconds: int) -> None:
    """Take from the reserve what a turn from ``started`` to ``now`` used beyond the turn's
    time (at most all of it)."""
    if state.reserve is None:
        return
    over = (now - started).total_seconds() - move_seconds
    if over > 0:
        state.reserve = max(0.0, state.reserve - over)


def seconds_left(deadline: datetime | None, paused_at: datetime | None,
                 now: datetime) -> float | None:
    """What is left of the turn's time and reserve together (frozen while paused)."""
    if deadline is None:
        return None
    return max(0.0, (deadline - (paused_at or now)).total_seconds())


def clock_parts(time_left: float | None, reserve: float | None
                ) -> tuple[float | None, float | None]:
    """The turn in play's ``time_left`` (its own time and the mover's reserve together, as
    :func:`turn_deadline` set them) told apart, as a chess clock shows them: what is left
    of the turn's own time, and of the reserve (``reserve``: the mover's reserve when the
    turn began; None: the table gives none), which is spent only once the turn's own time
    is gone. ``(None, None)`` when no clock runs."""
    if time_left is None:
        return None, None
    held = reserve or 0.0
    return (max(0.0, time_left - held),
            None if reserve is None else max(0.0, min(reserve, time_left)))


#: A table's timer this long past its time without having fired is taken as lost (the
#: broker was away): the next turn sends another. The sweep meanwhile acts on deadlines
#: that passed, so a lost timer costs no turn.
TIMER_LOST_SECONDS = 30


def timer_needed(now: datetime, deadline: datetime | None, armed: datetime | None) -> bool:
    """Whether a turn running out at ``deadline`` needs a timer sent for it, the table's
    timer already out being due at ``armed`` (None: none). One out before the deadline
    does: finding the deadline still ahead, it sends itself again for it."""
    if deadline is None:
        return False
    return (armed is None or armed > deadline
            or armed < now - timedelta(seconds=TIMER_LOST_SECONDS))


def timer_fired(now: datetime, armed: datetime | None) -> bool:
    """Whether the table's timer due at ``armed`` is out no more: its time has come (it is
    the one running now, or was lost); one due later is still out."""
    return armed is not None and armed <= now
