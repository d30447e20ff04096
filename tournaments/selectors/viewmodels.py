"""The small read-only shapes the templates render: no queries here (the query modules beside
this one build them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from games.live.models import LiveTable
from games.live.service import Progress
from tournaments.models import Match, Player, Result, Standing, Team, Tournament


def plain(value: Any) -> str:
    """A number as people write it: ``2`` rather than ``2.0``, ``2.5`` for a half."""
    if isinstance(value, Decimal | float):
        value = Decimal(str(value)).normalize()
        return f"{value:f}"
    return str(value)


def outcome(result: Result | None, side: int) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` for side 0 (team A) or 1; ``""`` without a result."""
    if result is None:
        return ""
    if result.winner == "d":
        return "draw"
    return "win" if result.winner == "ab"[side] else "loss"


# -- a round's tables and a match ---------------------------------------------------


@dataclass
class SeatView:
    position: int
    player: Player | None
    bot_level: str
    substitute: bool
    substitute_for: Player | None
    # an online match's player whom a bot plays for at the live table (no login to play
    # with): the level of that bot ("" for a player at the table, and for a bot's seat)
    played_by: str = ""

    @property
    def is_bot(self) -> bool:
        return self.player is None

    @property
    def name(self) -> str:
        if self.player is not None:
            return self.player.name
        return _("Bot (%(level)s)") % {"level": self.bot_level}


@dataclass
class Side:
    team: Team | None  # None: the house bot team
    seats: list[SeatView]
    total: int | None = None
    won: bool = False

    @property
    def name(self) -> str:
        return self.team.name if self.team is not None else str(_("House bots"))


@dataclass
class BotPlayed:
    """Bots played ``percent`` of the actions of the person in seat ``name``."""

    name: str
    percent: str


@dataclass(frozen=True)
class LiveState:
    """Where an online match's game stands, as its round's page shows it (no card)."""

    status: str
    progress: Progress
    paused: bool

    @property
    def playing(self) -> bool:
        return self.status == LiveTable.Status.PLAYING


@dataclass
class TableView:
    match: Match
    number: int | None
    sides: list[Side]
    result: Result | None
    decided_by: str = ""
    seats: list[SeatView] = field(default_factory=list)
    # An online match's game while it is played (no card of it): hand, score, clocks.
    live: LiveState | None = None
    bots_played: list[BotPlayed] = field(default_factory=list)  # the largest share first
    left_out: bool = False  # shown, but counted in neither the standings nor the ratings
    status: str = ""  # as the public may know it: a secret game is "being played" until shown


@dataclass
class HandLine:
    number: int
    scores: tuple[int, int]
    out_seat: int | None
    out_name: str


# -- standings and the crosstable ----------------------------------------------------


@dataclass
class StandingLine:
    rank: int
    shared: bool
    team: Team
    points: str
    row: Standing
    values: list[dict[str, Any]]
    withdrawn: bool = False
    provisional: bool = False  # counts a result of a round still being played


@dataclass
class CrossRow:
    team: Team | None  # None: the house bot team
    rank: int | None
    points: str
    cells: list[list[dict[str, Any]] | None]  # None on the diagonal


# -- teams and players --------------------------------------------------------------


@dataclass
class ResultLine:
    match: Match
    tournament: Tournament
    round_number: int
    opponent: str
    own: int | None
    other: int | None
    outcome: str  # "win", "draw", "loss", or "" while not played
    partner: Player | None = None
    bot: bool = False
    opponent_team: Team | None = None
    status: str = ""  # the match's, as the public may see it (``visibility.shown_status``)


@dataclass
class RatingPoint:
    """A rating after a match, on the familiar scale (see ``tournaments.ratings``)."""

    match: Match
    tournament: Tournament
    round_number: int
    date: date | None  # the day the result was stored
    rating: int
    deviation: int


# -- a bracket ------------------------------------------------------------------------


@dataclass
class BracketSlot:
    team: Team | None
    seed: int | None
    note: str = ""  # for an empty slot: a bye, or where its team will come from
    total: int | None = None
    won: bool = False


@dataclass
class BracketCell:
    number: int | None  # matches are numbered for "winner of match 3"; byes are not
    top: BracketSlot
    bottom: BracketSlot
    match: Match | None
    is_bye: bool
    decided_by: str = ""

    @property
    def slots(self) -> list[BracketSlot]:
        return [self.top, self.bottom]


@dataclass
class BracketRound:
    anchor: str  # unique on the page, for the round's heading
    name: str
    cells: list[BracketCell]
    straight: bool = False  # the next round has as many matches: each goes straight across


@dataclass
class BracketSection:
    title: str  # "" for a bracket of one section
    rounds: list[BracketRound]


@dataclass
class BracketView:
    sections: list[BracketSection]
    champion: Team | None = None
    problem: str = ""
