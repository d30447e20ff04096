"""The standings' input values and each team's summary of them.

`MatchResult` is one result as the services layer hands it over; `ScoringRule` is the points
a tournament gives for a win, a draw, a loss and a bye; `summarise` turns the results into
one `TeamSummary` per team, which is all the tie-break metrics read. No database, no
Django.

All arithmetic is exact (`fractions.Fraction`), so sums do not depend on the order in
which results arrive and "level" means exactly equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from tournaments.duplicate import TeamTotals

Number = int | float | Decimal  # points given as Decimal (as stored) stay exact
Outcome = Literal["win", "draw", "loss"]
OUTCOMES: tuple[Outcome, ...] = ("win", "draw", "loss")


@dataclass(frozen=True)
class MatchResult:
    """The result of one match (one game of five hands) between two teams.

    `team_b is None` is a bye: `totals` must be None, `out_hands` (0, 0) and
    `winner` None; the bye team gets the scoring rule's `bye` points and no game
    score. Otherwise `totals` are the two teams' game totals (penalty points,
    lower is better) and `winner` is 0 (team_a), 1 (team_b) or None (draw);
    it must agree with the totals (R9.2). `totals` may be None for a played match
    only when the result was awarded without a game (a forfeit): it then
    counts for points and opponents but adds nothing to game-score metrics,
    and `out_hands` must be (0, 0).

    `boards` is each team's duplicate totals on the round's boards (`duplicate.TeamTotals`,
    scored against every table of the round), None outside a duplicate round, for a bye
    and for a team without a board result here.
    """

    round: int
    team_a: int
    team_b: int | None
    totals: tuple[int, int] | None
    out_hands: tuple[int, int]
    winner: int | None
    boards: tuple[TeamTotals | None, TeamTotals | None] = (None, None)

    def __post_init__(self) -> None:
        if self.out_hands[0] < 0 or self.out_hands[1] < 0:
            raise ValueError(
                f"{self._where()}: out_hands must not be negative, got {self.out_hands}")
        if self.team_b is None:
            if self.totals is not None or self.winner is not None or self.out_hands != (0, 0):
                raise ValueError(
                    f"{self._where()}: a bye has no totals, no winner and out_hands (0, 0)")
            return
        if self.team_b == self.team_a:
            raise ValueError(f"{self._where()}: a team cannot play itself")
        if self.winner not in (0, 1, None):
            raise ValueError(f"{self._where()}: winner must be 0, 1 or None, got {self.winner!r}")
        if self.totals is None:
            if self.out_hands != (0, 0):
                raise ValueError(f"{self._where()}: a result without totals has out_hands (0, 0)")
            return
        a, b = self.totals
        expected = 0 if a < b else 1 if b < a else None
        if self.winner != expected:
            raise ValueError(
                f"{self._where()}: totals {self.totals} mean winner {expected!r} "
                f"(lower total wins, equal is a draw), got {self.winner!r}"
            )

    def _where(self) -> str:
        # A method, not formatted up front: a rebuild builds 10,000 results, all valid.
        return f"round {self.round}, team {self.team_a} v {self.team_b}"

    @property
    def is_bye(self) -> bool:
        return self.team_b is None


@dataclass(frozen=True, init=False)
class ScoringRule:
    """The points a tournament gives for each result: `win`, `draw` and `loss` for a played
    (or awarded) match, `bye` for a round without an opponent.

    Given as numbers of any kind, kept as exact fractions: a Decimal 0.1 (as the points are
    stored) is exactly a tenth, where the float 0.1 would already be off. Two rules with
    the same points are equal."""

    win: Fraction
    draw: Fraction
    loss: Fraction
    bye: Fraction

    def __init__(self, win: Number | Fraction, draw: Number | Fraction,
                 loss: Number | Fraction, bye: Number | Fraction) -> None:
        # frozen: the fields are set once, here
        object.__setattr__(self, "win", Fraction(win))
        object.__setattr__(self, "draw", Fraction(draw))
        object.__setattr__(self, "loss", Fraction(loss))
        object.__setattr__(self, "bye", Fraction(bye))

    def points_for(self, outcome: Outcome) -> Fraction:
        """The points for a played match with this outcome (a bye's are `bye`)."""
        if outcome == "win":
            return self.win
        return self.draw if outcome == "draw" else self.loss


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum, adding numerators per denominator (there are few: point values are
    whole or halves), which is much faster than adding ``Fraction`` objects one by one."""
    numerators: dict[int, int] = {}
    for value in values:
        numerators[value.denominator] = numerators.get(value.denominator, 0) + value.numerator
    return sum((Fraction(n, d) for d, n in numerators.items()), Fraction(0))


# --------------------------------------------------------------------------
# Per-team summary: everything the metrics need, in canonical order
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Meeting:
    """One played (non-bye) match from one team's side."""

    round: int
    opponent: int
    outcome: Outcome
    points: Fraction
    own_total: int | None
    opponent_total: int | None
    out_hands: int
    boards: TeamTotals | None = None  # the team's duplicate totals on the round's boards


@dataclass(frozen=True)
class TeamSummary:
    """A team's results, precomputed once; metrics read only this.

    `meetings` are sorted by (round, opponent), so a summary does not depend
    on the order of the results it was built from.
    """

    team: int
    points: Fraction
    wins: int
    draws: int
    losses: int
    byes: int
    meetings: tuple[Meeting, ...]

    @property
    def played(self) -> int:
        """Matches played against an opponent; byes are counted separately."""
        return self.wins + self.draws + self.losses


def check_results(teams: Sequence[int], results: Sequence[MatchResult]) -> None:
    """Reject repeated teams, results that name unknown teams and a team in two matches
    of the same round (ValueError, saying which)."""
    if len(set(teams)) != len(teams):
        raise ValueError(f"teams repeated: {sorted(t for t in set(teams) if teams.count(t) > 1)}")
    known = set(teams)
    seen: set[tuple[int, int]] = set()
    for result in results:
        sides = [result.team_a] if result.team_b is None else [result.team_a, result.team_b]
        for team in sides:
            if team not in known:
                raise ValueError(f"round {result.round}: team {team} is not in this tournament")
            if (result.round, team) in seen:
                raise ValueError(f"round {result.round}: team {team} has more than one result")
            seen.add((result.round, team))


def summarise(
    teams: Sequence[int], results: Iterable[MatchResult], scoring: ScoringRule
) -> dict[int, TeamSummary]:
    """Build every team's summary, its points counted by `scoring`; reject results that
    name unknown teams or put a team in two matches of the same round."""
    results = list(results)
    check_results(teams, results)
    worth = {outcome: scoring.points_for(outcome) for outcome in OUTCOMES}
    meetings: dict[int, list[Meeting]] = {t: [] for t in teams}
    byes: dict[int, int] = {t: 0 for t in teams}
    for result in results:
        if result.team_b is None:
            byes[result.team_a] += 1
            continue
        for side, (team, opponent) in enumerate(
            ((result.team_a, result.team_b), (result.team_b, result.team_a))
        ):
            outcome: Outcome = (
                "draw" if result.winner is None else "win" if result.winner == side else "loss"
            )
            totals = result.totals
            meetings[team].append(
                Meeting(
                    round=result.round,
                    opponent=opponent,
                    outcome=outcome,
                    points=worth[outcome],
                    own_total=None if totals is None else totals[side],
                    opponent_total=None if totals is None else totals[1 - side],
                    out_hands=result.out_hands[side],
                    boards=result.boards[side],
                )
            )
    summaries = {}
    for team in teams:
        played = tuple(sorted(meetings[team], key=lambda m: (m.round, m.opponent)))
        outcomes = [m.outcome for m in played]
        wins, draws, losses = (outcomes.count(o) for o in OUTCOMES)
        summaries[team] = TeamSummary(
            team=team,
            points=wins * worth["win"] + draws * worth["draw"] + losses * worth["loss"]
            + byes[team] * scoring.bye,
            wins=wins,
            draws=draws,
            losses=losses,
            byes=byes[team],
            meetings=played,
        )
    return summaries
