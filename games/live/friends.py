"""Tables for friends: a player (the host) opens a table, keeping a seat of their own and,
for each other seat, one for a friend or a bot; each friend's seat has a link of its own;
whoever opens it, logged in, takes that seat while it is free; the host starts the game (or
it starts by itself once every friend's seat is taken), and it begins as a practice
table's does, through ``service.create_table``, with bots of the chosen level in the
friends' seats nobody took.

A waiting table is a :class:`~games.live.models.FriendTable`: seats and people, no deal
(the seed is drawn when the game starts), so nothing about a game can leak from it and
nothing can be played at it. Every write locks its row (``select_for_update``) and checks
its status under the lock: two people taking one seat, a person taking two, or a take and
the start happen one after the other, so exactly one gets the seat and a take after the
start is told the game has started. A waiting table counts against its people's open
practice tables, and one nobody starts ends as an abandoned practice table does
(``limits``).
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from django.core import signing
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bots import BOTS

from . import limits, service
from .errors import TableError
from .models import FriendSeat, FriendTable, LiveTable
from .turns import announce

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: What a seat's link is signed for: a link made for anything else never reads as one.
SALT = "games.live.friends.seat"


class FriendTableError(TableError):
    """A refused request about a table for friends; nothing was stored. ``table``: the
    game it became, when it has started (its page, where anyone may watch it)."""

    code = "friends"

    def __init__(self, message: str, status: int = 409, table: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.table = table


def _not_found() -> FriendTableError:
    return FriendTableError(
        _("This link does not lead to a seat. Check that it was copied whole, or ask the "
          "friend who sent it for a new one."), status=404)


def relative_seat(host_seat: int, seat: int) -> str:
    """Where ``seat`` sits from the host's seat: partner, left or right opponent (R1.1)."""
    return {2: _("partner"), 1: _("left opponent"),
            3: _("right opponent")}[(seat - host_seat) % 4]


def open_friend_table(host: User, *, seat: int, friends: Collection[int], bot: str,
                      auto_start: bool = True) -> FriendTable:
    """A table waiting for friends: ``host`` in ``seat``, a friend's seat for each of
    ``friends`` (other seats), a bot of level ``bot`` in the rest (and, once it starts, in
    the friends' seats nobody took). ``auto_start``: it starts when every friend's seat is
    taken. Counts against the host's open practice tables."""
    if seat not in range(4):
        raise FriendTableError(_("A seat is 0, 1, 2 or 3, not %(seat)s.") % {"seat": seat},
                               status=400)
    friends = set(friends)
    if not friends or seat in friends or not friends <= set(range(4)):
        raise FriendTableError(_("Keep at least one of the other seats for a friend (to play "
                                 "only against bots, use Play now)."), status=400)
    if bot not in BOTS:
        raise FriendTableError(_("Unknown bot level %(bot)s; choose from %(names)s.")
                               % {"bot": bot, "names": ", ".join(BOTS)}, status=400)
    with transaction.atomic():
        limits.check_open_tables(host)
        table = FriendTable.objects.create(host=host, bot=bot, auto_start=auto_start,
                                           key=secrets.token_urlsafe(12), active=timezone.now())
        FriendSeat.objects.bulk_create(
            FriendSeat(friend_table=table, seat=s,
                       kind=(FriendSeat.Kind.HOST if s == seat else FriendSeat.Kind.FRIEND
                             if s in friends else FriendSeat.Kind.BOT),
                       user=host if s == seat else None)
            for s in range(4))
    return table


def seat_token(table: FriendTable, seat: int) -> str:
    """The secret part of the link to ``seat`` of ``table``: signed with the site's key,
    so no other seat's or table's can be made from it."""
    return signing.Signer(salt=SALT).sign_object([table.pk, seat, table.key])


def _read_token(token: str) -> tuple[int, int, str]:
    try:
        value = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, ValueError):
        raise _not_found() from None
    match value:
        case [int(pk), int(seat), str(key)] if seat in range(4):
            return pk, seat, key
    raise _not_found()


@dataclass(frozen=True)
class Invitation:
    """What a seat's link leads to: the waiting table, its seats and the seat."""

    table: FriendTable
    seats: list[FriendSeat]
    seat: int


def invitation(token: str, *, lock: bool = False) -> Invitation:
    """The seat a link leads to (``lock``: the table's row locked until the transaction
    ends); ``FriendTableError`` (404) for a link that was not made here, whole."""
    pk, seat, key = _read_token(token)
    tables = FriendTable.objects.select_related("host")
    table = (tables.select_for_update(of=("self",)) if lock else tables).filter(
        pk=pk, key=key).first()
    if table is None:
        raise _not_found()
    seats = list(table.seats.select_related("user").order_by("seat"))
    if seats[seat].kind != FriendSeat.Kind.FRIEND:
        raise _not_found()
    return Invitation(table, seats, seat)


