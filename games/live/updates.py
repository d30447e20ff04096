"""What a connection to a live table is sent: the events after its last number as its
seat saw them, and its view, built from the table's row and this process's game of it.

Every connection at a table is told the same new number at the same moment, so the
reads are made for several at once (:func:`updates_since`, see ``shared``): one
statement reads the row and the actions any of them lacks, the game is brought up to it
once, and each (seat, last number) asking gets its own events and view, each built from
that seat's own observation (``state``) as before.

A *full* update (a new connection's first, or one whose events reach beyond the hand in
play, as after a hand's end or a long absence) also carries the hand so far: the view's
``log``, every event of the hand in play as the viewer saw it, which replaces the
client's; ``last_hand``, the summary of the most recent hand that has ended (``hands``);
and ``hand_pause``, the seconds the bots wait after a hand's end (``pacing``). An update
that only carries the events of the hand in play has none of them: it is the one sent
after every action, and stays as cheap as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from . import hands, replayed, rows, seating
from .errors import TableError
from .models import LiveTable
from .offers import rematch_view
from .state import Json, LiveGame, events_since, recent_events, replay, seat_view, spectator_view

#: Who asks, and from which number: a seat (``None``: a spectator) and the number of the
#: last event it has (``None``: none wanted, only the view, as for a new connection).
Key = tuple[int | None, int | None]


@dataclass(frozen=True)
class Update:
    """What one connection is sent: the events after its last number, and the view."""

    events: list[Json]
    view: Json


def no_table(table_id: int) -> TableError:
    return TableError(_("There is no table %(table)s.") % {"table": table_id})


def log_texts(table: LiveTable) -> list[str]:
    """The table's actions up to its ``seq``."""
    return rows.logged_actions(table.pk, 0, table.seq)


def update_since(table_id: int, seat: int | None, since: int) -> Update:
    """The events after ``since`` as ``seat`` saw them (``None``: a spectator), and its
    current view, all read from the database (see :func:`updates_since`)."""
    found = updates_since(table_id, [(seat, since)])[(seat, since)]
    if isinstance(found, TableError):
        raise found
    return found


def updates_since(table_id: int, keys: Iterable[Key]) -> dict[Key, Update | TableError]:
    """For each of ``keys``, its :class:`Update` (or the ``TableError`` saying why there is
    none), all from one statement reading the table's row and the actions after the
    earliest number any of them, or this process's game of the table, lacks (all of them
    when it has none). ``TableError`` when there is no such table."""
    wanted = set(keys)
    held = replayed.held(table_id) or 0
    low = min([held, *(since for _seat, since in wanted if since is not None)])
    read = rows.read_table_since(table_id, max(low, 0))
    if read is None:
        raise no_table(table_id)
    # the game is brought on from its own number; the actions before it only say who chose
    skip = max(held - read.after, 0)
    logged = rows.Since(read.table, read.after + skip, read.actions[skip:], read.by_server)
    return updates(read.table, wanted, logged, (read.after, read.by_server))


def updates(table: LiveTable, keys: Iterable[Key], logged: rows.Since | None = None,
            known: tuple[int, set[int]] | None = None) -> dict[Key, Update | TableError]:
    """:func:`updates_since` from ``table`` (``logged``: its actions after a number, read
    already; ``known``: the numbers after a number of the actions the server chose)."""
    cached = None if logged is None else (logged.after, logged.actions)
    live = replayed.take(table, cached)
    if live is None:
        whole = logged.actions if logged is not None and logged.after == 0 else None
        live = replay(table.seed, log_texts(table) if whole is None else whole)
    shared = _table_view(table)
    # a seat the director gave its bot for good is told no action: the bot takes its turns
    pinned = {seat for seat, state in enumerate(seating.load(table.seating)) if state.pinned}
    found: dict[Key, Update | TableError] = {}
    try:
        for seat, since in keys:
            if since is not None and not 0 <= since <= table.seq:
                found[seat, since] = TableError(
                    _("No sequence number %(since)s at this table; it is at %(seq)s.")
                    % {"since": since, "seq": table.seq})
                continue
            events, full = (([], True) if since is None
                            else _events(table, live, seat, since, known))
            view = spectator_view(live) if seat is None else seat_view(live, seat)
            if seat in pinned:
                view["legal"] = view["moves"] = []
            view.update(shared)
            if full:
                view.update(_hand_so_far(table, live, seat, known))
            found[seat, since] = Update(events, view)
    finally:
        replayed.keep(table, live)
    return found


