"""A game of five hands and the deal (R3, R4)."""

import pytest

from games.engine import (
    Card,
    GameState,
    HandState,
    IllegalActionError,
    dealer_of,
    full_pack,
    hand_size,
    parse_action,
)
from tests.games.packs import cards, deal, out_at_once, play, stack


@pytest.mark.parametrize("hand_no", [1, 2, 3, 4, 5])
def test_r3_1_hand_h_deals_5_plus_h_cards_to_each_player(hand_no: int) -> None:
    state = HandState.deal(hand_no, 0, full_pack())

    assert hand_size(hand_no) == 5 + hand_no
    assert [len(h) for h in state.hands] == [5 + hand_no] * 4
    assert len(state.discard) == 1
    assert len(state.stock) == 108 - 4 * (5 + hand_no) - 1


def test_r3_1_a_game_is_five_hands_and_a_sixth_deal_is_illegal() -> None:
    game = GameState(first_dealer=3)
    for hand_no in range(1, 6):
        deck, actions = out_at_once(hand_no, dealer_of(3, hand_no))
        game.deal(deck)
        assert game.hand.hand_no == hand_no
        for action in actions:
            game.apply(parse_action(action))
    assert game.is_over
    assert [r.out_seat for r in game.results] == [0, 1, 2, 3, 0]

    with pytest.raises(IllegalActionError) as err:
        game.deal(full_pack())
    assert err.value.rule == "R3.1"


def test_r3_3_the_deal_passes_to_the_left() -> None:
    assert [dealer_of(3, h) for h in range(1, 6)] == [3, 0, 1, 2, 3]
    assert [dealer_of(0, h) for h in range(1, 6)] == [0, 1, 2, 3, 0]
    # not to the right
    assert dealer_of(2, 2) == 3 and dealer_of(2, 2) != 1


def test_r3_3_hand_two_is_dealt_by_the_next_seat_and_opened_by_the_one_after() -> None:
    game = GameState(first_dealer=1)
    deck, actions = out_at_once(1, 1)
    game.deal(deck)
    assert (game.hand.dealer, game.to_move) == (1, 2)
    for action in actions:
        game.apply(parse_action(action))
    assert game.results[0].out_seat == 2

    game.deal(stack(2, 2))
    assert (game.hand.dealer, game.to_move) == (2, 3)
    with pytest.raises(IllegalActionError) as err:
        game.apply(parse_action("2 take"))  # the seat that opened hand 1
    assert err.value.rule == "R6.1"
    game.apply(parse_action("3 take"))


def test_r4_1_r4_2_deck_zero_is_dealt_first_to_the_dealers_left() -> None:
    deck = stack(3, 1)
    state = HandState.deal(1, 3, deck)

    assert state.hands[0][0] is deck[0]  # seat (3 + 1) % 4
    assert state.hands[2][0] is not deck[0]  # not the dealer's right
    for i in range(24):
        assert deck[i] in state.hands[(3 + 1 + i) % 4]


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
@pytest.mark.parametrize("hand_no", [1, 5])
def test_r4_2_cards_go_round_one_at_a_time_clockwise(dealer: int, hand_no: int) -> None:
    n = hand_size(hand_no)
    deck = stack(dealer, hand_no)
    state = HandState.deal(hand_no, dealer, deck)

    for seat in range(4):
        first = (seat - dealer - 1) % 4
        assert state.hands[seat] == [deck[i] for i in range(first, 4 * n, 4)]
    assert state.seat == (dealer + 1) % 4


def test_r4_2_a_stacked_pack_deals_the_named_hands() -> None:
    hands = {0: "7H 7S 7D QS QD QC", 1: "AS KS 9H 8H 3C 3D", 2: "JK 2C 5S 6S 7C 8D",
             3: "TH TD TC 4S 4H 4D"}
    state = deal(1, 3, hands=hands, upcard="KH", stock="5C 6D")

    assert [state.hands[s] for s in range(4)] == [cards(hands[s]) for s in range(4)]
    assert state.discard == cards("KH")
    assert state.stock[-2:] == cards("6D 5C")  # 5C on top


def test_r4_3_a_natural_upcard_starts_the_pile_and_the_next_card_tops_the_stock() -> None:
    deck = stack(3, 1, upcard="9C", stock="4D 5D")
    state = HandState.deal(1, 3, deck)

    assert state.discard == [deck[24]] == cards("9C")
    assert state.stock[-1] is deck[25] is Card.parse("4D")
    assert state.stock[0] is deck[107]
    assert state.stock == list(reversed(deck[25:]))


def test_r4_3_a_wild_upcard_is_buried_under_the_stock() -> None:
    deck = stack(3, 1, buried="JK", upcard="9C", stock="4D 5D")
    state = HandState.deal(1, 3, deck)

    assert state.discard == cards("9C")
    assert state.stock[-1] is Card.parse("4D")
    assert state.stock[0] is Card.parse("JK")  # at the bottom
    assert state.stock[1:] == list(reversed(deck[26:]))
    assert len(state.stock) == 83


def test_r4_3_several_wild_upcards_are_buried_in_the_order_turned() -> None:
    deck = stack(3, 1, buried="JK 2C 2H JK", upcard="9C", stock="4D 5D")
    state = HandState.deal(1, 3, deck)

    assert deck[24:29] == cards("JK 2C 2H JK 9C")
    assert state.discard == cards("9C")
    # drawn from the top: 4D, 5D, ... the rest of the pack, then JK, 2C, 2H, JK
    drawn = list(reversed(state.stock))
    assert drawn[:2] == cards("4D 5D")
    assert drawn[-4:] == cards("JK 2C 2H JK")
    assert drawn[:-4] == deck[29:]
    # seen by all, and kept by a copy of the hand (a bot's search works on copies)
    assert state.buried == tuple(cards("JK 2C 2H JK")) == state.copy().buried


def test_r4_3_the_upcard_is_never_a_wild_and_the_first_take_gets_it() -> None:
    state = deal(1, 3, hands={0: "3C 4C 5C 6C 7C 9D"}, buried="2S", upcard="KH")
    play(state, "0 take")

    assert state.hands[0][-1] is Card.parse("KH")
    assert not any(c.is_wild for c in state.discard)


def test_r4_3_buried_wilds_are_the_last_cards_to_leave_the_stock() -> None:
    deck = stack(3, 1, buried="JK 2D", upcard="KH")
    state = HandState.deal(1, 3, deck)
    drawn: list[Card] = []
    while len(state.stock) >= 2:
        seat = state.seat
        play(state, f"{seat} push")
        left = state.hands[(seat + 1) % 4]
        drawn += [left[-2], state.hands[seat][-1]]  # stock top to the left, next to the pusher
        play(state, f"{seat} discard {state.hands[seat][0]}")

    assert drawn == deck[27:] + cards("JK")
    assert state.stock == cards("2D")


def test_r4_3_every_seat_sees_the_buried_wilds() -> None:
    # They were turned face up before going under the stock, so they are public.
    state = deal(1, 3, buried="JK 2C", upcard="KH")
    for seat in range(4):
        assert state.observation(seat).buried == tuple(cards("JK 2C"))
    assert deal(1, 3, upcard="KH").observation(0).buried == ()
