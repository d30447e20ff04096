"""What each seat sees of a live game (pure: no database)."""

from games.live.state import events_since, replay, seat_view, spectator_view

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
    assert not {"hand", "taken", "pending", "legal"} & set(view)
    assert view["hand_sizes"] == seat_view(live, FIRST)["hand_sizes"]
