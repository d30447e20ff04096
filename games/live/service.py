"""The table service: the one door through which people and bots act on a live table.

An action is accepted under the table row's lock (``select_for_update``): the game is
replayed from the log (or taken from this process's copy at that very sequence number,
see ``replayed``), the engine checks the action, it is appended with the next
sequence number, and after the commit the table's group is told the new number (never a
card: each connection reads its own seat's events from the database) and the next bot,
if one is to move, is scheduled. A process holds nothing that a restart would lose.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from games.bots import BOT_NAMES, make_bot
from games.engine import IllegalActionError, observed_legal_actions, parse_action

from . import notify, replayed
from .models import LiveAction, LiveSeat, LiveTable
from .state import Json, LiveGame, events_since, recent_events, replay, seat_view, spectator_view

MAX_CLIENT_ID = 64


class TableError(Exception):
    """A refused request: ``rule`` (a rule number of push-rules.md, or ``""``) and a
    message for the person who sent it. Nothing was stored."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule
        self.message = message


def group_name(table_id: int) -> str:
    """The channel-layer group of a table's connections."""
    return f"live-table-{table_id}"


def create_practice_table(user: Any, bot: str, seat: int = 0,
                          seed: int | None = None) -> LiveTable:
    """A table where ``user`` holds ``seat`` and bots of level ``bot`` play the partner and
    both opponents; the deals come from a random seed, stored (secret) with the table."""
    if bot not in BOT_NAMES:
        raise TableError(_("Unknown bot level %(bot)s; choose from %(names)s.")
                         % {"bot": bot, "names": ", ".join(BOT_NAMES)})
    if seat not in range(4):
        raise TableError(_("A seat is 0, 1, 2 or 3, not %(seat)s.") % {"seat": seat})
    with transaction.atomic():
        table = LiveTable.objects.create(
            seed=secrets.randbits(62) if seed is None else seed)
        LiveSeat.objects.bulk_create(
            LiveSeat(table=table, seat=s, user=user if s == seat else None,
                     bot="" if s == seat else bot) for s in range(4))
        _after_commit(table.pk, 0, replay(table.seed, []).game.to_move, table)
    return table


def _get(table_id: int, *, lock: bool = False) -> LiveTable:
    tables = LiveTable.objects.select_for_update() if lock else LiveTable.objects
    table = tables.filter(pk=table_id).first()
    if table is None:
        raise TableError(_("There is no table %(table)s.") % {"table": table_id})
    return table


def _log_texts(table: LiveTable) -> list[str]:
    return list(table.actions.order_by("seq").values_list("action", flat=True))


def _game(table: LiveTable) -> LiveGame:
    """The game after the table's last action: this process's copy when it has the one at
    ``table.seq`` (see replayed), else replayed from the log; ``replayed.keep`` it after."""
    return (replayed.take(table)
            or replay(table.seed, _log_texts(table)[:table.seq]))


def table_act(table_id: int, seat: int, action_text: str, client_action_id: str) -> int:
    """Play ``action_text`` (the engine's text form) for ``seat``; the new sequence number.
    A resent ``client_action_id`` returns the sequence number it got the first time.
    ``TableError`` naming the rule, and nothing stored, when the action is refused."""
    if not client_action_id or len(client_action_id) > MAX_CLIENT_ID:
        raise TableError(_("An action needs an id of 1 to %(max)s characters.")
                         % {"max": MAX_CLIENT_ID})
    with transaction.atomic():
        table = _get(table_id, lock=True)
        done = table.actions.filter(seat=seat, client_id=client_action_id).first()
        if done is not None:
            return done.seq
        if table.status == LiveTable.Status.FINISHED:
            raise TableError(_("The game is over."), "R3.1")
        try:
            action = parse_action(action_text)
        except ValueError:
            raise TableError(_("Malformed action %(action)s; write it as the engine does, "
                               "e.g. \"2 discard 4C\".") % {"action": repr(action_text)}
                             ) from None
        if action.seat != seat:
            raise TableError(_("Seat %(seat)s cannot act for seat %(other)s.")
                             % {"seat": seat, "other": action.seat}, "R6.1")
        live = _game(table)
        try:
            live.apply(action)
        except IllegalActionError as exc:  # the game is unchanged
            replayed.keep(table, live)
            raise TableError(exc.message, exc.rule) from None
        live.next_hand()
        table.seq += 1
        LiveAction.objects.create(table=table, seq=table.seq, seat=seat, action=str(action),
                                  client_id=client_action_id)
        if live.game.is_over:
            table.status = LiveTable.Status.FINISHED
            table.record = live.record(_players(table)).to_json()
        table.save(update_fields=["seq", "status", "record"])
        _after_commit(table.pk, table.seq, live.game.to_move, table)
        transaction.on_commit(lambda: replayed.keep(table, live))
    return table.seq


