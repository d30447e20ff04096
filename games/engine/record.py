"""The ``push-record/1`` game record (push-record.md): load with shape checks, dump.

:func:`load_record` checks the whole document's shape before anything is
replayed and raises :class:`MalformedRecordError` naming the place
(``hands[1].actions[4].card``) and what is wrong there.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import (
    DISCARDS,
    DO_NAMES,
    PUSHES,
    TAKES,
    Action,
    Discard,
    LayContract,
    LayMelds,
    LayOff,
    Push,
    Swap,
    Take,
    action_to_json,
)
from .cards import Card, card_of, is_full_pack
from .errors import MalformedRecordError
from .melds import MeldSpec, Placed
from .state import HANDS_PER_GAME

FORMAT = "push-record/1"
# A legal record nests 8 deep (hands[0].actions[0].melds[0].cards); deeper is refused
# before anything walks it, so no reader can run out of stack.
MAX_DEPTH = 16
#: The deepest limit :func:`check_json` checks by recursion first (see ``_storable``).
QUICK_DEPTH = 64


@dataclass(frozen=True, slots=True)
class HandRecord:
    deck: tuple[Card, ...]
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class ClaimedResult:
    hands: tuple[tuple[int, int], ...]
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Record:
    first_dealer: int
    hands: tuple[HandRecord, ...]
    players: tuple[str, ...] | None = None
    result: ClaimedResult | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT}
        if self.players is not None:
            data["players"] = list(self.players)
        data["first_dealer"] = self.first_dealer
        data["hands"] = [
            {"deck": [c.code for c in h.deck], "actions": [action_to_json(a) for a in h.actions]}
            for h in self.hands
        ]
        if self.result is not None:
            data["result"] = {"hands": [list(s) for s in self.result.hands],
                              "totals": list(self.result.totals)}
        return data

    def dumps(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_json(), indent=indent)


def load_record(source: str | bytes | Any) -> Record:
    """Parse and shape-check a record given as JSON text or as already-decoded JSON."""
    if isinstance(source, str | bytes):
        try:
            data = json.loads(source)
        except RecursionError:
            raise MalformedRecordError("", f"nested deeper than {MAX_DEPTH} levels") from None
        except ValueError as exc:
            raise MalformedRecordError("", f"not JSON: {exc}") from None
    else:
        data = source
    check_json(data, MAX_DEPTH)
    return _Reader().record(data)


def check_json(data: Any, max_depth: int, where: str = "") -> None:
    """Refuse decoded JSON that nests deeper than ``max_depth`` or holds a string (a value
    or a key) that is not storable text: a NUL character or a lone surrogate (JSON's
    ``\\u0000`` and ``\\ud800`` escapes decode to them; PostgreSQL stores neither).

    Raises :class:`MalformedRecordError` at the first such place, in document order. It
    walks with a stack of its own, not recursion, so any depth is safe to check.
    """
    if max_depth <= QUICK_DEPTH and _storable(data, 1, max_depth):
        return  # nothing to refuse: the paths below are built only to say where
    stack: list[tuple[Any, str, int]] = [(data, where, 1)]
    while stack:
        value, path, depth = stack.pop()
        # Nearly every string of a record (card codes, field names) is ASCII without a NUL,
        # storable as it is; that is quicker to see than all that _check_text looks for.
        if isinstance(value, str):
            if not value.isascii() or "\x00" in value:
                _check_text(value, path, "")
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > max_depth:
            raise MalformedRecordError(path, f"nested deeper than {max_depth} levels")
        children: list[tuple[Any, str, int]] = []
        if isinstance(value, dict):
            for key, item in value.items():
                name = str(key)
                if not name.isascii() or "\x00" in name:
                    _check_text(name, path, "a key ")
                children.append((item, f"{path}.{key}" if path else key, depth + 1))
        else:
            children = [(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value)]
        stack.extend(reversed(children))


def _storable(value: Any, depth: int, max_depth: int) -> bool:
    """Whether :func:`check_json` passes ``value`` found at ``depth``, without the paths it
    names a refusal by (a record holds thousands of values, and nearly every one is
    stored). It recurses only into what is at most ``max_depth`` deep."""
    if isinstance(value, str):
        return value.isascii() and "\x00" not in value or _is_text(value)
    if isinstance(value, list):
        if depth > max_depth:
            return False
        for item in value:
            if not _storable(item, depth + 1, max_depth):
                return False
    elif isinstance(value, dict):
        if depth > max_depth:
            return False
        for key, item in value.items():
            name = str(key)
            if not (name.isascii() and "\x00" not in name or _is_text(name)):
                return False
            if not _storable(item, depth + 1, max_depth):
                return False
    return True


def _is_text(text: str) -> bool:
    """Whether ``text`` can be stored: no NUL, no lone surrogate."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_text(text: str, path: str, what: str) -> None:
    if "\x00" in text:
        raise MalformedRecordError(path, f"{what}contains a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedRecordError(path, f"{what}contains a lone surrogate (half of a "
                                         "UTF-16 pair), which is not text") from None


class _Reader:
    """Shape checks; each method takes the value and its path in the document."""

    def record(self, data: Any) -> Record:
        self.obj(data, "")
        fmt = self.field(data, "format", "")
        if fmt != FORMAT:
            raise MalformedRecordError("format", f"must be {FORMAT!r}, got {fmt!r}")
        players = None
        if "players" in data:
            names = self.array(data["players"], "players")
            if len(names) != 4 or not all(isinstance(n, str) for n in names):
                raise MalformedRecordError("players", "must be four display names (strings)")
            players = tuple(names)
        first_dealer = self.seat(self.field(data, "first_dealer", ""), "first_dealer")
        hands = self.array(self.field(data, "hands", ""), "hands")
        if len(hands) > HANDS_PER_GAME:
            raise MalformedRecordError("hands", f"a game has at most {HANDS_PER_GAME} hands, "
                                                f"got {len(hands)}")
        result = self.result(data["result"], "result") if "result" in data else None
        return Record(first_dealer, tuple(self.hand(h, f"hands[{i}]") for i, h in
                                          enumerate(hands)), players, result)

    def hand(self, data: Any, path: str) -> HandRecord:
        self.obj(data, path)
        deck_data = self.array(self.field(data, "deck", path), f"{path}.deck")
        # each card and action is read without its path first (a record holds over a
        # thousand), and again with it only when it is not a plain one (see _plain_action)
        deck = tuple([card_of(code) or self.card(code, f"{path}.deck[{i}]")
                      for i, code in enumerate(deck_data)])
        if not is_full_pack(deck):
            self.check_pack(deck, f"{path}.deck")
        actions = self.array(self.field(data, "actions", path), f"{path}.actions")
        return HandRecord(deck, tuple([_plain_action(a) or self.action(a, f"{path}.actions[{i}]")
                                       for i, a in enumerate(actions)]))

    @staticmethod
    def check_pack(deck: Sequence[Card], path: str) -> None:
        if len(deck) != 108:
            raise MalformedRecordError(path, f"a pack is 108 cards (R2.1), this one has "
                                             f"{len(deck)}")
        counts = Counter(c.code for c in deck)
        for code, n in sorted(counts.items()):
            want = 4 if code == "JK" else 2
            if n != want:
                raise MalformedRecordError(
                    path, f"{code} appears {n} times; a pack holds every card twice and "
                          "four jokers (R2.1)")

    def action(self, data: Any, path: str) -> Action:
        self.obj(data, path)
        seat = self.seat(self.field(data, "seat", path), f"{path}.seat")
        do = self.field(data, "do", path)
        if do not in DO_NAMES.values():
            raise MalformedRecordError(f"{path}.do", f"unknown action {do!r}; expected one of "
                                                     f"{', '.join(DO_NAMES.values())}")
        if do == "take":
            return Take(seat)
        if do == "push":
            return Push(seat)
        if do == "discard":
            return Discard(seat, self.card(self.field(data, "card", path), f"{path}.card"))
        if do in ("contract", "meld"):
            melds_data = self.array(self.field(data, "melds", path), f"{path}.melds")
            melds = tuple(self.meld(m, f"{path}.melds[{i}]") for i, m in enumerate(melds_data))
            return LayContract(seat, melds) if do == "contract" else LayMelds(seat, melds)
        meld_id = self.meld_id(self.field(data, "meld", path), f"{path}.meld")
        if do == "layoff":
            return LayOff(seat, meld_id, self.placed_list(data, path))
        return Swap(seat, meld_id, self.card(self.field(data, "card", path), f"{path}.card"),
                    self.card(self.field(data, "wild", path), f"{path}.wild"))

    def meld(self, data: Any, path: str) -> MeldSpec:
        self.obj(data, path)
        kind = self.field(data, "kind", path)
        if kind not in ("set", "run"):
            raise MalformedRecordError(f"{path}.kind", f"must be 'set' or 'run', got {kind!r}")
        return MeldSpec(kind, self.placed_list(data, path))

    def placed_list(self, data: dict[str, Any], path: str) -> tuple[Placed, ...]:
        cards = self.array(self.field(data, "cards", path), f"{path}.cards")
        placed = []
        for i, text in enumerate(cards):
            if not isinstance(text, str):
                raise MalformedRecordError(f"{path}.cards[{i}]", "a card is a string")
            try:
                placed.append(Placed.parse(text))
            except ValueError:
                raise MalformedRecordError(
                    f"{path}.cards[{i}]", f"{text!r} is not a card: write 7H, TS, JK, or a "
                                          "wild with what it stands for, JK=7 or 2C=TS") from None
        return tuple(placed)

    def result(self, data: Any, path: str) -> ClaimedResult:
        self.obj(data, path)
        hands = self.array(self.field(data, "hands", path), f"{path}.hands")
        if len(hands) > HANDS_PER_GAME:
            raise MalformedRecordError(f"{path}.hands",
                                       f"a game has at most {HANDS_PER_GAME} hands")
        pairs = tuple(self.pair(h, f"{path}.hands[{i}]") for i, h in enumerate(hands))
        return ClaimedResult(pairs, self.pair(self.field(data, "totals", path), f"{path}.totals"))

    def pair(self, data: Any, path: str) -> tuple[int, int]:
        if (not isinstance(data, list) or len(data) != 2
                or not all(self.is_int(v) and v >= 0 for v in data)):
            raise MalformedRecordError(path, "must be two scores [team0, team1], whole numbers "
                                             "from 0 up")
        return (data[0], data[1])

    # -- small checks ----------------------------------------------------------

    @staticmethod
    def is_int(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    @staticmethod
    def obj(data: Any, path: str) -> None:
        if not isinstance(data, dict):
            raise MalformedRecordError(path, f"must be a JSON object, got {_kind(data)}")

    @staticmethod
    def array(data: Any, path: str) -> list[Any]:
        if not isinstance(data, list):
            raise MalformedRecordError(path, f"must be a list, got {_kind(data)}")
        return data

    @staticmethod
    def field(data: dict[str, Any], name: str, path: str) -> Any:
        if name not in data:
            raise MalformedRecordError(path, f"missing field {name!r}")
        return data[name]

    def seat(self, value: Any, path: str) -> int:
        if not self.is_int(value) or not 0 <= value <= 3:
            raise MalformedRecordError(path, f"a seat is 0, 1, 2 or 3 (R1.1), got {value!r}")
        return int(value)

    def meld_id(self, value: Any, path: str) -> int:
        if not self.is_int(value) or value < 0:
            raise MalformedRecordError(path, f"a meld id is a whole number from 0, got {value!r}")
        return int(value)

    @staticmethod
    def card(value: Any, path: str) -> Card:
        try:
            if isinstance(value, str):
                return Card.parse(value)
        except ValueError:
            pass
        raise MalformedRecordError(path, f"{value!r} is not a card code (7H, TS, AC, JK; R2.2)")


def _plain_action(data: Any) -> Action | None:
    """A take, push or discard as a record writes it (the shared action, as the legal
    actions list it), or None for anything else, for :meth:`_Reader.action` to read or to
    refuse saying where."""
    if type(data) is not dict:
        return None
    seat = data.get("seat")
    if type(seat) is not int or not 0 <= seat <= 3:
        return None
    do = data.get("do")
    if do == "discard":
        card = card_of(data.get("card"))
        return None if card is None else DISCARDS[seat][card.index]
    if do == "take":
        return TAKES[seat]
    return PUSHES[seat] if do == "push" else None


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")