def _events(table: LiveTable, live: LiveGame, seat: int | None, since: int,
            known: tuple[int, set[int]] | None) -> tuple[list[Json], bool]:
    """The events after ``since`` as ``seat`` saw them, read from ``live`` (the game at
    ``table.seq``) while they are all of the hand in play, else from a replay; and
    whether they reach beyond the hand in play (the update is a full one then)."""
    events = recent_events(live, table.seq, since, seat)
    full = events is None
    if events is None:
        events, _live = events_since(table.seed, log_texts(table), since, seat)
    _mark_bots(table, events, since, known)
    return events, full


def _hand_so_far(table: LiveTable, live: LiveGame, seat: int | None,
                 known: tuple[int, set[int]] | None) -> Json:
    """What a full update's view adds: the hand in play's ``log`` as ``seat`` saw it, the
    ``last_hand`` that ended and the ``hand_pause``."""
    hand_no = hands.dealt(live)
    log = hands.hand_events(live, table.seq, hand_no, seat)
    _mark_bots(table, log, hands.before(live, hand_no), known)
    return {"log": log, "last_hand": hands.last_hand(live),
            "hand_pause": settings.LIVE_HAND_PAUSE_SECONDS}


def hand_log(table_id: int, seat: int | None, hand_no: int) -> tuple[list[Json], Json | None]:
    """Hand ``hand_no``'s events as ``seat`` saw them (``None``: a spectator), each action
    the server chose marked, and its summary once it has ended (``None`` while in play).
    ``TableError`` for a hand not dealt yet."""
    table = rows.read_table(table_id)
    if table is None:
        raise no_table(table_id)
    live = replayed.take(table) or replay(table.seed, log_texts(table))
    try:
        dealt = hands.dealt(live)
        if not 1 <= hand_no <= dealt:
            raise TableError(_("Hand %(hand)s has not been dealt yet; this table is at hand "
                               "%(dealt)s.") % {"hand": hand_no, "dealt": dealt})
        events = hands.hand_events(live, table.seq, hand_no, seat)
        result = hands.hand_summary(live, hand_no)
        start = hands.before(live, hand_no)
    finally:
        replayed.keep(table, live)
    _mark_bots(table, events, start, (start + len(events), set()))
    return events, result


def _mark_bots(table: LiveTable, events: list[Json], since: int,
               known: tuple[int, set[int]] | None) -> None:
    """Mark each event of an action the server chose (``"bot": true``), so that a page says
    which actions a bot played for a person (LIVE.md "Say who played"). Who chose the
    actions after a number is known when they were read with the table; the log is asked
    only for those before it."""
    if not events:
        return
    after, chosen = known if known is not None else (table.seq, set())
    if since < after:
        chosen = chosen | set(rows.server_actions(table.pk, since, after))
    for event in events:
        if event["seq"] in chosen:
            event["bot"] = True


def _table_view(table: LiveTable) -> Json:
    """The parts of every view that come from the table's row, the same for every seat."""
    return {"table": table.pk, "seq": table.seq, "status": table.status,
            "deadline": None if table.deadline is None else table.deadline.isoformat(),
            "resigned": table.resigned_seat, "rematch": rematch_view(table),
            **clock_view(table)}


def clock_view(table: LiveTable) -> Json:
    """What everyone at the table may know of its clocks and substitutes: whether it is
    paused, the time left on the turn in play (frozen while paused), each seat's reserve
    and whether a substitute plays it, and the director's message."""
    states = seating.load(table.seating)
    left = seating.seconds_left(table.deadline, table.paused_at, timezone.now())
    turn, reserve = seating.clock_parts(left, _turn_reserve(table))
    return {"paused": table.paused_at is not None,
            "time_left": left, "turn_left": turn, "reserve_left": reserve,
            "seats": [{"reserve": state.reserve, "substitute": state.away or state.pinned,
                       "pinned": state.pinned} for state in states],
            "message": table.message}


def _turn_reserve(table: LiveTable) -> float | None:
    """The reserve the turn in play began with (None: the table gives none, or no clock
    runs): its deadline is its start plus the turn's time and that reserve (``turns``)."""
    if table.turn_started is None or table.deadline is None or table.move_seconds is None:
        return None
    held = (table.deadline - table.turn_started).total_seconds() - table.move_seconds
    return None if table.reserve_seconds is None and held <= 0 else max(0.0, held)
