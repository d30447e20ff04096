"""How much of a game bots played for people: pure, from a ``push-record/1`` record.

A live table marks each action a bot played for a seat a person holds (the stand-in that
finishes a turn whose time ran out, a substitute for a player who left) with ``"bot"``: the
bot's level, beside the action's own fields (``{"seat": 0, "do": "take", "bot": "greedy"}``),
which the record reader ignores. A seat a bot holds from the start (an absent player's
substitute, the house bot team) is no person's, and its actions carry no mark. A tournament
may leave out of its standings and of the ratings the games where bots played more than a
share of some person's actions (``Tournament.bot_share_limit``, a percentage).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SEATS = 4


def seat_bot_shares(record: Mapping[str, Any] | None) -> list[float]:
    """For each seat, 0 first: the share (0..1) of its actions marked as a bot's; 0 for a
    seat without actions, and for every seat of a game without a record."""
    played, by_bot = [0] * SEATS, [0] * SEATS
    for hand in (record or {}).get("hands") or []:
        for action in hand.get("actions") or []:
            seat = action.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < SEATS:
                continue  # a verified record has none; an unverified one counts nothing here
            played[seat] += 1
            if action.get("bot"):
                by_bot[seat] += 1
    return [bots / total if total else 0.0 for bots, total in zip(by_bot, played, strict=True)]


def bot_share(record: Mapping[str, Any] | None) -> float:
    """The largest share of a person's seat's actions that bots played (0..1)."""
    return max(seat_bot_shares(record))


def hands_finished_by_bots(record: Mapping[str, Any] | None) -> list[bool]:
    """For each hand of the record: whether a bot finished it for a person, that is, some
    seat's last action of the hand is marked as a bot's (a seat a bot holds from the start
    has no marks, so it never counts)."""
    finished: list[bool] = []
    for hand in (record or {}).get("hands") or []:
        last: dict[int, bool] = {}
        for action in hand.get("actions") or []:
            seat = action.get("seat")
            if isinstance(seat, int):
                last[seat] = bool(action.get("bot"))
        finished.append(any(last.values()))
    return finished


def left_out(share: float, limit: int | None) -> bool:
    """Whether a game with ``share`` counts in neither the standings nor the ratings of a
    tournament with ``limit`` (a percentage; None: every game counts). The database asks the
    same question as ``bot_share <= limit / 100`` (``selectors.counted``), so both compare
    the one floating-point number."""
    return limit is not None and share > limit / 100


def percent(share: float) -> str:
    """A share as people read a percentage: ``40``, ``33.3`` (one decimal at most)."""
    return f"{share * 100:.1f}".removesuffix(".0")
