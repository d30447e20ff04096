"""The one error of the live tables' service: a refused request, nothing stored."""

from __future__ import annotations

from typing import Any

from config.errors import PlatformError


class TableError(PlatformError):
    """A refused request: ``rule`` (a rule number of push-rules.md, or ``""``) and a
    message for the person who sent it. Nothing was stored."""

    code = "refused"

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "rule": self.rule}
