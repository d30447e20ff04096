"""The client's messages to a live table, read from one websocket frame's text: pure, and
never raising anything but :class:`FrameError`, whatever the frame holds (an attacker's
as much as a buggy client's). A FrameError says what is wrong and, where it is one field,
which; nothing was done.

A message is one flat JSON object; everything else is refused before it reaches the
table service: nesting (``json`` recurses, and a thousand levels raise RecursionError),
``NaN``/``Infinity`` (Python's ``json`` reads them; JSON has none), a key given twice
(``json`` keeps the last silently), a number of more digits than any message needs
(Python refuses to convert over 4,300), a field the type does not have, a value of the
wrong type, and a NUL or an unpaired surrogate in any string (PostgreSQL stores no NUL;
a lone surrogate cannot be encoded as UTF-8: both would fail far from here).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.engine import HANDS_PER_GAME

from .ids import client_id_problem

#: The largest frame read, in UTF-8 bytes: the largest message, a ``ways`` of every card
#: of the pack, is under 1 KiB.
MAX_FRAME_BYTES = 16 * 1024
MAX_WAYS_CARDS = 108  # the pack (R2.1): no hand holds more
#: Digits of the largest number read (a ``since`` or a meld id); more stay unconverted.
MAX_DIGITS = 18
#: Each type's fields, all required but a ways message's ``meld`` (absent: ``null``) and
#: a ping's ``hidden`` and ``lag`` (absent: not said).
FIELDS = {"act": ("type", "id", "action"), "resume": ("type", "since"),
          "ways": ("type", "id", "cards", "meld"), "ping": ("type", "hidden", "lag"),
          "hand_log": ("type", "id", "hand"), "resign": ("type", "id"),
          "leave": ("type", "id"), "rematch": ("type", "id"),
          "chat": ("type", "id", "text"), "report": ("type", "id", "message"),
          "hint": ("type", "id")}
#: The longest chat text, in characters once stripped (``ChatMessage.text``).
MAX_CHAT_CHARS = 300
#: The largest lag a page reports, in milliseconds (a minute: a larger one is no lag).
MAX_LAG_MS = 60_000
#: The ways out of a table's game, each answered ``done`` (``quitting``, ``rematch``).
QUITS = ("resign", "leave", "rematch")
UNCLEAN = re.compile("[\x00\ud800-\udfff]")
SHOWN = 40  # characters of a client's text an error quotes


class FrameError(Exception):
    """A refused frame: ``message`` for its sender, the ``field`` at fault (one of
    :data:`FIELDS`, or ``None``) and the message's ``client_id`` when it has a valid one
    (the error echoes it; an invalid id is never echoed)."""

    def __init__(self, message: str, field: str | None = None,
                 client_id: str | None = None) -> None:
        super().__init__(message)
        self.message, self.field, self.client_id = message, field, client_id


@dataclass(frozen=True)
class Act:
    id: str
    action: str


@dataclass(frozen=True)
class Resume:
    since: int


@dataclass(frozen=True)
class Ways:
    id: str
    cards: list[str]
    meld: int | None


@dataclass(frozen=True)
class Ping:
    """A heartbeat: the person is still at the table (``presence``); ``hidden``, whether
    their page's tab is hidden, and ``lag``, the last heartbeat's round trip in ms, as the
    page says them (None: not said)."""

    hidden: bool | None = None
    lag: int | None = None


@dataclass(frozen=True)
class Quit:
    """A way out of the table's game (``do``: one of :data:`QUITS`): resigning it, leaving
    the table to a bot, or, once it is over, a rematch."""

    id: str
    do: str


@dataclass(frozen=True)
class HandLog:
    """A hand's events as the asker saw them (hand 1 to 5, R3.1), and its summary."""

    id: str
    hand: int


@dataclass(frozen=True)
class Chat:
    """A line said at the table (``chat``)."""

    id: str
    text: str


@dataclass(frozen=True)
class Report:
    """A chat line (``message``: its id) reported to the organisers."""

    id: str
    message: int


