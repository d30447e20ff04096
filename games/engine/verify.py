"""Replay a record against the rules and give push-record.md's four verdicts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .errors import IllegalActionError, MalformedRecordError
from .game import GameState
from .record import Record, load_record
from .state import HandOutcome

Status = Literal["complete", "incomplete", "illegal", "malformed"]
EXIT_CODES: dict[Status, int] = {"complete": 0, "incomplete": 0, "illegal": 1, "malformed": 2}


@dataclass(frozen=True, slots=True)
class IllegalAt:
    """Where a replay stopped: hand 1..5, action index within that hand (0-based)."""

    hand: int
    action: int
    reason: str


@dataclass(frozen=True, slots=True)
class Verdict:
    status: Status
    hands: tuple[HandOutcome, ...] = ()
    totals: tuple[int, int] = (0, 0)
    winner: int | None = None
    error: IllegalAt | None = None
    reason: str | None = None  # for a malformed document: what and where

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": self.status,
            "hands": [{"hand": h.hand, "ended_by": h.ended_by, "out_seat": h.out_seat,
                       "scores": list(h.scores)} for h in self.hands],
            "totals": list(self.totals),
            "winner": self.winner,
        }
        if self.error is not None:
            data["error"] = {"hand": self.error.hand, "action": self.error.action,
                             "reason": self.error.reason}
        elif self.reason is not None:
            data["error"] = {"reason": self.reason}
        return data


def verify(source: str | bytes | Any) -> Verdict:
    """Verify a record given as JSON text, decoded JSON, or a :class:`Record`."""
    try:
        # a Record built in code gets the same shape checks as a document (108-card
        # packs, seats 0-3, at most five hands) instead of failing half-way in replay
        record = load_record(source.to_json() if isinstance(source, Record) else source)
    except MalformedRecordError as malformed:  # not ``exc``: mypyc gives every ``except
        # ... as`` of one name in a function one variable, of the first clause's type
        return Verdict("malformed", reason=str(malformed))
    # GameState.from_record's replay, on a game kept here: an illegal record's verdict gives
    # the hands finished before the illegal action
    game = GameState(record.first_dealer)
    try:
        game.play(game.replaying(record))
    except IllegalActionError as exc:
        assert exc.hand is not None and exc.action is not None  # a replay places its errors
        return Verdict("illegal", game.results, game.totals, None,
                       IllegalAt(exc.hand, exc.action, exc.reason))
    wrong = _claim_error(record, game)
    if wrong is not None:
        return Verdict("illegal", game.results, game.totals, None, wrong)
    status: Status = "complete" if game.is_over else "incomplete"
    return Verdict(status, game.results, game.totals, game.winner)


def _claim_error(record: Record, game: GameState) -> IllegalAt | None:
    """Where the claimed result of ``record`` first differs from ``game``, its replay."""
    claim = record.result
    if claim is None:
        return None
    replayed = [r.scores for r in game.results]
    for i in range(max(len(claim.hands), len(replayed))):
        claimed = claim.hands[i] if i < len(claim.hands) else None
        actual = replayed[i] if i < len(replayed) else None
        if claimed != actual:
            hand = min(i + 1, len(record.hands))
            said = list(claimed) if claimed else "nothing"
            got = list(actual) if actual else "no finished hand"
            return IllegalAt(hand, _last(record, hand),
                             f"R9.1: the record claims {said} for hand {i + 1}, "
                             f"the replay gives {got}")
    if claim.totals != game.totals:
        return IllegalAt(len(record.hands), _last(record, len(record.hands)),
                         f"R9.2: the record claims totals {list(claim.totals)}, the "
                         f"replay gives {list(game.totals)}")
    return None


def _last(record: Record, hand: int) -> int:
    return max(0, len(record.hands[hand - 1].actions) - 1) if hand >= 1 else 0
