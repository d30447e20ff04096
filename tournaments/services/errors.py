"""Errors an organiser or player sees (as opposed to bugs, which are logged loudly)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Model
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


class FieldsInvalid(TournamentUserError):
    """Values the model refuses (a tournament's settings, a player's handle), named by
    field: ``fields`` maps each field to its messages (``__all__``: the values together).
    The admin's forms show the same messages beside their fields; the API answers them."""

    def __init__(self, error: ValidationError) -> None:
        fields = (error.message_dict if hasattr(error, "error_dict")
                  else {NON_FIELD_ERRORS: error.messages})
        sentence = "; ".join(" ".join(messages) if name == NON_FIELD_ERRORS
                             else f"{name}: {' '.join(messages)}"
                             for name, messages in fields.items())
        super().__init__("%(errors)s", {"errors": sentence})
        self.fields = fields

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "fields": self.fields}


def checked(row: Model, *, exclude: Collection[str] = ()) -> None:
    """``row``'s own checks (``full_clean``: its fields, ``clean()`` and constraints), their
    refusal a :class:`FieldsInvalid`."""
    try:
        row.full_clean(exclude=exclude)
    except ValidationError as exc:
        raise FieldsInvalid(exc) from None
