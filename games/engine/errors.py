"""The two ways input can be wrong: an illegal action (rules) or a malformed record (shape)."""

from __future__ import annotations

from collections.abc import Callable


class IllegalActionError(ValueError):
    """An action the rules forbid. ``rule`` is the rule number of push-rules.md, e.g. ``R7.1``."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message

    def translated(self, translate: Callable[[str], str]) -> str:
        """The message in the language of ``translate`` (e.g. Django's ``gettext``): a fixed
        text the engine marks for translation is found there; one with values written into
        it stays as the engine wrote it."""
        return translate(self.message)


class MalformedRecordError(ValueError):
    """A record that is not a well-formed ``push-record/1`` document.

    ``where`` is a path into the document (``hands[1].actions[4].card``), or ``""``
    for the document as a whole.
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message
