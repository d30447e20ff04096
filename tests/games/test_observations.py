"""What a seat may see: its own hand, the table and the public history (R6.3)."""

import dataclasses
from collections.abc import Iterator
from typing import Any

from games.engine import Card, HandState, Observation
from tests.games.packs import cards, deal, play

QH, KS = Card.parse("QH"), Card.parse("KS")


def cards_in(value: Any) -> Iterator[Card]:
    """Every card reachable from an observation, however deeply nested."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_in(item)


def start() -> HandState:
    """Hand 1, dealer 3. Seat 2 holds both KS; the stock's top is one QH, the other QH
    lies deep in the stock."""
    return deal(1, 3, hands={0: "3C 4C 5C 9D TD KC", 1: "3D 4D 5D 9H TH KD",
                             2: "KS KS 5S 9C TC 3S", 3: "3H 4H 5H 9S TS KH"},
                upcard="8C", stock="QH 6D 6S 6C")


def test_a_seat_sees_its_own_hand_and_nobody_elses() -> None:
    state = start()
    for seat in range(4):
        obs = state.observation(seat)
        assert isinstance(obs, Observation) and obs.seat == seat
        assert list(obs.hand) == state.hands[seat]
        assert obs.hand_sizes == (6, 6, 6, 6) and obs.stock_size == 83
    assert KS in set(cards_in(state.observation(2)))
    for seat in (0, 1, 3):
        assert KS not in set(cards_in(state.observation(seat)))


def test_the_pushed_stock_card_is_seen_only_by_the_seat_on_the_pushers_left() -> None:
    state = play(start(), "0 push")
    receiver = state.observation(1)
    event = receiver.history[-1]

    assert (str(event.action), event.card, event.private) == ("0 push", cards("8C")[0], QH)
    assert QH in receiver.hand
    for seat in (0, 2, 3):  # the pusher and the others, (0 - 1) % 4 included
        obs = state.observation(seat)
        assert obs.history[-1].private is None
        assert obs.history[-1].card is cards("8C")[0]  # the pushed discard was public
        assert QH not in set(cards_in(obs)), seat
    assert state.history[-1].private is QH  # the full history keeps it


def test_the_pushed_card_stays_hidden_as_play_goes_on() -> None:
    state = play(start(), "0 push", "0 discard 3C", "1 take", "1 discard 3D", "2 take",
                 "2 discard 3S")
    assert QH in set(cards_in(state.observation(1)))
    for seat in (0, 2, 3):
        assert QH not in set(cards_in(state.observation(seat)))


def test_what_was_taken_this_turn_is_the_movers_own_business() -> None:
    state = play(start(), "0 take")
    assert state.observation(0).taken is cards("8C")[0]
    assert all(state.observation(s).taken is None for s in (1, 2, 3))
    assert state.observation(1).history[-1].card is cards("8C")[0]  # the take itself is public
