"""A player's tables in the online rounds being played: where to sit, with whom, and which
seats are people and which are bots."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from config.users import RequestUser
from games.live.models import LiveSeat, LiveTable
from games.vocabulary import bot_label
from tournaments.models import LIVE_TABLE_KIND, Match, Round


@dataclass
class SeatLine:
    name: str
    is_bot: bool


@dataclass
class YourTable:
    table_id: int
    match: Match
    seat: int
    partner: SeatLine
    opponents: list[SeatLine]
    started: datetime


def your_tables(user: RequestUser) -> list[YourTable]:
    """The live tables ``user`` holds a seat at in published rounds, games not over yet."""
    if not user.is_authenticated:
        return []
    held = (LiveSeat.objects.filter(user=user, table__status=LiveTable.Status.PLAYING,
                                    table__reports_to=LIVE_TABLE_KIND,
                                    table__match__round__status=Round.Status.PUBLISHED)
            .select_related("table__match__round__tournament", "table__match__table")
            .order_by("table__created"))
    return [_your_table(mine) for mine in held]


def _your_table(mine: LiveSeat) -> YourTable:
    table = mine.table
    match = table.match
    players = {seat.position: seat.player for seat in match.seats.select_related("player")}
    live = {seat.seat: seat for seat in LiveSeat.objects.filter(table=table)
            .select_related("user")}

    def line(position: int) -> SeatLine:
        seat = live[position]
        if seat.user is None:
            return SeatLine(_("bot (%(level)s)") % {"level": bot_label(seat.bot)}, True)
        player = players.get(position)
        return SeatLine(player.name if player is not None else seat.user.get_username(), False)

    return YourTable(table.pk, match, mine.seat, line((mine.seat + 2) % 4),
                     [line((mine.seat + 1) % 4), line((mine.seat + 3) % 4)], table.created)
