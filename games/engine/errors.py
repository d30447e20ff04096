"""The two ways input can be wrong: an illegal action (rules) or a malformed record (shape)."""

from __future__ import annotations

from collections.abc import Callable


class IllegalActionError(ValueError):
    """An action the rules forbid. ``rule`` is the rule number of push-rules.md, e.g. ``R7.1``.

    Raised by a replay (:meth:`~games.engine.game.GameState.play`), it also says where:
    ``hand`` (1..5) and ``action``, the index of the offending action within that hand
    (0-based, as push-record.md counts); both are ``None`` otherwise.
    """

    def __init__(self, rule: str, message: str, *, hand: int | None = None,
                 action: int | None = None) -> None:
        self.rule = rule
        self.message = message
        self.hand = hand
        self.action = action
        super().__init__(self.reason if hand is None
                         else f"hand {hand}, action {action}: {self.reason}")

    @property
    def reason(self) -> str:
        """The rule and what it forbids, without the place: ``R7.1: ...``."""
        return f"{self.rule}: {self.message}"

    def at(self, hand: int, action: int) -> IllegalActionError:
        """The same refusal, placed at action ``action`` of hand ``hand``."""
        return IllegalActionError(self.rule, self.message, hand=hand, action=action)

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
