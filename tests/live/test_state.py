"""What each seat sees of a live game (pure: no database)."""

import pytest

from games.engine import parse_action
from games.live.state import events_since, move_of, recent_events, replay, seat_view, spectator_view

from .conftest import FIRST, SEED


def test_a_pushed_stock_card_shows_only_to_its_receiver() -> None:
    """R6.3: the discard passed on is public; the stock card only for the seat on the
    pusher's left."""
    log = [f"{FIRST} push"]
    receiver = (FIRST + 1) % 4
    seen = {seat: events_since(SEED, log, 0, seat)[0][0] for seat in (0, 1, 2, 3, None)}
    assert "private" in seen[receiver]
    assert seen[receiver]["private"] in seat_view(replay(SEED, log), receiver)["hand"]
    for seat, event in seen.items():
        assert event["card"] == seen[receiver]["card"] and event["action"] == log[0]
        assert seat == receiver or "private" not in event


def test_events_since_skip_what_the_seat_has() -> None:
    log = [f"{FIRST} take"]
    assert events_since(SEED, log, 1, FIRST)[0] == []
    assert [e["seq"] for e in events_since(SEED, log, 0, FIRST)[0]] == [1]


def test_a_spectator_sees_no_hand_and_no_legal_actions() -> None:
    live = replay(SEED, [])
    view = spectator_view(live)
    assert not {"hand", "taken", "pending", "legal", "moves"} & set(view)
    assert view["hand_sizes"] == seat_view(live, FIRST)["hand_sizes"]


@pytest.mark.parametrize(("text", "move"), [
    ("0 take", {"do": "take", "seat": 0}),
    ("1 push", {"do": "push", "seat": 1}),
    ("2 discard TS", {"do": "discard", "seat": 2, "card": "TS"}),
    ("0 contract set(7H 7S JK=7) set(QS QD QD)", {"do": "contract", "seat": 0, "melds": [
        {"kind": "set", "cards": ["7H", "7S", "JK=7"]},
        {"kind": "set", "cards": ["QS", "QD", "QD"]}]}),
    ("3 meld run(2H=3D 4D 2D=5D)", {"do": "meld", "seat": 3, "melds": [
        {"kind": "run", "cards": ["2H=3D", "4D", "2D=5D"]}]}),
    ("2 layoff 3 JK=8 9S", {"do": "layoff", "seat": 2, "meld": 3, "cards": ["JK=8", "9S"]}),
    ("2 swap 0 7S JK", {"do": "swap", "seat": 2, "meld": 0, "card": "7S", "wild": "JK"}),
])
def test_a_move_is_the_engine_action_in_structured_form_with_its_text(
        text: str, move: dict[str, object]) -> None:
    """What a page reads instead of parsing the text: every kind of action, its cards as
    codes and its meld ids as numbers; its ``text`` is the action the engine reads back."""
    found = move_of(parse_action(text))
    assert found == {**move, "text": text}
    assert str(parse_action(found["text"])) == text


def test_a_seat_view_has_its_legal_moves_beside_their_text() -> None:
    live = replay(SEED, [])
    view = seat_view(live, FIRST)
    assert [m["text"] for m in view["moves"]] == view["legal"] == [f"{FIRST} take", f"{FIRST} push"]
    assert [m["do"] for m in view["moves"]] == ["take", "push"]
    other = seat_view(live, (FIRST + 1) % 4)
    assert other["legal"] == other["moves"] == []  # not its turn


def test_every_event_carries_its_move() -> None:
    """Events as :func:`events_since` replays them and as :func:`recent_events` reads them
    from the game in play: the same moves, each the engine's form of the logged action."""
    log = [f"{FIRST} take"]
    live = replay(SEED, log)
    discard = next(m for m in seat_view(live, FIRST)["moves"] if m["do"] == "discard")
    log.append(discard["text"])
    events = events_since(SEED, log, 0, None)[0]
    assert [e["move"] for e in events] == [move_of(parse_action(a)) for a in log]
    assert events[1]["move"]["card"] == discard["card"]
    assert recent_events(replay(SEED, log), 2, 0, None) == events
