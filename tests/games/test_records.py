"""The push-record/1 document: actions in text and JSON, dump and load, malformed input."""

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import (
    MalformedRecordError,
    Record,
    action_to_json,
    load_record,
    parse_action,
    verify,
)
from tests.games.packs import out_at_once, record, stack

ACTIONS = [
    "0 take", "0 push", "0 discard 4C", "0 contract set(7H 7S JK=7) set(QS QD QD)",
    "1 meld run(4H 5H 6H) set(2C 2D JK=2)", "2 layoff 3 JK=8 9S", "2 layoff 0 2C=TS",
    "2 swap 0 7S JK", "3 swap 1 6H 2C",
]


@pytest.mark.parametrize("text", ACTIONS)
def test_actions_round_trip_through_text_and_json(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    data = action_to_json(action)
    loaded = load_record(record(3, [(stack(3, 1), [action])])).hands[0].actions[0]
    assert loaded == action and action_to_json(loaded) == data


def test_action_json_is_push_records_table() -> None:
    assert action_to_json(parse_action("0 take")) == {"seat": 0, "do": "take"}
    assert action_to_json(parse_action("1 push")) == {"seat": 1, "do": "push"}
    assert action_to_json(parse_action("2 discard 10C")) == {"seat": 2, "do": "discard",
                                                             "card": "TC"}
    assert action_to_json(parse_action("0 contract set(7H 7S JK=7) set(QS QD QD)")) == {
        "seat": 0, "do": "contract", "melds": [
            {"kind": "set", "cards": ["7H", "7S", "JK=7"]},
            {"kind": "set", "cards": ["QS", "QD", "QD"]}]}
    assert action_to_json(parse_action("3 meld run(4H 5H 2C=6H)")) == {
        "seat": 3, "do": "meld", "melds": [{"kind": "run", "cards": ["4H", "5H", "2C=6H"]}]}
    assert action_to_json(parse_action("2 layoff 3 JK=8 9S")) == {
        "seat": 2, "do": "layoff", "meld": 3, "cards": ["JK=8", "9S"]}
    assert action_to_json(parse_action("2 swap 0 7S JK")) == {
        "seat": 2, "do": "swap", "meld": 0, "card": "7S", "wild": "JK"}


def test_a_record_dumps_and_loads_to_the_same_record() -> None:
    hands = [out_at_once(h, (2 + h) % 4) for h in range(1, 6)]
    data = record(3, hands, players=["Ann", "Ben", "Cleo", "Dev"],
                  result={"hands": [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]], "totals": [20, 25]})
    loaded = load_record(json.dumps(data))

    assert isinstance(loaded, Record)
    assert loaded.to_json() == data
    assert load_record(loaded.dumps()) == loaded
    assert load_record(loaded.dumps(indent=1)) == loaded
    assert "\n" not in loaded.dumps() and loaded.dumps(indent=2).startswith('{\n  "')
    assert loaded.players == ("Ann", "Ben", "Cleo", "Dev")
    assert data["format"] == "push-record/1" and data["first_dealer"] == 3
    assert [len(h["deck"]) for h in data["hands"]] == [108] * 5


# -- malformed documents --------------------------------------------------------------------

def base() -> dict[str, Any]:
    """A record with every kind of action. Its shape is right; its play is not (an
    illegal action comes first), so only a shape error can make it malformed."""
    deck = stack(3, 1, hands={0: "7H 7S 7D QS QD QC"}, upcard="7C")
    hand2 = stack(0, 2)
    return record(3, [
        (deck, ["1 take", "0 push", "0 contract set(7H 7S 7D) set(QS QD QC)",
                "0 meld run(4H 5H 6H)", "0 layoff 1 JK=Q", "0 swap 0 7C JK", "0 discard 4C"]),
        (hand2, ["1 take"]),
    ], result={"hands": [[0, 60]], "totals": [0, 60]}, players=["A", "B", "C", "D"])


def test_the_base_record_is_well_formed_and_illegal() -> None:
    verdict = verify(base())
    assert verdict.status == "illegal" and verdict.error is not None
    assert (verdict.error.hand, verdict.error.action) == (1, 0)


