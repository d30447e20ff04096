"""The two ways input can be wrong: an illegal action (rules) or a malformed record (shape)."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action the rules forbid. ``rule`` is the rule number of push-rules.md, e.g. ``R7.1``."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class MalformedRecordError(ValueError):
    """A record that is not a well-formed ``push-record/1`` document.

    ``where`` is a path into the document (``hands[1].actions[4].card``), or ``""``
    for the document as a whole.
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message
