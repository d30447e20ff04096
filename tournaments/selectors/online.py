"""A player's tables in the online rounds being played: where to sit, with whom, and which
seats are people and which are bots; and what a tournament's live table is called, its
seats, teams and event, wherever the table is shown (``describe_live_tables``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils.translation import gettext as _

from config.users import RequestUser
from games.engine import HANDS_PER_GAME
from games.live.kinds import Described, EventPart
from games.live.models import LiveSeat, LiveTable
from games.live.naming import table_names
from tournaments.models import LIVE_TABLE_KIND, Match, Round

from .boards import first_board
from .matches import seat_views, side_names, with_details


@dataclass
class SeatLine:
    name: str  # the person's name, or the bot and its level
    mark: str  # "bot for Bo" when a bot plays for the person ("" otherwise)


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
    names = table_names(table, list(LiveSeat.objects.filter(table=table).select_related("user")))

    def line(position: int) -> SeatLine:
        seat = names.seats[position]
        return SeatLine(seat.plain, seat.mark if seat.name else "")

    return YourTable(table.pk, table.match, mine.seat, line((mine.seat + 2) % 4),
                     [line((mine.seat + 1) % 4), line((mine.seat + 3) % 4)], table.created)


def describe_live_tables(tables: Sequence[LiveTable]) -> dict[int, Described]:
    """What tournaments' live tables are called, by table id (``games.live.kinds.
    on_describe``), in a fixed number of queries: each seat by its player's name, logged
    in or not (a substitute's seat by its absent player's), the two teams, and the
    tournament, round, match and, in a duplicate round, the boards it plays, each linked to
    its page. A table whose match was removed is left out: it keeps its own words."""
    matches = with_details(Match.objects.filter(live_table__in=[t.pk for t in tables]))
    return {match.live_table_id: _described(match) for match in matches
            if match.live_table_id is not None}


def _described(match: Match) -> Described:
    people = tuple(seat.player.name if seat.player is not None
                   else seat.substitute_for.name if seat.substitute_for is not None else ""
                   for seat in seat_views(match))
    round = match.round
    tournament = round.tournament
    game = (_("table %(number)d: %(match)s") % {"number": match.table.number, "match": match}
            if match.table is not None else str(match))
    event = [
        EventPart(tournament.name, reverse("tournaments:tournament_detail",
                                           args=[tournament.pk])),
        EventPart(_("round %(number)d") % {"number": round.number},
                  reverse("tournaments:round_detail", args=[tournament.pk, round.number])),
        EventPart(game, reverse("tournaments:match_detail", args=[match.pk]))]
    if round.seed is not None:  # a duplicate round: every table plays its boards
        first = first_board(round.number)
        event.append(EventPart(_("boards %(first)d to %(last)d") % {
            "first": first, "last": first + HANDS_PER_GAME - 1}))
    return Described(people=people, teams=tuple(side_names(match)), event=tuple(event))