def at(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """Set ``value`` at ``path`` (dots and [i]); ``...`` deletes the field."""
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.replace("[", ".").replace("]", "").split(".")
        node: Any = doc
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        key_: Any = int(last) if last.isdigit() else last
        if value is ...:
            del node[key_]
        else:
            node[key_] = value
    return change


def six_hands(doc: dict[str, Any]) -> None:
    doc["hands"] = [copy.deepcopy(doc["hands"][0]) for _ in range(6)]


def deck_change(fn: Callable[[list[str]], object]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        fn(doc["hands"][0]["deck"])
    return change


def duplicate(deck: list[str]) -> None:
    deck[30] = deck[31] if deck[31] != deck[30] else deck[32]


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], list[str]]] = [
    ("format missing", at("format", ...), ["'format'"]),
    ("format wrong", at("format", "push-record/2"), ["format"]),
    ("first_dealer missing", at("first_dealer", ...), ["'first_dealer'"]),
    ("first_dealer 4", at("first_dealer", 4), ["first_dealer"]),
    ("first_dealer -1", at("first_dealer", -1), ["first_dealer"]),
    ("first_dealer bool", at("first_dealer", True), ["first_dealer"]),
    ("first_dealer string", at("first_dealer", "0"), ["first_dealer"]),
    ("first_dealer float", at("first_dealer", 1.0), ["first_dealer"]),
    ("hands missing", at("hands", ...), ["'hands'"]),
    ("hands not a list", at("hands", {"deck": []}), ["hands"]),
    ("six hands", six_hands, ["hands", "at most 5 hands, got 6"]),
    ("hand not an object", at("hands[1]", []), ["hands[1]"]),
    ("deck missing", at("hands[0].deck", ...), ["hands[0]", "'deck'"]),
    ("actions missing", at("hands[1].actions", ...), ["hands[1]", "'actions'"]),
    ("actions not a list", at("hands[1].actions", "1 take"), ["hands[1].actions"]),
    ("107 cards", deck_change(lambda d: d.pop()), ["hands[0].deck", "107"]),
    ("109 cards", deck_change(lambda d: d.append("7H")), ["hands[0].deck", "109"]),
    ("a duplicated card", deck_change(duplicate), ["hands[0].deck"]),
    ("unknown card", at("hands[0].deck[5]", "ZZ"), ["hands[0].deck[5]"]),
    ("lower case card", at("hands[0].deck[6]", "7h"), ["hands[0].deck[6]"]),
    ("card as a number", at("hands[1].deck[0]", 7), ["hands[1].deck[0]"]),
    ("seat missing", at("hands[0].actions[0].seat", ...), ["hands[0].actions[0]", "'seat'"]),
    ("seat 4", at("hands[0].actions[2].seat", 4), ["hands[0].actions[2].seat"]),
    ("seat -1", at("hands[0].actions[2].seat", -1), ["hands[0].actions[2].seat"]),
    ("seat bool", at("hands[1].actions[0].seat", True), ["hands[1].actions[0].seat"]),
    ("seat string", at("hands[1].actions[0].seat", "1"), ["hands[1].actions[0].seat"]),
    ("seat null", at("hands[1].actions[0].seat", None), ["hands[1].actions[0].seat"]),
    ("do missing", at("hands[0].actions[1].do", ...), ["hands[0].actions[1]", "'do'"]),
    ("do unknown", at("hands[0].actions[1].do", "draw"), ["hands[0].actions[1].do"]),
    ("card missing", at("hands[0].actions[6].card", ...), ["hands[0].actions[6]", "'card'"]),
    ("discard unknown", at("hands[0].actions[6].card", "1C"), ["hands[0].actions[6].card"]),
    ("melds missing", at("hands[0].actions[2].melds", ...), ["hands[0].actions[2]", "'melds'"]),
    ("melds not a list", at("hands[0].actions[3].melds", "run(4H 5H 6H)"),
     ["hands[0].actions[3].melds"]),
    ("kind missing", at("hands[0].actions[2].melds[1].kind", ...),
     ["hands[0].actions[2].melds[1]", "'kind'"]),
    ("kind unknown", at("hands[0].actions[3].melds[0].kind", "pair"),
     ["hands[0].actions[3].melds[0].kind"]),
    ("cards missing", at("hands[0].actions[2].melds[0].cards", ...),
     ["hands[0].actions[2].melds[0]", "'cards'"]),
    ("JK=", at("hands[0].actions[2].melds[0].cards[1]", "JK="),
     ["hands[0].actions[2].melds[0].cards[1]"]),
    ("ZZ in a meld", at("hands[0].actions[2].melds[0].cards[0]", "ZZ"),
     ["hands[0].actions[2].melds[0].cards[0]"]),
    ("lower case in a meld", at("hands[0].actions[3].melds[0].cards[2]", "6h"),
     ["hands[0].actions[3].melds[0].cards[2]"]),
    ("lower case declaration", at("hands[0].actions[4].cards[0]", "JK=q"),
     ["hands[0].actions[4].cards[0]"]),
    ("meld card a number", at("hands[0].actions[4].cards[0]", 7), ["hands[0].actions[4].cards[0]"]),
    ("meld id missing", at("hands[0].actions[4].meld", ...), ["hands[0].actions[4]", "'meld'"]),
    ("meld id negative", at("hands[0].actions[4].meld", -1), ["hands[0].actions[4].meld"]),
    ("meld id bool", at("hands[0].actions[5].meld", False), ["hands[0].actions[5].meld"]),
    ("layoff cards missing", at("hands[0].actions[4].cards", ...),
     ["hands[0].actions[4]", "'cards'"]),
    ("wild missing", at("hands[0].actions[5].wild", ...), ["hands[0].actions[5]", "'wild'"]),
    ("wild unknown", at("hands[0].actions[5].wild", "JK=7"), ["hands[0].actions[5].wild"]),
    ("swap card missing", at("hands[0].actions[5].card", ...),
     ["hands[0].actions[5]", "'card'"]),
    ("players not four", at("players", ["A", "B"]), ["players"]),
    ("players not names", at("players", [1, 2, 3, 4]), ["players"]),
    ("result totals missing", at("result.totals", ...), ["result", "'totals'"]),
    ("result negative", at("result.hands[0]", [0, -5]), ["result.hands[0]"]),
    ("result bool", at("result.totals", [True, 60]), ["result.totals"]),
    ("result too many hands", at("result.hands", [[0, 0]] * 6), ["result.hands"]),
    # text PostgreSQL cannot store, anywhere in the document
    ("NUL in a player name", at("players[2]", "C\x00"), ["players[2]: contains a NUL"]),
    ("lone surrogate in a player name", at("players[1]", "B\ud800"),
     ["players[1]: contains a lone surrogate"]),
    ("NUL in an action", at("hands[0].actions[1].do", "push\x00"),
     ["hands[0].actions[1].do: contains a NUL"]),
    ("lone surrogate in a card", at("hands[0].deck[3]", "\udc007H"),
     ["hands[0].deck[3]: contains a lone surrogate"]),
    ("NUL in a field no reader looks at", at("note", "\x00"), ["note: contains a NUL"]),
    ("NUL in a key", at("hands[0].x\x00y", 1), ["hands[0]: a key contains a NUL"]),
    ("nested deeper than a record", at("note", [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]),
     ["note" + "[0]" * 15 + ": nested deeper than 16 levels"]),
]


