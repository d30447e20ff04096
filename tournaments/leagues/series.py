"""A series' table: each event's final places score points on the organiser's table of
points per place, and teams (or players) are ranked on the points of the events that count.

* Places shared by several teams (a knockout's quarter-finalists share 5th to 8th) score the
  mean of the points of the places they share, so that sharing never creates points: the
  four quarter-finalists share what 5th, 6th, 7th and 8th would have scored.
* Places beyond the table score nothing; an event a team did not play is not a zero, it is
  not there (it does not count towards ``best_of``).
* With ``best_of`` N, only each one's N best events count; the others are shown, dropped.
* Ties on points are broken by count-back, as in motor racing's championships: more first
  places, then more second places, and so on (a shared place counts as its best: 5th-8th
  counts as a 5th); teams level on that too share the rank.
* A player's table gives each player the points of the team they played each event in (a
  player may change partners between events).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

#: A shared place's mean is rounded to two decimals: readable, and the same everywhere.
POINTS_QUANTUM = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class EventPlace:
    """A team's final place in one event: ``first`` to ``last`` when teams share it."""

    team: int
    players: tuple[int, int]
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class SeriesEvent:
    """One finished event of the series (``key``: the tournament's id) and its places."""

    key: int
    places: tuple[EventPlace, ...]


@dataclass(frozen=True, slots=True)
class EventScore:
    """What one event gave one team or player: its place and points, and whether the points
    count (False: dropped by ``best_of``)."""

    event: int
    first: int
    last: int
    points: Decimal
    counted: bool


@dataclass(frozen=True, slots=True)
class SeriesLine:
    key: int  # the team's or the player's id
    rank: int
    points: Decimal
    scores: tuple[EventScore, ...]  # in the events' order; events not played are absent

    @property
    def played(self) -> int:
        return len(self.scores)


def place_points(points: Sequence[Decimal], first: int, last: int) -> Decimal:
    """The points for places ``first`` to ``last`` (from 1): their mean on ``points``, a
    place beyond the table scoring nothing."""
    if not 1 <= first <= last:
        raise ValueError(f"places {first}-{last} are not a range of places")
    scored = [points[place - 1] if place <= len(points) else Decimal(0)
              for place in range(first, last + 1)]
    return (sum(scored, Decimal(0)) / len(scored)).quantize(POINTS_QUANTUM)


def series_table(events: Sequence[SeriesEvent], points: Sequence[Decimal],
                 best_of: int | None = None, *,
                 by: Literal["team", "player"] = "team") -> list[SeriesLine]:
    """The series' table, best first (see the module's rules)."""
    if best_of is not None and best_of < 1:
        raise ValueError("best_of counts at least one event")
    scores: dict[int, list[tuple[int, int, int, Decimal]]] = {}
    for event in events:
        for key, first, last in _places(event.places, by):
            scores.setdefault(key, []).append(
                (event.key, first, last, place_points(points, first, last)))
    lines = [_line(key, scored, best_of) for key, scored in scores.items()]
    depth = max((score.first for line in lines for score in line.scores), default=0)
    standing = {line.key: _standing(line, depth) for line in lines}
    ordered = sorted(lines, key=lambda line: (standing[line.key], line.key))
    ranked: list[SeriesLine] = []
    for index, line in enumerate(ordered):
        level = index > 0 and standing[line.key] == standing[ordered[index - 1].key]
        rank = ranked[-1].rank if level else index + 1
        ranked.append(SeriesLine(line.key, rank, line.points, line.scores))
    return ranked


def _places(places: Iterable[EventPlace], by: str) -> Iterable[tuple[int, int, int]]:
    """(key, first, last) once per team, or once per player at their best place."""
    if by == "team":
        return ((place.team, place.first, place.last) for place in places)
    best: dict[int, tuple[int, int]] = {}
    for place in places:
        for player in place.players:
            if player not in best or (place.first, place.last) < best[player]:
                best[player] = (place.first, place.last)
    return ((player, first, last) for player, (first, last) in best.items())


def _line(key: int, scored: list[tuple[int, int, int, Decimal]],
          best_of: int | None) -> SeriesLine:
    # the best events count; of two equal scores the earlier one (a stable choice)
    by_value = sorted(range(len(scored)), key=lambda i: (-scored[i][3], i))
    counted = set(by_value if best_of is None else by_value[:best_of])
    event_scores = tuple(EventScore(event, first, last, value, i in counted)
                         for i, (event, first, last, value) in enumerate(scored))
    total = sum((s.points for s in event_scores if s.counted), Decimal(0))
    return SeriesLine(key, 0, total, event_scores)


def _standing(line: SeriesLine, depth: int) -> tuple[Decimal, tuple[int, ...]]:
    """The sort key: points (high first), then count-back: the number of firsts, of seconds
    and so on down to ``depth``, the deepest place anyone has (high first)."""
    counts = [0] * depth
    for score in line.scores:
        counts[score.first - 1] += 1
    return -line.points, tuple(-count for count in counts)
