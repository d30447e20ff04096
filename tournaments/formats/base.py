"""Shared vocabulary of the pairing formats: team ids, the team protocols,
:class:`Pairing` and :class:`PairingError`.

The formats are pure functions over plain Python data (like Tabbycat's draw
generators): they never touch the database, and import from Django only its
``gettext`` for the messages they raise. A service loads teams, calls a format and
writes the rows.

Errors follow the Tabbycat split between user errors and bugs:

* :class:`PairingError` (a ``config.errors.PlatformError``) means the organiser asked for
  something that cannot be done -- too few teams, a duplicate team, a round
  that does not exist, an unknown tie rule, a winner who did not play the
  match. Its message says what to fix, is meant to be shown, and is translated
  into the language active when it is raised.
* Anything else (``AssertionError``, ``RuntimeError``) is a bug in this
  package and should be logged loudly, never shown as advice.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Protocol

from django.utils.translation import gettext as _

from config.errors import PlatformError

#: A team's primary key. The formats only compare and hash ids.
TeamId = int


class PairingError(PlatformError):
    """The organiser's input cannot be paired; the message says what to fix."""

    code = "pairing"


class SeededTeam(Protocol):
    """A team as the formats see it: an id and a seed (1 is the strongest).

    Seeds need not be contiguous or unique; equal seeds are ordered by id.
    A service usually derives the seed from the entry order or the rating.
    """

    @property
    def id(self) -> TeamId: ...

    @property
    def seed(self) -> int: ...


class SwissTeam(SeededTeam, Protocol):
    """What Swiss pairing needs to know about one team before a round.

    ``points`` is the match-point total (int or float, e.g. 0.5 for a draw);
    ``previous_opponents`` holds the ids of every team it has played (a bot
    opponent is not a team and is not listed); ``byes`` counts the rounds in
    which it was the odd team out, whether it got a bye or played the house
    bot; a ``withdrawn`` team is left out of the round; ``avoid`` holds the ids of the
    teams the organiser asks it not to meet (a pair to avoid, or a club whose teams are
    kept apart): either team's listing keeps the pair apart wherever a draw can.
    """

    @property
    def points(self) -> float: ...

    @property
    def previous_opponents(self) -> AbstractSet[TeamId]: ...

    @property
    def byes(self) -> int: ...

    @property
    def withdrawn(self) -> bool: ...

    @property
    def avoid(self) -> AbstractSet[TeamId]: ...


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round: ``home`` against ``away``.

    ``home`` takes seats 0 and 2 (team 0 in the rules, R1.1) and ``away`` seats
    1 and 3. ``away`` is ``None`` when ``home`` is the odd team out: a bye, or a
    game against the house bot team when ``against_bot`` is true.
    """

    home: TeamId
    away: TeamId | None = None
    against_bot: bool = False

    def __post_init__(self) -> None:
        if self.home == self.away:
            raise AssertionError(f"team {self.home} paired with itself")
        if self.against_bot and self.away is not None:
            raise AssertionError("a bot game has no away team")

    @property
    def is_bye(self) -> bool:
        """True when ``home`` has no opponent at all this round."""
        return self.away is None and not self.against_bot

    @property
    def teams(self) -> tuple[TeamId, ...]:
        """The real teams at this table (one or two)."""
        return (self.home,) if self.away is None else (self.home, self.away)


def check_team_ids(ids: Iterable[TeamId], *, minimum: int = 2) -> list[TeamId]:
    """Return ``ids`` as a list; :class:`PairingError` on a repeat or too few."""
    listed = list(ids)
    seen: set[TeamId] = set()
    for team_id in listed:
        if team_id in seen:
            raise PairingError(_("team %(team)s is entered twice") % {"team": team_id})
        seen.add(team_id)
    if len(listed) < minimum:
        raise too_few_teams(minimum, len(listed))
    return listed


def too_few_teams(minimum: int, count: int) -> PairingError:
    """The error for a field of ``count`` teams where ``minimum`` are needed."""
    return PairingError(_("at least %(minimum)d teams are needed, got %(count)d")
                        % {"minimum": minimum, "count": count})


@dataclass(frozen=True, slots=True)
class Placing:
    """A team's final place in a knockout: ``first`` to ``last`` when teams share it (the
    losers of one round, e.g. 5-8 for the quarter-finals), ``first == last`` otherwise."""

    team: TeamId
    first: int
    last: int


#: Where a match is stored: (the tournament's round number, its slot in that round).
Position = tuple[int, int]


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A game with a confirmed result: where it stands in the draw, its two teams (``home``
    in seats 0 and 2) and each hand's scores as (home, away)."""

    position: Position
    home: TeamId
    away: TeamId
    hand_scores: tuple[tuple[int, int], ...]
