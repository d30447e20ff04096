"""A TRF-style report of every team's results per round (the FIDE Tournament Report File
idea, for teams of Push), for organisers who check the pairings with another program.

Fixed-width lines (columns counted from 1; docs/api/files.md):

* header lines: ``012`` and the event's name from column 5, ``042`` its first day and
  ``052`` its last (``YYYY-MM-DD``, blank if not set), ``062`` the number of teams, ``XXR``
  the rounds planned;
* one ``001`` line a team: columns 1-3 ``001``, 5-8 its number (right-aligned), 10-41 its
  name (left-aligned, cut at 32 characters), 43-47 its points (one decimal), 49-52 its rank
  (blank before its first result), then for each round ``r`` a 10-column block from column
  ``54 + 10 (r - 1)``: two spaces, the opponent's number in 4 columns (``0000``: a bye or
  the bot team), a space, the side (``a``: seats 0 and 2, ``b``: seats 1 and 3, ``-``: a
  bye), a space, and the result (``1`` won, ``=`` drawn, ``0`` lost, ``U`` a bye, blank:
  no result yet, or not paired in that round at all: the whole block blank).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

NAME_WIDTH = 32
FIRST_ROUND_COLUMN = 54
BLOCK_WIDTH = 10
Side = Literal["a", "b", "-"]
Outcome = Literal["1", "=", "0", "U", " "]


@dataclass(frozen=True)
class Game:
    """A team's game in one round: its opponent's number (0: a bye or the bot team), its
    side and its result."""

    opponent: int
    side: Side
    outcome: Outcome


@dataclass(frozen=True)
class TeamLine:
    number: int
    name: str
    points: float
    rank: int | None
    games: Mapping[int, Game] = field(default_factory=dict)  # by round number


def _block(game: Game | None) -> str:
    if game is None:
        return " " * BLOCK_WIDTH
    return f"  {game.opponent:04d} {game.side} {game.outcome}"


def team_line(team: TeamLine, rounds: int) -> str:
    """A team's ``001`` line, its blocks for rounds 1 to ``rounds``."""
    name = team.name.replace("\n", " ").replace("\r", " ")[:NAME_WIDTH]
    rank = "" if team.rank is None else str(team.rank)
    head = f"001 {team.number:>4} {name:<{NAME_WIDTH}} {team.points:>5.1f} {rank:>4} "
    return (head + "".join(_block(team.games.get(number))
                           for number in range(1, rounds + 1))).rstrip()


def trf_report(*, event: str, starts_on: str, ends_on: str, rounds_planned: int,
               teams: Sequence[TeamLine]) -> str:
    """The report: its header lines, then one line a team in number order."""
    rounds = max([rounds_planned, *(max(team.games, default=0) for team in teams)])
    lines = [f"012 {event}".replace("\n", " "), f"042 {starts_on}".rstrip(),
             f"052 {ends_on}".rstrip(), f"062 {len(teams)}", f"XXR {rounds_planned}"]
    lines += [team_line(team, rounds) for team in sorted(teams, key=lambda t: t.number)]
    return "\n".join(lines) + "\n"