@dataclass(frozen=True)
class Hint:
    """A hint asked for at the asker's own turn (``hints``)."""

    id: str


Request = Act | Resume | Ways | Ping | HandLog | Quit | Chat | Report | Hint


@dataclass(frozen=True)
class _Huge:
    """A number of more than :data:`MAX_DIGITS` digits, left unconverted: no field's type."""

    digits: str


def too_large(text_data: str | None, bytes_data: bytes | None) -> bool:
    """Whether the frame has more than :data:`MAX_FRAME_BYTES` bytes (its text as UTF-8)."""
    if text_data is None:
        return len(bytes_data or b"") > MAX_FRAME_BYTES
    # a character is 1 to 4 bytes: only a text of a length in between needs encoding
    return len(text_data) > MAX_FRAME_BYTES or (
        4 * len(text_data) > MAX_FRAME_BYTES
        and len(text_data.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES)


def read(text: str) -> Request:
    """The request in a text frame; ``FrameError`` when the frame is not one."""
    message = _loads(text)
    if not isinstance(message, dict):
        raise FrameError(_("A message must be a JSON object."))
    kind = _kind(message)
    client_id = valid_client_id(message.get("id")) if "id" in FIELDS[kind] else None
    try:
        return _request(kind, message)
    except FrameError as exc:
        exc.client_id = client_id
        raise


def _loads(text: str) -> Any:
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_whole,
                          object_pairs_hook=_no_repeats)
    except RecursionError:
        raise FrameError(_("This message nests too deeply to be read; a message is one "
                           "flat JSON object.")) from None
    except json.JSONDecodeError as exc:
        raise FrameError(_("This message is not JSON (at line %(line)s, column %(column)s); "
                           "a message is one JSON object.")
                         % {"line": exc.lineno, "column": exc.colno}) from None


def _no_constant(name: str) -> Any:
    raise FrameError(_("%(name)s is not JSON; a message's numbers are written in digits.")
                     % {"name": name})


def _whole(digits: str) -> int | _Huge:
    return _Huge(digits) if len(digits.lstrip("-")) > MAX_DIGITS else int(digits)


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise FrameError(_("The field %(field)s appears twice in this message.")
                             % {"field": _shown(key)}, _known(key))
        found[key] = value
    return found


def _kind(message: dict[str, Any]) -> str:
    kind = message.get("type")
    if not isinstance(kind, str):
        raise FrameError(_("A message needs \"type\", a string, one of %(types)s.")
                         % {"types": _types()}, "type")
    _clean(kind, "type")
    if kind not in FIELDS:
        raise FrameError(_("Unknown message type %(type)s; send one of %(types)s.")
                         % {"type": _shown(kind), "types": _types()}, "type")
    return kind


def _types() -> str:
    return ", ".join(json.dumps(kind) for kind in FIELDS)


def _request(kind: str, message: dict[str, Any]) -> Request:
    fields = FIELDS[kind]
    for key in message:
        if key not in fields:
            raise FrameError(_("A message of type \"%(type)s\" has no field %(field)s; its "
                               "fields are %(fields)s.")
                             % {"type": kind, "field": _shown(key), "fields": ", ".join(fields)})
    if kind == "act":
        return Act(_id(message), _string(message, "act", "action"))
    if kind == "resume":
        since = _number(message.get("since"), "since")
        if since is None:
            raise FrameError(_("A resume message needs \"since\", a whole number."), "since")
        return Resume(since)
    if kind == "ping":
        return _ping(message)
    if kind == "chat":
        client_id = _id(message)
        text = _string(message, "chat", "text").strip()
        if not text:
            raise FrameError(_("Write something to send: the chat message's \"text\" is "
                               "empty."), "text")
        if len(text) > MAX_CHAT_CHARS:
            raise FrameError(_("A chat message is at most %(max)s characters; this one has "
                               "%(count)s.") % {"max": MAX_CHAT_CHARS, "count": len(text)},
                             "text")
        return Chat(client_id, text)
    if kind == "report":
        client_id = _id(message)
        reported = _number(message.get("message"), "message")
        if reported is None:
            raise FrameError(_("A report message needs \"message\", a chat message's id (a "
                               "whole number)."), "message")
        return Report(client_id, reported)
    if kind in QUITS:
        return Quit(_id(message), kind)
    if kind == "hint":
        return Hint(_id(message))
    if kind == "hand_log":
        client_id = _id(message)
        hand = _number(message.get("hand"), "hand")
        if hand is None or not 1 <= hand <= HANDS_PER_GAME:
            raise FrameError(_("A hand_log message needs \"hand\", a hand's number from 1 "
                               "to %(hands)s (R3.1).") % {"hands": HANDS_PER_GAME}, "hand")
        return HandLog(client_id, hand)
    return Ways(_id(message), _cards(message.get("cards")), _meld(message.get("meld")))


