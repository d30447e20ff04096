"""Checking an entered score sheet against what a game of Push can produce (R9.1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

HANDS = 5
ALL_CARDS_VALUE = 960  # R2.4 over the whole pack of R2.1
LEAST_HELD = 10  # two partners who did not go out hold a card each, of at least 5 (R2.4)


def score_sheet_errors(hand_scores: Any, out_seats: Any) -> list[str]:
    """What is impossible about a sheet: five ``[team0, team1]`` hand scores and, per hand,
    the seat that went out (``None`` when the stock ran out). Empty when it could be real."""
    if not isinstance(hand_scores, Sequence) or len(hand_scores) != HANDS:
        return [f"a score sheet has {HANDS} hands, one [team 0, team 1] pair each"]
    if not isinstance(out_seats, Sequence) or len(out_seats) != HANDS:
        return [f"name who went out in each of the {HANDS} hands (or none, when the stock "
                "ran out)"]
    errors = []
    for hand, (scores, out) in enumerate(zip(hand_scores, out_seats, strict=True), start=1):
        errors += [f"hand {hand}: {e}" for e in _hand_errors(scores, out)]
    return errors


def _hand_errors(scores: Any, out: Any) -> list[str]:
    if (not isinstance(scores, Sequence) or len(scores) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
        return ["scores must be two whole numbers, team 0 first"]
    if out is not None and (isinstance(out, bool) or out not in (0, 1, 2, 3)):
        return [f"the seat that went out must be 0, 1, 2 or 3, not {out!r}"]
    errors = []
    for team, score in enumerate(scores):
        if out is not None and team == out % 2:
            if score != 0:
                errors.append(f"team {team} went out (seat {out}), so it scores 0 (R9.1)")
        elif score < LEAST_HELD or score % 5:
            errors.append(f"team {team}'s {score} is not a sum of card values left in two "
                          f"hands: a multiple of 5, at least {LEAST_HELD} (R2.4, R9.1)")
    if sum(scores) > ALL_CARDS_VALUE:
        errors.append(f"{sum(scores)} is more than the whole pack is worth ({ALL_CARDS_VALUE})")
    return errors
