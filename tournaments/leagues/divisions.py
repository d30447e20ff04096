"""The moves between a league's divisions at the end of a season, drafted for the organiser
to change and confirm.

Rules, in the order they apply:

1. Each division's final ranking (withdrawn teams left out: they leave the league) gives
   its top ``promote`` teams a place one division up (none up from the top division) and
   its bottom ``relegate`` teams a place one down (none down from the bottom division); a
   team is never both (a small division promotes first).
2. A division left with fewer teams than it had this season (a team withdrew, or fewer
   came down than went up) is filled from the division below: its best-placed team that
   stays there goes up too, and the gap that leaves is filled the same way, division by
   division from the top.
3. New teams join the bottom division, in the order given (the order they entered).
4. Within each division the seeds follow where the teams come from: those coming down
   (best placed first), those staying (by place), those coming up (by place, then those
   that filled a gap), then the new teams.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from django.utils.translation import gettext as _

from config.errors import PlatformError

MoveKind = Literal["down", "stays", "up", "filled", "new"]


class LeagueError(PlatformError):
    """The season's divisions cannot be drafted from; the message says what to fix."""

    code = "league"


@dataclass(frozen=True, slots=True)
class DivisionResult:
    """A division at the end of a season: ``level`` (1 is the top), its teams still in by
    final place (``ranking``) and how many places it has (its entries, withdrawn ones too)."""

    level: int
    ranking: tuple[int, ...]
    places: int


@dataclass(frozen=True, slots=True)
class Move:
    """Where a team plays next season: ``level``, coming from ``came_from`` (None for a new
    team) because of ``kind``."""

    team: int
    came_from: int | None
    level: int
    kind: MoveKind


def draft_moves(divisions: Sequence[DivisionResult], *, promote: int, relegate: int,
                newcomers: Sequence[int] = ()) -> list[Move]:
    """Next season's divisions (see the module's rules), division by division in seed order."""
    ordered = _checked(divisions, newcomers)
    if not ordered:
        raise LeagueError(_("the season has no division to draft the next one from"))
    last = len(ordered) - 1
    ups: list[list[int]] = []
    downs: list[list[int]] = []
    for index, division in enumerate(ordered):
        up = list(division.ranking[:promote]) if index > 0 else []
        rest = division.ranking[len(up):]
        ups.append(up)
        downs.append(list(rest[max(0, len(rest) - relegate):]) if index < last else [])
    nexts: list[list[Move]] = []
    for index, division in enumerate(ordered):
        moved = set(ups[index]) | set(downs[index])
        nexts.append(
            [Move(team, ordered[index - 1].level, division.level, "down")
             for team in (downs[index - 1] if index > 0 else [])]
            + [Move(team, division.level, division.level, "stays")
               for team in division.ranking if team not in moved]
            + [Move(team, ordered[index + 1].level, division.level, "up")
               for team in (ups[index + 1] if index < last else [])])
    for index in range(last):
        _fill(nexts[index], nexts[index + 1], ordered[index])
    nexts[last] += [Move(team, None, ordered[last].level, "new") for team in newcomers]
    return [move for moves in nexts for move in moves]


def _fill(upper: list[Move], lower: list[Move], division: DivisionResult) -> None:
    """Rule 2: move the best-placed staying teams of ``lower`` up until ``upper`` has as
    many teams as ``division`` had places (or none stays below)."""
    while len(upper) < division.places:
        staying = [move for move in lower if move.kind == "stays"]
        if not staying:
            return
        lower.remove(staying[0])
        upper.append(Move(staying[0].team, staying[0].came_from, division.level, "filled"))


def _checked(divisions: Sequence[DivisionResult],
             newcomers: Sequence[int]) -> list[DivisionResult]:
    """The divisions top first; :class:`LeagueError` for a level or a team given twice."""
    ordered = sorted(divisions, key=lambda division: division.level)
    for above, below in zip(ordered, ordered[1:], strict=False):
        if above.level == below.level:
            raise LeagueError(_("two divisions are at level %(level)d") % {"level": above.level})
    seen: set[int] = set()
    for team in [t for division in ordered for t in division.ranking] + list(newcomers):
        if team in seen:
            raise LeagueError(_("team %(team)d is in two divisions (or is new and in one): a "
                                "team plays in one division a season") % {"team": team})
        seen.add(team)
    return ordered
