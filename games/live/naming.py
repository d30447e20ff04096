"""Who sits at a live table and what it is played for, as every page of it says so: the
table, its spectators' view, the replay, ``/tables/`` and a player's "Your table".

The app that seated the table knows its people's names (a tournament's player may have no
login, and a bot plays for them), its teams and its event (``kinds.described``); a table
no app describes (practice, friends) is named by its users and its bots. Ask only once the
visitor may see the table: its names are not secret, but what it is played for is the
table's to show."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.vocabulary import bot_label

from . import kinds
from .models import LiveSeat, LiveTable


@dataclass(frozen=True)
class SeatName:
    """One seat: the person it is played for ("" for a bot's own seat), whether a user
    holds it, and the level of the bot that holds it ("" when a user does)."""

    seat: int
    name: str
    person: bool
    bot: str

    @property
    def mark(self) -> str:
        """The badge of a seat a bot holds: whom it plays for, or just that it is a bot
        ("" for a user's seat; a substitute playing for a while is the table's to say)."""
        if self.person:
            return ""
        return _("bot for %(name)s") % {"name": self.name} if self.name else _("bot")

    @property
    def plain(self) -> str:
        """The seat in a line of words: the person's name, or the bot and its level."""
        if self.name:
            return self.name
        return _("bot (%(level)s)") % {"level": bot_label(self.bot)}


@dataclass(frozen=True)
class TableNames:
    seats: list[SeatName]  # seat 0 first
    teams: tuple[str, ...]  # seats 0 and 2 first; empty: the table's own words
    event: tuple[kinds.EventPart, ...]  # widest first; empty: a table of no event

    @property
    def event_words(self) -> str:
        """The event in one line ("Spring cup, round 2, table 1: Aces v Kings")."""
        return ", ".join(part.words for part in self.event)


def table_names(table: LiveTable, seats: Sequence[LiveSeat]) -> TableNames:
    """``table``'s names, its ``seats`` (with their users) read already."""
    return names_of([table], {table.pk: seats})[table.pk]


def names_of(tables: Sequence[LiveTable],
             seats: Mapping[int, Sequence[LiveSeat]]) -> dict[int, TableNames]:
    """The names of ``tables``, by id, their seats (with their users, by table id) read
    already; each kind's describer is asked once, for all its tables."""
    described = kinds.described(tables)
    found = {}
    for table in tables:
        called = described.get(table.pk, kinds.Described())
        people = list(called.people) + [""] * (4 - len(called.people))
        named = [SeatName(place.seat, people[place.seat] or (
                     place.user.get_username() if place.user else ""),
                          place.user is not None, place.bot)
                 for place in sorted(seats.get(table.pk, ()), key=lambda seat: seat.seat)]
        found[table.pk] = TableNames(named, tuple(called.teams), tuple(called.event))
    return found