@pytest.mark.parametrize(("what", "change", "names"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_record_says_what_and_where(
        what: str, change: Callable[[dict[str, Any]], None], names: list[str]) -> None:
    doc = base()
    change(doc)
    for source in (doc, json.dumps(doc)):
        verdict = verify(source)
        assert verdict.status == "malformed", what
        assert verdict.exit_code == 2
        assert verdict.reason is not None and verdict.error is None
        for name in names:
            assert name in verdict.reason, (what, verdict.reason)
        assert verdict.to_json()["error"] == {"reason": verdict.reason}


@pytest.mark.parametrize("text", ["", "{", "not json", "[1, 2", "{'format': 1}", "\x00"])
def test_text_that_is_not_json_is_malformed(text: str) -> None:
    verdict = verify(text)
    assert verdict.status == "malformed" and verdict.exit_code == 2
    assert verdict.reason is not None and "not JSON" in verdict.reason


@pytest.mark.parametrize("doc", [[], "a string", 7, None, True])
def test_a_document_that_is_not_an_object_is_malformed(doc: Any) -> None:
    verdict = verify(json.dumps(doc))
    assert verdict.status == "malformed" and "object" in (verdict.reason or "")


def test_deeply_nested_junk_is_malformed_not_a_crash() -> None:
    verdict = verify("[" * 100_000 + "]" * 100_000)
    assert verdict.status == "malformed"
    assert verdict.reason == "nested deeper than 16 levels"


def test_a_legal_record_nests_well_within_the_limit() -> None:
    doc = base()  # every kind of action, so the deepest path a record has
    doc["hands"][0]["actions"][2]["melds"][0]["cards"][0] = ["7H"]  # one level deeper
    verdict = verify(doc)
    assert verdict.status == "malformed"
    assert "hands[0].actions[2].melds[0].cards[0]" in (verdict.reason or "")
    assert "nested" not in (verdict.reason or "")  # the reader refused it, not the limit


def test_the_shape_is_checked_before_any_replay() -> None:
    doc = base()  # illegal at hand 1, action 0
    doc["hands"][1]["actions"][0]["do"] = "pass"
    verdict = verify(doc)
    assert verdict.status == "malformed" and "hands[1].actions[0].do" in (verdict.reason or "")


@pytest.mark.parametrize(("text", "says"), [
    ("0 discard", "unknown card code ''"),  # not a push, though it has no card
    *[(text, f"malformed action {text!r}") for text in (
        "0 layoff", "0 layoff 1", "0 swap 0 7S", "0 swap 0 7S JK 2C", "0 draw 0 7S JK",
        "0 take 1")],
])
def test_an_action_text_without_its_parts_is_malformed(text: str, says: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_action(text)
    assert str(err.value) == says


PAIR = "must be two scores [team0, team1], whole numbers from 0 up"


@pytest.mark.parametrize(("path", "value", "reason"), [
    ("hands", {"deck": []}, "hands: must be a list, got an object"),
    ("hands[1]", [], "hands[1]: must be a JSON object, got a list"),
    ("hands[1].actions", "1 take", "hands[1].actions: must be a list, got a string"),
    ("hands[1].actions", True, "hands[1].actions: must be a list, got a boolean"),
    ("hands[1].actions", None, "hands[1].actions: must be a list, got null"),
    ("hands[1].actions", 7, "hands[1].actions: must be a list, got a number"),
    ("hands[1].actions", 7.5, "hands[1].actions: must be a list, got a number"),
    ("players[1]", "B\ud800", "players[1]: contains a lone surrogate (half of a UTF-16 "
                              "pair), which is not text"),
    ("hands[0].actions[3].melds[0].kind", "pair",
     "hands[0].actions[3].melds[0].kind: must be 'set' or 'run', got 'pair'"),
    ("hands[0].actions[2].melds[0].cards", "4H 5H",
     "hands[0].actions[2].melds[0].cards: must be a list, got a string"),
    ("hands[0].actions[4].cards[0]", 7, "hands[0].actions[4].cards[0]: a card is a string"),
    ("hands[0].actions[2].melds[0].cards[0]", "ZZ",
     "hands[0].actions[2].melds[0].cards[0]: 'ZZ' is not a card: write 7H, TS, JK, or a wild "
     "with what it stands for, JK=7 or 2C=TS"),
    ("hands[0].actions[4].meld", -1,
     "hands[0].actions[4].meld: a meld id is a whole number from 0, got -1"),
    ("result", [], "result: must be a JSON object, got a list"),
    ("result.hands", "x", "result.hands: must be a list, got a string"),
    ("result.hands", [[0, 0]] * 6, "result.hands: a game has at most 5 hands"),
    ("result.hands[0]", [0, -5], f"result.hands[0]: {PAIR}"),
    ("result.hands[0]", [0, 0, 0], f"result.hands[0]: {PAIR}"),
    ("result.totals", [True, 60], f"result.totals: {PAIR}"),
    ("result.totals", 7, f"result.totals: {PAIR}"),
])
def test_a_malformed_record_names_the_kind_of_value_it_found(
        path: str, value: Any, reason: str) -> None:
    doc = base()
    at(path, value)(doc)
    verdict = verify(doc)
    assert verdict.status == "malformed" and verdict.reason == reason
    with pytest.raises(MalformedRecordError) as err:
        load_record(doc)
    where, _, message = reason.partition(": ")
    assert (err.value.where, err.value.message, str(err.value)) == (where, message, reason)


def test_spellings_beside_the_plain_ones_read_as_the_plain_ones() -> None:
    """The reader takes plain cards and draws and discards at once (a record holds over a
    thousand); every other spelling still reads as push-record.md allows: ``10`` for ``T``
    (R2.2), fields it does not know, names that are not ASCII."""
    doc = base()
    codes = list(doc["hands"][0]["deck"])
    doc["hands"][0]["deck"][codes.index("TS")] = "10S"
    doc["hands"][0]["actions"][6]["note"] = "a field no reader looks at"
    doc["players"] = ["Äinö", "Bea", "Cai", "Dev"]
    loaded = load_record(json.dumps(doc))
    assert [c.code for c in loaded.hands[0].deck] == codes
    assert [str(a) for a in loaded.hands[0].actions] == [
        "1 take", "0 push", "0 contract set(7H 7S 7D) set(QS QD QC)", "0 meld run(4H 5H 6H)",
        "0 layoff 1 JK=Q", "0 swap 0 7C JK", "0 discard 4C"]
    assert loaded.players == ("Äinö", "Bea", "Cai", "Dev")
    doc["hands"][0]["actions"][6]["card"] = "10C"
    assert load_record(doc).hands[0].actions[6] == parse_action("0 discard TC")
    doc["hands"][0]["actions"][1]["seat"] = 0.0  # a number, not a seat
    with pytest.raises(MalformedRecordError) as err:
        load_record(doc)
    assert err.value.where == "hands[0].actions[1].seat"


def test_a_malformed_document_as_a_whole_has_no_place() -> None:
    with pytest.raises(MalformedRecordError) as err:
        load_record([])  # type: ignore[arg-type]
    assert (err.value.where, err.value.message) == ("", "must be a JSON object, got a list")
    assert str(err.value) == "must be a JSON object, got a list"
