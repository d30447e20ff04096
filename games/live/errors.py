"""The one error of the live tables' service: a refused request, nothing stored."""

from __future__ import annotations


class TableError(Exception):
    """A refused request: ``rule`` (a rule number of push-rules.md, or ``""``) and a
    message for the person who sent it. Nothing was stored."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule
        self.message = message