def _ping(message: dict[str, Any]) -> Ping:
    hidden = message.get("hidden")
    if hidden is not None and not isinstance(hidden, bool):
        raise FrameError(_("A ping's \"hidden\" is true or false (whether the page is "
                           "hidden)."), "hidden")
    lag = _number(message.get("lag"), "lag")
    if "lag" in message and message["lag"] is not None and (
            lag is None or not 0 <= lag <= MAX_LAG_MS):
        raise FrameError(_("A ping's \"lag\" is the last round trip in milliseconds, a whole "
                           "number from 0 to %(max)s.") % {"max": MAX_LAG_MS}, "lag")
    return Ping(hidden, lag)


def _id(message: dict[str, Any]) -> str:
    client_id = _string(message, message["type"], "id")
    problem = client_id_problem(client_id)
    if problem:
        raise FrameError(problem, "id")
    return client_id


def _string(message: dict[str, Any], kind: str, field: str) -> str:
    if field not in message:
        raise FrameError(_("A message of type \"%(type)s\" needs the field \"%(field)s\".")
                         % {"type": kind, "field": field}, field)
    value = message[field]
    if not isinstance(value, str):
        raise FrameError(_("The field \"%(field)s\" must be a string.") % {"field": field},
                         field)
    return _clean(value, field)


def _cards(cards: Any) -> list[str]:
    if (not isinstance(cards, list) or not all(isinstance(c, str) for c in cards)
            or len(cards) > MAX_WAYS_CARDS):
        raise FrameError(_("A ways message needs \"cards\", a list of at most %(max)s card "
                           "codes.") % {"max": MAX_WAYS_CARDS}, "cards")
    for card in cards:
        _clean(card, "cards")
    return cards


def _meld(meld: Any) -> int | None:
    number = _number(meld, "meld")
    if meld is not None and number is None:
        raise FrameError(_("A ways message's \"meld\" is a meld id (a whole number) or "
                           "null."), "meld")
    return number


def _number(value: Any, field: str) -> int | None:
    """``value`` when it is a whole number (not ``true``/``false``); ``FrameError`` when it
    has too many digits; else ``None``."""
    if isinstance(value, _Huge):
        raise FrameError(_("The field \"%(field)s\" has more than %(digits)s digits; no "
                           "message needs so large a number.")
                         % {"field": field, "digits": MAX_DIGITS}, field)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _clean(text: str, field: str) -> str:
    if UNCLEAN.search(text):
        raise FrameError(_("The field \"%(field)s\" holds a NUL character or an unpaired "
                           "surrogate (\\u0000, \\ud800 to \\udfff); no message may.")
                         % {"field": field}, field)
    return text


def valid_client_id(value: Any) -> str | None:
    """``value`` when it is an id a client may send, to echo; else ``None``."""
    if not isinstance(value, str) or client_id_problem(value):
        return None
    return value


def _known(key: str) -> str | None:
    return key if any(key in fields for fields in FIELDS.values()) else None


def _shown(text: str) -> str:
    """A client's ``text`` quoted for an error: JSON-escaped (so NUL and surrogates show
    as ``\\u0000``, ``\\ud800``, never as themselves), cut at :data:`SHOWN`."""
    return json.dumps(text[:SHOWN]) + ("…" if len(text) > SHOWN else "")
