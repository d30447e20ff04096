"""Seats, turn order and the parts of a turn (R1.2, R6)."""

import pytest

from games.engine import Card, HandState, IllegalActionError, penalty
from tests.games.packs import cards, deal, play

HANDS = {0: "3C 4C 5C 9D TD KC", 1: "3D 4D 5D 9H TH KD", 2: "3S 4S 5S 9C TC KS",
         3: "3H 4H 5H 9S TS KH"}


def start(seat0: str = HANDS[0]) -> HandState:
    """Hand 1, dealer 3: seat 0 (holding ``seat0``) moves first; the upcard is 8C and the
    stock starts 6H 6D 6S 6C."""
    return deal(1, 3, hands={**HANDS, 0: seat0}, upcard="8C", stock="6H 6D 6S 6C 8H 8D 8S")


def illegal(state: HandState, action: str) -> str:
    """The rule ``action`` breaks; the state must be left as it was."""
    before = ([list(h) for h in state.hands], list(state.stock), list(state.discard),
              state.seat, state.phase, list(state.melds))
    with pytest.raises(IllegalActionError) as err:
        play(state, action)
    assert (state.hands, state.stock, state.discard, state.seat, state.phase,
            state.melds) == before
    return err.value.rule


def test_r1_2_a_push_goes_to_the_left_seat_plus_one_not_minus_one() -> None:
    state = play(start(), "0 push")

    assert state.hands[1] == cards("3D 4D 5D 9H TH KD 6H 8C")
    assert state.hands[3] == cards(HANDS[3])  # (0 - 1) % 4 gets nothing
    assert state.hands[0] == cards("3C 4C 5C 9D TD KC 6D")


def test_r1_2_r6_1_play_goes_clockwise_from_the_dealers_left() -> None:
    state = start()
    assert state.seat == 0
    for seat in (0, 1, 2, 3, 0):
        assert illegal(state, f"{(seat - 1) % 4} take") == "R6.1"
        play(state, f"{seat} take", f"{seat} discard {state.hands[seat][0]}")
    assert state.seat == 1


@pytest.mark.parametrize("action", ["1 take", "3 push", "2 discard 3S", "1 push"])
def test_r6_1_only_the_seat_to_move_may_act(action: str) -> None:
    assert illegal(start(), action) == "R6.1"


def test_r6_1_a_seat_outside_the_table_never_has_the_turn() -> None:
    assert illegal(start(), "4 take") == "R6.1"


def test_r6_2_a_turn_is_a_draw_then_a_discard_and_then_the_next_seat_draws() -> None:
    state = start("7H 7S 7D QS QD 3C")
    play(state, "0 push", "0 discard 3C")
    play(state, "1 take")
    assert state.phase == "play" and state.seat == 1
    play(state, "1 discard 3D")
    assert state.phase == "draw" and state.seat == 2


@pytest.mark.parametrize("action", ["0 discard 3C", "0 contract set(3C 4C 5C) set(9D TD KC)",
                                    "0 layoff 0 3C", "0 swap 0 3C JK", "0 meld set(3C 3D 3H)"])
def test_r6_2_nothing_comes_before_the_draw(action: str) -> None:
    assert illegal(start(), action) == "R6.2"


@pytest.mark.parametrize("second", ["0 take", "0 push"])
@pytest.mark.parametrize("first", ["0 take", "0 push"])
def test_r6_2_a_turn_has_exactly_one_draw(first: str, second: str) -> None:
    state = play(start(), first)
    assert illegal(state, second) == "R6.2"


def test_r6_3_take_moves_the_top_discard_into_the_hand() -> None:
    state = play(start(), "0 take")

    assert state.hands[0][-1] is Card.parse("8C")
    assert state.discard == []
    assert len(state.stock) == 83
    assert [len(h) for h in state.hands] == [7, 6, 6, 6]


def test_r6_3_push_gives_stock_and_discard_tops_to_the_left_and_the_pusher_the_next() -> None:
    state = play(start(), "0 push")

    assert state.hands[1][-2:] == cards("6H 8C")
    assert state.hands[0][-1] is Card.parse("6D")  # not 6H: that went left
    assert Card.parse("6H") not in state.hands[0]
    assert state.discard == []
    assert len(state.stock) == 81
    assert state.stock[-1] is Card.parse("6S")
    assert [len(h) for h in state.hands] == [7, 8, 6, 6]


def test_r6_3_the_pushed_cards_are_the_receivers_to_keep() -> None:
    state = play(start(), "0 push", "0 discard 3C", "1 take", "1 discard 6H")

    assert state.discard == cards("6H")
    assert Card.parse("8C") in state.hands[1]


def exhaust(state: HandState) -> HandState:
    """Everybody pushes and discards their oldest card until the stock holds one card."""
    while len(state.stock) >= 2:
        seat = state.seat
        play(state, f"{seat} push", f"{seat} discard {state.hands[seat][0]}")
    return state


