"""Checking an entered score sheet against what a game of Push can produce (R2.4, R9.1).

The errors are structured, not English sentences: a message template with ``%(name)s``
placeholders, its parameters and the hand it concerns, so that the platform can show
them in its reader's language (it translates ``template``, then fills it in). The
templates are marked with :func:`gettext_noop` for the translation catalogue.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import ALL_CARDS, full_pack, penalty
from .state import HANDS_PER_GAME

PACK_VALUE = penalty(full_pack())  # R2.4 over the whole pack of R2.1
# Every card's value is a multiple of this (R2.4), so every sum of held cards is too.
VALUE_STEP = math.gcd(*(card.value for card in ALL_CARDS))
# Two partners who did not go out hold at least a card each, of the lowest value (R2.4).
LEAST_HELD = 2 * min(card.value for card in ALL_CARDS)


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the translation catalogue without translating it (the engine
    knows no Django; the name is the one translation tools and our catalogue test know)."""
    return message


WHERE = gettext_noop("hand %(hand)s: %(error)s")
# A team an error names, where the platform has no name for it (seats 0 and 2 are team 0).
TEAM = gettext_noop("team %(number)s")


def _untranslated(message: str) -> str:
    return message


@dataclass(frozen=True, slots=True)
class SheetError:
    """One thing impossible about a score sheet: ``template % params`` in English, about
    hand ``hand`` (1..5), or about the sheet as a whole when ``hand`` is ``None``. A
    ``team`` parameter is the team's number (0 or 1), which the message turns into its name
    where the caller knows the names, else into "team 0"; every template puts it where a
    name reads as a sentence ("Blue Kings scored 37, ...")."""

    template: str
    params: Mapping[str, object]
    hand: int | None = None

    def message(self, translate: Callable[[str], str] = _untranslated,
                teams: Sequence[str] = ()) -> str:
        """What is wrong, in the language of ``translate`` (e.g. Django's ``gettext``),
        naming team 0 and team 1 as ``teams`` does when it is given."""
        params = dict(self.params)
        team = params.get("team")
        if isinstance(team, int) and not isinstance(team, bool):
            params["team"] = (teams[team] if len(teams) > team
                              else translate(TEAM) % {"number": team})
        return translate(self.template) % params

    def located(self, translate: Callable[[str], str] = _untranslated,
                teams: Sequence[str] = ()) -> str:
        """The message with the hand it concerns in front (``hand 2: ...``)."""
        what = self.message(translate, teams)
        return what if self.hand is None else translate(WHERE) % {"hand": self.hand,
                                                                   "error": what}


def score_sheet_errors(hand_scores: Any, out_seats: Any) -> list[SheetError]:
    """What is impossible about a sheet: five ``[team0, team1]`` hand scores and, per hand,
    the seat that went out (``None`` when the stock ran out). Empty when it could be real."""
    if not isinstance(hand_scores, Sequence) or len(hand_scores) != HANDS_PER_GAME:
        return [SheetError(gettext_noop(
            "a score sheet has %(hands)s hands, one [team 0, team 1] pair each"),
            {"hands": HANDS_PER_GAME})]
    if not isinstance(out_seats, Sequence) or len(out_seats) != HANDS_PER_GAME:
        return [SheetError(gettext_noop(
            "name who went out in each of the %(hands)s hands (or none, when the stock "
            "ran out)"), {"hands": HANDS_PER_GAME})]
    errors = []
    for hand, (scores, out) in enumerate(zip(hand_scores, out_seats, strict=True), start=1):
        errors += [SheetError(template, params, hand)
                   for template, params in _hand_errors(scores, out)]
    return errors


def _hand_errors(scores: Any, out: Any) -> list[tuple[str, dict[str, object]]]:
    if (not isinstance(scores, Sequence) or len(scores) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
        return [(gettext_noop("scores must be two whole numbers, team 0 first"), {})]
    if out is not None and (isinstance(out, bool) or out not in (0, 1, 2, 3)):
        return [(gettext_noop("the seat that went out must be 0, 1, 2 or 3, not %(out)s"),
                 {"out": repr(out)})]
    errors: list[tuple[str, dict[str, object]]] = []
    for team, score in enumerate(scores):
        if out is not None and team == out % 2:
            if score != 0:
                errors.append((gettext_noop(
                    "%(team)s went out (seat %(seat)s), so it scores 0, not %(score)s "
                    "(R9.1)"), {"team": team, "seat": out, "score": score}))
        elif score < LEAST_HELD or score % VALUE_STEP:
            errors.append((gettext_noop(
                "%(team)s scored %(score)s, which is not a sum of card values left in two "
                "hands: a multiple of %(step)s, at least %(least)s (R2.4, R9.1)"),
                {"team": team, "score": score, "step": VALUE_STEP, "least": LEAST_HELD}))
    if sum(scores) > PACK_VALUE:
        errors.append((gettext_noop(
            "%(total)s is more than the whole pack is worth (%(pack)s)"),
            {"total": sum(scores), "pack": PACK_VALUE}))
    return errors
