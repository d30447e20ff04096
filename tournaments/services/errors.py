"""Errors an organiser or player sees (as opposed to bugs, which are logged loudly)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from config.errors import PlatformError


class TournamentUserError(PlatformError):
    """Something the user asked for cannot be done; the message says what to fix."""


class ResultExists(TournamentUserError):
    """The match already has a result (another submission may have just landed)."""

    code = "conflict"
    status = 409


class ResultRejected(TournamentUserError):
    """A submitted result was refused; nothing was stored. For a game record, ``hand`` and
    ``action`` locate the first illegal action (push-record.md) and ``reason`` names the rule.
    The engine's reasons stay English (their rule numbers make them checkable); the frame
    around them is in the language active when the error is raised."""

    def __init__(self, reason: str, *, hand: int | None = None, action: int | None = None,
                 verdict: str = "") -> None:
        super().__init__(reason if hand is None else
                         _("hand %(hand)d, action %(action)d: %(reason)s")
                         % {"hand": hand, "action": action, "reason": reason})
        self.reason = reason
        self.hand = hand
        self.action = action
        self.verdict = verdict  # the verifier's status of the record, e.g. "illegal"

    code = "rejected"

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {**super().as_dict(), "reason": self.reason}
        if self.verdict:
            data["status"] = self.verdict
        if self.hand is not None:
            data.update(hand=self.hand, action=self.action)
        return data
