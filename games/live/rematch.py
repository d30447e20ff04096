"""A rematch at a practice table or a table for friends whose game is over (finished or
resigned): a new table, the same people in the same seats and bots of the same level in
the others, on a new random deal.

A rematch is a table for friends (``friends``) made from the old game's seats and linked
to it (``FriendTable.rematch_of``, one per game): whoever asks first offers it, keeping
their seat; each other person still seated there is asked on the old game's page
(``offers.rematch_view``) and takes their own seat by asking too, which is how they accept
(the seats have no links: they are theirs alone). It starts once every one of them has
accepted, or when the one who offered it starts it (bots in the seats not taken), as any
table for friends does; a practice table's (one person) starts at once. A person who left
the old table has a bot in their seat. The offer counts among the open tables of each
person who took a seat, as a waiting table for friends does, and ends unstarted with them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import friends, limits
from .errors import TableError
from .models import FriendSeat, FriendTable, LiveSeat, LiveTable
from .turns import STAND_IN, announce
from .updates import no_table

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class Rematch:
    """Where a rematch stands for the person who asked: its table for friends, and the new
    game once it has started (None while it waits for the others)."""

    friend_table: int
    table: int | None


def rematch(table_id: int, seat: int) -> Rematch:
    """The person at ``seat`` of the game at ``table_id`` asks for a rematch: they offer it
    when nobody has, or accept the one offered (taking their seat in it); asking again
    changes nothing. ``TableError`` saying why not, and nothing stored, when the game is
    not over, is a tournament's, or ``seat`` is no person's still seated there."""
    with transaction.atomic():
        table = LiveTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise no_table(table_id)
        if table.reports_to:
            raise TableError(_("A tournament's game has no rematch: its next game is the "
                               "next round's."))
        if table.status not in (LiveTable.Status.FINISHED, LiveTable.Status.RESIGNED):
            raise TableError(_("A rematch can be offered once the game is over."))
        seats = list(table.seats.select_related("user").order_by("seat"))
        place = seats[seat] if seat in range(4) else None
        if place is None or place.user is None or place.left is not None:
            raise TableError(_("You do not hold a seat at this table."))
        offer = FriendTable.objects.select_for_update().filter(rematch_of=table).first()
        if offer is None:
            offer = _offer(table, seats, place.user, seat)
        elif offer.status == FriendTable.Status.ABANDONED:
            raise TableError(_("The rematch offered here was never started, and has ended. "
                               "Start a new game with Play now."))
        elif offer.status == FriendTable.Status.WAITING:
            _accept(offer, place.user, seat)
        # everyone at the old game sees the offer, who accepted it and its new table
        transaction.on_commit(partial(announce, table.pk, table.seq, changed=True))
    return Rematch(offer.pk, offer.table_id)


def _level(seats: list[LiveSeat]) -> str:
    return next((place.bot for place in seats if place.bot), STAND_IN)


def _offer(table: LiveTable, seats: list[LiveSeat], user: User, seat: int) -> FriendTable:
    """``user`` at ``seat`` offers the rematch: its table, seated as the old game was (a
    person who left it, a bot); started at once when nobody else is to be asked."""
    limits.check_open_tables(user)
    offer = FriendTable.objects.create(host=user, bot=_level(seats), auto_start=True,
                                       key=secrets.token_urlsafe(12), active=timezone.now(),
                                       rematch_of=table)
    made = FriendSeat.objects.bulk_create(
        FriendSeat(friend_table=offer, seat=place.seat,
                   kind=(FriendSeat.Kind.HOST if place.seat == seat
                         else FriendSeat.Kind.FRIEND if place.user_id and place.left is None
                         else FriendSeat.Kind.BOT),
                   user=user if place.seat == seat else None)
        for place in seats)
    if all(place.kind != FriendSeat.Kind.FRIEND for place in made):
        friends.start_game(offer, made)
    return offer


def _accept(offer: FriendTable, user: User, seat: int) -> None:
    """``user`` takes their own seat ``seat`` in the rematch waiting for them; it starts
    when theirs was the last."""
    seats = list(offer.seats.select_related("user").order_by("seat"))
    place = seats[seat]
    if place.kind != FriendSeat.Kind.FRIEND or place.user_id == user.pk:
        return  # the one who offered it, or one who accepted already: nothing to do
    limits.check_open_tables(user)
    place.user = user
    place.save(update_fields=["user"])
    offer.active = timezone.now()
    offer.save(update_fields=["active"])
    if all(s.user_id is not None for s in seats if s.kind == FriendSeat.Kind.FRIEND):
        friends.start_game(offer, seats)
