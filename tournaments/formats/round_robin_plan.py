"""The rounds still to come of a round robin, planned from the rounds paired so far: a pure
function over team ids (no database).

A round robin promises that every pair of teams meets exactly once a cycle. The circle
method (``round_robin``) plans every round from the seeds alone, so once a draft's teams
are swapped, the circle's later rounds would pair again a pair the swap brought together,
and never the pairs it parted. :func:`plan_rest` plans the rounds after those paired so
that within each cycle the pairs not met yet meet exactly once: the circle's own rounds
while the cycle follows them, otherwise the first plan found by a search that keeps to the
circle's pairings where it can (each round a perfect matching of the field, the odd team
out's bye counted as a meeting with nobody). Later cycles keep the circle's rounds: each
is a whole round robin of its own.

The search is depth first in a fixed order, so the same rounds so far always give the
same plan, and a plan followed round by round stays the plan: the first plan from round
k + 1 is the rest of the first plan from round k.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .base import Pairing, PairingError, TeamId

#: the field's places in the circle: a team, or None for the bye of an odd field
Slot = TeamId | None
#: two slots that meet in a round: two teams, or a team and its bye
Meeting = frozenset[Slot]

#: the most steps (a slot matched) the search takes before it gives up: far more than a
#: plan needs when one exists, small enough to answer at once when none does
SEARCH_STEPS = 200_000


class ScheduleError(PairingError):
    """The rounds so far leave no plan in which every pair meets exactly once a cycle;
    ``rematch``: the two teams that met a second time, when that is why."""

    def __init__(self, message: str, rematch: Meeting | None = None) -> None:
        super().__init__(message)
        self.rematch = rematch


def meeting(pairing: Pairing) -> Meeting:
    """Who meets at ``pairing``; a bye and a game against the house bot team meet nobody."""
    return frozenset((pairing.home, pairing.away))


def plan_rest(team_ids: Sequence[TeamId], circle: Sequence[Sequence[Pairing]],
              rounds: Sequence[Sequence[Pairing]]) -> list[list[Pairing]]:
    """Every round after ``rounds`` (the rounds paired so far, round one first) in which,
    within each cycle, every pair of ``team_ids`` meets exactly once (see the module);
    ``circle`` is the circle method's schedule of ``team_ids``, every cycle of it
    (``round_robin_schedule``).

    :class:`ScheduleError` when no such plan exists: a pair already met twice in the
    cycle, a round so far is not a round of this field (a team withdrew since), or the pairs
    left cannot be split into the rounds left."""
    done = len(rounds)
    if done == 0:
        return [list(paired) for paired in circle]
    if done > len(circle):
        raise ScheduleError(_("there are more rounds than a round robin of the teams still in "
                              "has (the field changed since)"))
    per_cycle = len(team_ids) - 1 + len(team_ids) % 2
    # the cycle of the latest round: it is checked even when it is the cycle's last round
    start = (done - 1) // per_cycle * per_cycle
    end = start + per_cycle
    played = [{meeting(p) for p in paired} for paired in rounds[start:]]
    if played == [{meeting(p) for p in paired} for paired in circle[start:done]]:
        return [list(paired) for paired in circle[done:]]
    order: list[Slot] = ([None] if len(team_ids) % 2 else []) + list(team_ids)
    unmet = _unmet(order, played, start)
    preferred = [{meeting(p) for p in paired} for paired in circle[done:end]]
    found = _split(unmet, order, preferred)
    if found is None:
        raise ScheduleError(ngettext(
            "the pairs of teams that have not met yet cannot be split into the %(count)d "
            "round left of the cycle, one meeting a team each round",
            "the pairs of teams that have not met yet cannot be split into the %(count)d "
            "rounds left of the cycle, one meeting a team each round",
            end - done) % {"count": end - done})
    sides = {meeting(p): p for paired in circle[start:end] for p in paired}
    position = {slot: index for index, slot in enumerate(order)}
    planned = [sorted((sides[pair] for pair in matching),
                      key=lambda p: (p.is_bye, min(position[t] for t in p.teams)))
               for matching in found]
    return planned + [list(paired) for paired in circle[end:]]


def _unmet(order: list[Slot], played: list[set[Meeting]], start: int) -> set[Meeting]:
    """The meetings of the cycle still to come, after the ``played`` rounds of it."""
    unmet = {frozenset(pair) for pair in combinations(order, 2)}
    for number, paired in enumerate(played, start=start + 1):
        if set().union(*paired) != set(order) or len(paired) * 2 != len(order):
            raise ScheduleError(_("round %(number)d is not a round of the teams still in "
                                  "(the field changed since)") % {"number": number})
        for pair in paired:
            if pair not in unmet:
                raise ScheduleError(_("round %(number)d pairs two teams that met earlier in "
                                      "the cycle") % {"number": number}, rematch=pair)
            unmet.discard(pair)
    return unmet


def _split(unmet: set[Meeting], order: list[Slot],
           preferred: list[set[Meeting]]) -> list[set[Meeting]] | None:
    """``unmet`` as one perfect matching of ``order`` for each round left, each round
    trying its circle pairings (``preferred``) first; None when there is none, or none found
    within ``SEARCH_STEPS``."""
    partners: dict[Slot, set[Slot]] = {slot: set() for slot in order}
    for pair in unmet:
        a, b = tuple(pair)
        partners[a].add(b)
        partners[b].add(a)
    rank = {slot: index for index, slot in enumerate(order)}
    steps = [0]
    rounds: list[set[Meeting]] = []

    def plan_round(index: int) -> bool:
        if index == len(preferred):
            return True
        return match(index, set(order), set())

    def match(index: int, free: set[Slot], matching: set[Meeting]) -> bool:
        if not free:
            rounds.append(set(matching))
            if plan_round(index + 1):
                return True
            rounds.pop()
            return False
        steps[0] += 1
        if steps[0] > SEARCH_STEPS:
            return False
        slot = min(free, key=rank.__getitem__)
        choices = sorted(partners[slot] & free, key=lambda other: (
            frozenset((slot, other)) not in preferred[index], rank[other]))
        for other in choices:
            pair = frozenset((slot, other))
            partners[slot].discard(other)
            partners[other].discard(slot)
            matching.add(pair)
            if match(index, free - {slot, other}, matching):
                return True
            matching.discard(pair)
            partners[slot].add(other)
            partners[other].add(slot)
        return False

    return rounds if plan_round(0) else None
