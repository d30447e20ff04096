"""Editing a draft draw by hand, as pure functions over plain data (no database).

A draw is its tables in table order; each table has two sides, side 0 (team A, seats 0 and
2) and side 1 (team B, seats 1 and 3, R1.1), and each side its team and its two seats. An
edit returns a new draw or raises :class:`DraftError` saying why it cannot be made;
:func:`check_draw` refuses a draw in which a team or a player is at two places (a player
plays once a round), :func:`rematch_warnings` names the pairs an edit brings together
that met before or are due to meet later, and :func:`kept_apart_warnings` those the
organiser asked to keep apart. A service loads the draw, calls these and writes
the rows (``tournaments.services.draft``).

Byes have no table and are not part of the draw: a team with a bye is not moved here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from .base import PairingError, TeamId

#: two teams, in no order
Meeting = frozenset[TeamId]


class DraftError(PairingError):
    """The edit cannot be made; the message says why."""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """What sits in a seat: a player, or a bot (``player`` None; ``substitute`` when it
    stands in for an absent player). ``name`` is only for messages."""

    player: int | None
    bot_level: str = ""
    substitute: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class Side:
    """A team at a table and its two seats (0 and 2 for side 0, 1 and 3 for side 1);
    ``team`` None is the house bot team."""

    team: TeamId | None
    name: str
    seats: tuple[SeatSpec, SeatSpec]


@dataclass(frozen=True, slots=True)
class DrawTable:
    match: int
    number: int
    sides: tuple[Side, Side]


Draw = tuple[DrawTable, ...]


def seat_position(side: int, index: int) -> int:
    """The seat number of a side's first (index 0) or second (index 1) seat."""
    return side + 2 * index


def find_team(draw: Draw, team: TeamId) -> tuple[int, int]:
    """The index of the table ``team`` plays at and its side there."""
    for index, table in enumerate(draw):
        for side, held in enumerate(table.sides):
            if held.team == team:
                return index, side
    raise DraftError(_("that team has no table in this round (it has a bye or is not "
                       "paired); only teams at tables can be swapped"))


def swap_teams(draw: Draw, team_1: TeamId, team_2: TeamId) -> Draw:
    """Each of the two teams takes the other's place, with its players in its seats."""
    (table_1, side_1), (table_2, side_2) = find_team(draw, team_1), find_team(draw, team_2)
    if table_1 == table_2:
        raise DraftError(_("%(first)s and %(second)s play each other at table %(table)d: "
                           "choose two teams at different tables") % {
            "first": draw[table_1].sides[side_1].name,
            "second": draw[table_2].sides[side_2].name, "table": draw[table_1].number})
    moving_1, moving_2 = draw[table_1].sides[side_1], draw[table_2].sides[side_2]
    tables = list(draw)
    tables[table_1] = _with_side(draw[table_1], side_1, moving_2)
    tables[table_2] = _with_side(draw[table_2], side_2, moving_1)
    return tuple(tables)


def swap_partners(draw: Draw, match: int, side: int) -> Draw:
    """The two players of one team at a table exchange their seats."""
    index = _table_index(draw, match)
    if side not in (0, 1):
        raise DraftError(_("a table has two teams: side 0 (team A) and side 1 (team B)"))
    held = draw[index].sides[side]
    if held.team is None:
        raise DraftError(_("the house bot team's seats are both bots: there is nothing to "
                           "swap"))
    turned = replace(held, seats=(held.seats[1], held.seats[0]))
    return tuple(_with_side(table, side, turned) if i == index else table
                 for i, table in enumerate(draw))


def move_table(draw: Draw, match: int, number: int) -> Draw:
    """The match moves to table ``number``; the tables between shift by one, so the
    tables stay numbered 1 to n."""
    index = _table_index(draw, match)
    if not 1 <= number <= len(draw):
        raise DraftError(_("there is no table %(number)d: this round has tables 1 to "
                           "%(count)d") % {"number": number, "count": len(draw)})
    if draw[index].number == number:
        raise DraftError(_("that match is at table %(number)d already") % {"number": number})
    order = list(draw)
    moved = order.pop(index)
    order.insert(number - 1, moved)
    return tuple(replace(table, number=position)
                 for position, table in enumerate(order, start=1))


def check_draw(draw: Draw) -> None:
    """DraftError unless every team and every player has one place in the draw."""
    teams: dict[TeamId, int] = {}
    players: dict[int, int] = {}
    for table in draw:
        for side in table.sides:
            if side.team is not None:
                if side.team in teams:
                    raise DraftError(_("%(team)s would play twice in this round (tables "
                                       "%(first)d and %(second)d)") % {
                        "team": side.name, "first": teams[side.team], "second": table.number})
                teams[side.team] = table.number
            for seat in side.seats:
                if seat.player is None:
                    continue
                if seat.player in players:
                    raise DraftError(_("%(player)s would sit twice in this round (tables "
                                       "%(first)d and %(second)d); a player plays once a "
                                       "round") % {"player": seat.name or seat.player,
                                                   "first": players[seat.player],
                                                   "second": table.number})
                players[seat.player] = table.number


def meetings(draw: Draw) -> set[Meeting]:
    """The pairs of teams (not the house bot team) that meet in the draw."""
    return {frozenset((a.team, b.team)) for a, b in (table.sides for table in draw)
            if a.team is not None and b.team is not None}


def rematch_warnings(before: Draw, after: Draw, met: Mapping[Meeting, Sequence[int]],
                     due: Mapping[Meeting, Sequence[int]] | None = None) -> list[str]:
    """A sentence for each pair the edit brings together that met before (``met``: the
    rounds each pair played in) or, in a round robin, is due to meet in a later round
    (``due``): a warning, not a refusal."""
    names = {side.team: side.name for table in after for side in table.sides}
    warnings = []
    for pair in sorted(meetings(after) - meetings(before), key=sorted):
        first, second = sorted(names[team] for team in pair)
        if met.get(pair):
            warnings.append(_("rematch: %(first)s and %(second)s already met in round "
                              "%(rounds)s") % {"first": first, "second": second,
                                               "rounds": _join(met[pair])})
        if due and due.get(pair):
            warnings.append(_("rematch: %(first)s and %(second)s are also due to meet in "
                              "round %(rounds)s of the schedule") % {
                "first": first, "second": second, "rounds": _join(due[pair])})
    return warnings


def kept_apart_warnings(before: Draw, after: Draw, avoid: Collection[Meeting]) -> list[str]:
    """A sentence for each pair the edit brings together that the organiser asked to keep
    apart (``avoid``: the pairings to avoid, and every two teams of a club kept apart): a
    warning, not a refusal, as the organiser may mean it."""
    names = {side.team: side.name for table in after for side in table.sides}
    warnings = []
    for pair in sorted((meetings(after) - meetings(before)) & set(avoid), key=sorted):
        first, second = sorted(names[team] for team in pair)
        warnings.append(_("kept apart: %(first)s and %(second)s are a pairing the organiser "
                          "asked to avoid") % {"first": first, "second": second})
    return warnings


def _join(numbers: Sequence[int]) -> str:
    return ", ".join(str(number) for number in sorted(numbers))


def _table_index(draw: Draw, match: int) -> int:
    for index, table in enumerate(draw):
        if table.match == match:
            return index
    raise DraftError(_("that match has no table in this round"))


def _with_side(table: DrawTable, side: int, held: Side) -> DrawTable:
    sides = (held, table.sides[1]) if side == 0 else (table.sides[0], held)
    return replace(table, sides=sides)
