"""Round robin by the circle method: every team meets every other team once per cycle.

Contract:

* ``team_ids`` are given in seed order (seed 1 first); the schedule is a pure
  function of that order, so the same list always gives the same rounds.
* A cycle has ``n - 1`` rounds for an even count ``n`` and ``n`` rounds for an
  odd count. With an odd count one team per round has a bye, and each team has
  exactly one bye per cycle.
* Every pair of teams meets exactly once per cycle. ``cycles=2`` is a double
  round robin: the second cycle repeats the first with home and away (the seat
  sides, see :class:`~tournaments.formats.base.Pairing`) swapped; further
  cycles keep alternating.
* Within a cycle each team is home ``floor((n-1)/2)`` or ``ceil((n-1)/2)``
  times (for even ``n``; one fewer game for odd ``n``) and mostly alternates
  home and away from round to round.
* Round one pairs seeds the way a seeded draw would: 1 v n, 2 v n-1, ... (with
  an odd count the lowest seed has the first bye and 1 v n-1, ...).
* Pairings within a round are listed in table order; a bye comes last.

The circle method: with an even list ``t0 .. t(n-1)``, ``t0`` stays put and the
others rotate one place per round; position ``i`` plays position ``n-1-i``. An
odd list gets a phantom first entry, and whoever meets the phantom has the bye.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .base import Pairing, PairingError, TeamId, check_team_ids, too_few_teams
from .registry import STANDINGS_SETTINGS, TournamentData, TournamentFormat
from .round_robin_plan import ScheduleError, plan_rest

__all__ = ["DoubleRoundRobin", "RoundRobin", "round_robin_round", "round_robin_round_count",
           "round_robin_schedule"]


def round_robin_round_count(team_count: int, *, cycles: int = 1) -> int:
    """The number of rounds for ``team_count`` teams over ``cycles`` cycles."""
    if team_count < 2:
        raise too_few_teams(2, team_count)
    _check_cycles(cycles)
    return (team_count - 1 + team_count % 2) * cycles


def round_robin_schedule(team_ids: Sequence[TeamId], *, cycles: int = 1) -> list[list[Pairing]]:
    """Every round of the round robin, round one first (see the module contract)."""
    slots = _slots(team_ids)
    _check_cycles(cycles)
    per_cycle = len(slots) - 1
    return [
        _round(slots, index % per_cycle, swapped=(index // per_cycle) % 2 == 1)
        for index in range(per_cycle * cycles)
    ]


def round_robin_round(
    team_ids: Sequence[TeamId], round_number: int, *, cycles: int = 1
) -> list[Pairing]:
    """The pairings of round ``round_number`` (1-based) alone, without building the rest.

    Equal to ``round_robin_schedule(team_ids, cycles=cycles)[round_number - 1]``;
    :class:`PairingError` when the round does not exist.
    """
    slots = _slots(team_ids)
    total = round_robin_round_count(len(team_ids), cycles=cycles)
    if not 1 <= round_number <= total:
        raise PairingError(_("round %(number)d does not exist; there are rounds 1 to %(total)d")
                           % {"number": round_number, "total": total})
    per_cycle = len(slots) - 1
    index = round_number - 1
    return _round(slots, index % per_cycle, swapped=(index // per_cycle) % 2 == 1)


def _check_cycles(cycles: int) -> None:
    if cycles < 1:
        raise PairingError(_("a round robin has at least one cycle, got %(cycles)d")
                           % {"cycles": cycles})


def _slots(team_ids: Sequence[TeamId]) -> list[TeamId | None]:
    """The circle: an even-length list, with a phantom ``None`` first for an odd count."""
    ids: list[TeamId | None] = list(check_team_ids(team_ids))
    return [None, *ids] if len(ids) % 2 else ids


def _round(slots: list[TeamId | None], index: int, *, swapped: bool) -> list[Pairing]:
    """Round ``index`` (0-based, within a cycle) of the circle ``slots``."""
    n = len(slots)
    rest = slots[1:]
    shift = index % (n - 1)
    # Rotate right by ``shift``: the team at position p moves to p + 1 each round.
    circle = [slots[0], *rest[len(rest) - shift :], *rest[: len(rest) - shift]]
    pairings: list[Pairing] = []
    bye: Pairing | None = None
    for i in range(n // 2):
        top, bottom = circle[i], circle[n - 1 - i]
        if top is None or bottom is None:
            team = bottom if top is None else top
            assert team is not None
            bye = Pairing(home=team)
            continue
        # Home/away: a team at an odd position is at home, so as it moves one
        # place per round it alternates. Position n-1 meets the fixed team,
        # which is at home in every other round instead.
        top_home = index % 2 == 0 if i == 0 else i % 2 == 1
        if swapped:
            top_home = not top_home
        home, away = (top, bottom) if top_home else (bottom, top)
        pairings.append(Pairing(home=home, away=away))
    if bye is not None:
        pairings.append(bye)
    return pairings


class _RoundRobinFormat(TournamentFormat):
    """Every team meets every other ``cycles`` times, on the circle method's schedule, or,
    once a draft edit changed who meets whom, on the rounds re-planned after it
    (``round_robin_plan``). A field that changed since (a team withdrew) keeps the circle
    of the teams still in."""

    cycles: ClassVar[int]
    settings = frozenset(STANDINGS_SETTINGS)

    def rounds_total(self, data: TournamentData) -> int:
        return round_robin_round_count(len(data.seeds()), cycles=self.cycles)

    def pairings(self, data: TournamentData, number: int) -> list[tuple[int | None, Pairing]]:
        return [(None, p) for p in self._round(data, data.rounds()[:number - 1], number)]

    def scheduled(self, data: TournamentData, number: int) -> list[Pairing]:
        return self._round(data, data.rounds(), number)

    def replanned(self, data: TournamentData,
                  rounds: Sequence[Sequence[Pairing]]) -> list[list[Pairing]]:
        seeds = data.seeds()
        return plan_rest(seeds, round_robin_schedule(seeds, cycles=self.cycles), rounds)

    def _round(self, data: TournamentData, rounds: Sequence[Sequence[Pairing]],
               number: int) -> list[Pairing]:
        """Round ``number`` of the plan after ``rounds``."""
        index = number - len(rounds) - 1
        try:
            planned = self.replanned(data, rounds)
        except ScheduleError:
            planned = []
        if 0 <= index < len(planned):
            return planned[index]
        return round_robin_round(data.seeds(), number, cycles=self.cycles)


class RoundRobin(_RoundRobinFormat):
    key = "round_robin"
    label = gettext_lazy("round robin")
    cycles = 1


class DoubleRoundRobin(_RoundRobinFormat):
    key = "double_round_robin"
    label = gettext_lazy("double round robin")
    cycles = 2