def _check_waiting(table: FriendTable) -> None:
    if table.status == FriendTable.Status.STARTED:
        raise FriendTableError(_("The game at this table has started; you can watch it."),
                               table=table.table_id)
    if table.status == FriendTable.Status.ABANDONED:
        raise FriendTableError(
            _("This table was ended: nobody started it for %(hours)s hours.")
            % {"hours": limits.abandon_hours()})


def seat_problem(found: Invitation, user: User) -> FriendTableError | None:
    """Why ``user`` cannot take the seat ``found`` leads to (``None``: they can, or it is
    theirs already)."""
    place = found.seats[found.seat]
    if place.user_id == user.pk:
        return None
    try:
        _check_waiting(found.table)
    except FriendTableError as exc:
        return exc
    mine = next((s.seat for s in found.seats if s.user_id == user.pk), None)
    if mine is not None:
        return FriendTableError(_("You already have seat %(seat)s at this table: one person, "
                                  "one seat.") % {"seat": mine})
    if place.user_id is not None:
        return FriendTableError(_("Someone has taken this seat already."))
    return None


def take_seat(user: User, token: str) -> FriendTable:
    """Seat ``user`` where the link ``token`` leads, if the seat is free, the table is still
    waiting and ``user`` has no seat there yet (taking one's own seat again changes
    nothing); the table, started when this was the last friend's seat and it starts by
    itself. ``FriendTableError`` saying why not, and nothing stored, otherwise."""
    with transaction.atomic():
        found = invitation(token, lock=True)
        problem = seat_problem(found, user)
        if problem is not None:
            raise problem
        table, place = found.table, found.seats[found.seat]
        if place.user_id == user.pk:
            return table
        limits.check_open_tables(user)
        place.user = user
        place.save(update_fields=["user"])
        table.active = timezone.now()
        table.save(update_fields=["active"])
        if table.auto_start and all(s.user_id is not None for s in found.seats
                                    if s.kind == FriendSeat.Kind.FRIEND):
            start_game(table, found.seats)
    return table


def start_friend_table(user: User, table_id: int) -> LiveTable:
    """Start the game of the waiting table ``table_id``, which only its host may do: the
    live table, with bots in the friends' seats nobody took. Starting a started table
    again answers its game."""
    with transaction.atomic():
        table = FriendTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.host_id != user.pk:
            raise FriendTableError(_("Only the player who opened this table can start it."),
                                   status=403)
        if table.status == FriendTable.Status.STARTED and table.table is not None:
            return table.table
        _check_waiting(table)
        return start_game(table, list(table.seats.select_related("user").order_by("seat")))


def start_game(table: FriendTable, seats: list[FriendSeat]) -> LiveTable:
    """Under ``table``'s lock: its game begins, as a practice table's (nobody waits for
    its result, and its bots wait for the first of its people to open it), seated as the
    waiting table was. A rematch's old game is told (its page goes to the new one)."""
    game = service.create_table([service.SeatPlan(user=s.user) if s.user is not None
                                 else service.SeatPlan(bot=table.bot) for s in seats],
                                awaiting=True)
    table.status, table.table = FriendTable.Status.STARTED, game
    table.save(update_fields=["status", "table"])
    if table.rematch_of_id is not None:
        old = LiveTable.objects.values_list("seq", flat=True).get(pk=table.rematch_of_id)
        transaction.on_commit(partial(announce, table.rematch_of_id, old, changed=True))
    return game


def seat_tokens(table: FriendTable, seats: list[FriendSeat]) -> dict[int, str]:
    """The link tokens of the friends' seats nobody has taken yet, by seat: the host's to
    share."""
    return {s.seat: seat_token(table, s.seat) for s in seats
            if s.kind == FriendSeat.Kind.FRIEND and s.user_id is None}


def table_for(user: User, table_id: int) -> tuple[FriendTable, list[FriendSeat]]:
    """The table for friends ``table_id`` and its seats, for its host and whoever took a
    seat there; ``FriendTableError`` (404) for anyone else, as for no such table."""
    table = FriendTable.objects.select_related("host").filter(pk=table_id).first()
    seats = [] if table is None else list(table.seats.select_related("user").order_by("seat"))
    if table is None or all(s.user_id != user.pk for s in seats):
        raise FriendTableError(_("There is no table for friends %(table)s where you have a "
                                 "seat.") % {"table": table_id}, status=404)
    return table, seats