def _players(table: LiveTable) -> list[str]:
    return [s.user.get_username() if s.user else f"bot:{s.bot}"
            for s in table.seats.select_related("user")]


def _after_commit(table_id: int, seq: int, mover: int | None, table: LiveTable) -> None:
    """Once committed: announce the new sequence number, let the next bot move, and call
    the result hook when the game has ended."""
    bot_to_move = mover is not None and table.seats.filter(seat=mover).exclude(bot="").exists()

    def follow_up() -> None:
        from .tasks import live_bot_move  # tasks imports this module

        # The game's own follow-ups first; the notice last, as clients can do without it.
        if bot_to_move:
            live_bot_move.apply_async((table_id, seq),
                                      countdown=settings.LIVE_BOT_PAUSE_SECONDS)
        if table.status == LiveTable.Status.FINISHED and table.result_hook:
            import_string(table.result_hook)(table)
        notify.group_send(group_name(table_id), {"type": "table.changed", "seq": seq})

    transaction.on_commit(follow_up)


def bot_move(table_id: int, expected_seq: int) -> int | None:
    """Let the bot to move at ``expected_seq`` act, deciding from its seat's observation
    only; nothing when the table has moved on (a stale or repeated task)."""
    table = _get(table_id)
    if table.seq != expected_seq or table.status == LiveTable.Status.FINISHED:
        return None
    live = _game(table)
    seat = live.game.to_move
    obs = None if seat is None else live.game.observation(seat)
    replayed.keep(table, live)  # for table_act below
    place = table.seats.filter(seat=seat).first()
    if obs is None or place is None or not place.bot:
        return None
    # the bot's own randomness, reproducible per table and turn, unrelated to the deals
    bot = make_bot(place.bot, table.pk * 1_000_003 + expected_seq)
    action = bot.choose(obs, observed_legal_actions(obs))
    # the id makes a second task for the same turn a resend, applied once
    return table_act(table_id, seat, str(action), f"bot-{expected_seq}")


@dataclass(frozen=True)
class Update:
    """What one connection is sent: the events after its last number, and the view."""

    events: list[Json]
    view: Json


def seat_of(table_id: int, user: Any) -> int | None:
    """The seat ``user`` holds at the table (``None``: a spectator)."""
    table = _get(table_id)
    if user is None or not user.is_authenticated:
        return None
    place = table.seats.filter(user=user).first()
    return None if place is None else place.seat


def update_since(table_id: int, seat: int | None, since: int) -> Update:
    """The events after ``since`` as ``seat`` saw them (``None``: a spectator), and its
    current view, all read from the database."""
    table = _get(table_id)
    if not 0 <= since <= table.seq:
        raise TableError(_("No sequence number %(since)s at this table; it is at %(seq)s.")
                         % {"since": since, "seq": table.seq})
    live = replayed.take(table)
    events = None if live is None else recent_events(live, table.seq, since, seat)
    if live is None or events is None:
        events, live = events_since(table.seed, _log_texts(table)[:table.seq], since, seat)
    view = spectator_view(live) if seat is None else seat_view(live, seat)
    replayed.keep(table, live)
    view.update(table=table.pk, seq=table.seq, status=table.status)
    return Update(events, view)