def test_r6_4_a_push_on_a_stock_of_one_ends_the_hand_and_both_teams_score() -> None:
    state = exhaust(start())
    assert len(state.stock) == 1 and state.outcome is None
    hands = [list(h) for h in state.hands]
    seat = state.seat

    play(state, f"{seat} push")

    assert state.outcome is not None
    assert state.outcome.ended_by == "stock" and state.outcome.out_seat is None
    assert state.outcome.scores == (penalty(hands[0] + hands[2]), penalty(hands[1] + hands[3]))
    assert min(state.outcome.scores) > 0
    assert state.hands == hands  # nothing moved
    assert illegal(state, f"{(seat + 1) % 4} take") == "R8.2"
    # the push that ended it is the hand's last action, seat and all, with no card moved
    assert str(state.history[-1].action) == f"{seat} push"
    assert (state.history[-1].card, state.history[-1].private) == (None, None)


def test_r6_4_the_push_before_it_on_a_stock_of_three_is_an_ordinary_push() -> None:
    state = start()
    while len(state.stock) > 3:
        seat = state.seat
        play(state, f"{seat} push", f"{seat} discard {state.hands[seat][0]}")
    seat = state.seat
    play(state, f"{seat} push")
    assert state.outcome is None and len(state.stock) == 1 and state.phase == "play"


def made(stock: str) -> HandState:
    """A hand in play with a chosen stock (a stock of 0 or 2 can't follow from a deal:
    108 - 4n - 1 is odd and a push takes two)."""
    return HandState(1, 3, [cards(HANDS[s]) for s in range(4)], cards(stock), cards("8C"),
                     seat=0)


def test_r6_4_a_push_on_an_empty_stock_ends_the_hand_and_both_teams_score() -> None:
    state = play(made(""), "0 push")

    assert state.outcome is not None and state.outcome.ended_by == "stock"
    assert state.outcome.scores == (penalty(cards(HANDS[0] + " " + HANDS[2])),
                                     penalty(cards(HANDS[1] + " " + HANDS[3])))


def test_r6_4_a_push_on_a_stock_of_two_is_allowed() -> None:
    state = play(made("6D 6H"), "0 push")  # 6H on top

    assert state.outcome is None
    assert state.stock == []
    assert state.hands[1][-2:] == cards("6H 8C") and state.hands[0][-1] is Card.parse("6D")


def test_r6_5_a_card_taken_from_the_pile_cannot_be_discarded_that_turn() -> None:
    state = play(start(), "0 take")

    assert illegal(state, "0 discard 8C") == "R6.5"
    play(state, "0 discard 3C")  # any other card is fine


def test_r6_5_unless_the_player_already_held_another_copy() -> None:
    state = play(start("8C 4C 5C 9D TD KC"), "0 take", "0 discard 8C")

    assert state.discard == cards("8C") and state.hands[0].count(Card.parse("8C")) == 1


def test_r6_5_the_taken_card_may_be_discarded_on_a_later_turn() -> None:
    state = play(start(), "0 take", "0 discard 3C")
    for seat in (1, 2, 3):
        play(state, f"{seat} push", f"{seat} discard {state.hands[seat][0]}")
    play(state, "0 push", "0 discard 8C")
    assert state.discard[-1] is Card.parse("8C")


def test_r6_5_does_not_apply_to_the_card_a_push_draws() -> None:
    state = play(start(), "0 push", "0 discard 6D")
    assert state.discard == cards("6D")


def test_r6_6_the_discard_is_one_card_from_the_hand() -> None:
    state = play(start(), "0 push")
    assert illegal(state, "0 discard 7H") == "R6.6"
    assert illegal(state, "0 discard 6H") == "R6.6"  # pushed to the left, not ours
    play(state, "0 discard 9D")
    assert state.discard == cards("9D") and len(state.hands[0]) == 6


def test_r6_6_wilds_may_be_discarded() -> None:
    state = play(start("JK 2C 5C 9D TD KC"), "0 push", "0 discard JK")
    play(state, "1 push", "1 discard 3D", "2 take", "2 discard 3S", "3 push", "3 discard 3H")
    play(state, "0 push", "0 discard 2C")
    assert state.discard[-1] is Card.parse("2C")


def test_r6_2_a_refusal_outside_a_replay_is_the_rule_and_why_and_no_place() -> None:
    state = play(start(), "0 push")
    with pytest.raises(IllegalActionError) as err:
        play(state, "0 take")
    assert (err.value.hand, err.value.action) == (None, None)
    assert str(err.value) == "R6.2: a turn has exactly one draw, at its start"
    assert str(err.value.at(1, 1)) == ("hand 1, action 1: R6.2: a turn has exactly one "
                                       "draw, at its start")


def test_r6_5_r6_6_a_refused_discard_names_the_card() -> None:
    state = play(start(), "0 take")
    with pytest.raises(IllegalActionError) as err:
        play(state, "0 discard 8C")
    assert str(err.value) == ("R6.5: 8C was taken from the discard pile this turn and may "
                              "not be discarded")
    with pytest.raises(IllegalActionError) as err:
        play(state, "0 discard 7H")
    assert str(err.value) == "R6.6: 7H is not in seat 0's hand"


def test_r6_5_a_discard_ends_what_the_turn_took() -> None:
    state = play(start(), "0 take", "0 discard 3C")
    assert state.taken is None and state.observation(0).taken is None


def test_a_refusals_message_is_handed_to_a_translator_as_the_engine_wrote_it() -> None:
    state = play(start(), "0 push")
    with pytest.raises(IllegalActionError) as err:
        play(state, "0 take")
    assert err.value.translated(str.upper) == "A TURN HAS EXACTLY ONE DRAW, AT ITS START"
