"""How a hand ends: going out, stock exhaustion, the 400-turn bound (R8)."""

import pytest

from games.engine import GameState, HandState, IllegalActionError, parse_action, penalty, verify
from tests.games.packs import cards, deal, out_at_once, play, record, stack

CONTRACT = "set(7H 7S 7D) set(QS QD QC)"


def seat0_holds_a_contract(upcard: str = "7C") -> HandState:
    return deal(1, 3, hands={0: "7H 7S 7D QS QD QC", 1: "3D 4D 5D 9H TH KD",
                             2: "3S 4S 5S 9C TC KS", 3: "3H 4H 5H 9S TS KH"},
                upcard=upcard, stock="AS AD")


def rule_of(state: HandState, action: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        play(state, action)
    return err.value.rule


def test_r8_1_out_by_discarding_the_last_card() -> None:
    state = play(seat0_holds_a_contract(), "0 push", f"0 contract {CONTRACT}")
    assert state.hands[0] == cards("AD") and state.outcome is None

    play(state, "0 discard AD")

    assert state.outcome is not None
    assert (state.outcome.ended_by, state.outcome.out_seat) == ("out", 0)
    assert state.hands[0] == [] and state.phase == "over"


def test_r8_1_out_by_melding_the_last_card_needs_no_discard() -> None:
    state = play(seat0_holds_a_contract(), "0 take", "0 contract set(7H 7S 7D 7C) set(QS QD QC)")

    assert state.outcome is not None and state.outcome.out_seat == 0
    assert rule_of(state, "0 discard 7C") == "R8.1"


def test_r8_1_out_by_laying_off_the_last_card() -> None:
    state = play(seat0_holds_a_contract(), "0 take", f"0 contract {CONTRACT}")
    assert state.hands[0] == cards("7C") and state.outcome is None
    assert rule_of(state, "0 discard 7C") == "R6.5"  # taken this turn

    play(state, "0 layoff 0 7C")

    assert state.outcome is not None and state.outcome.out_seat == 0


def test_r8_1_nothing_follows_going_out_in_that_hand() -> None:
    state = play(seat0_holds_a_contract(), "0 push", f"0 contract {CONTRACT}", "0 discard AD")
    for action in ("1 take", "1 push", "0 take", "1 discard 3D"):
        assert rule_of(state, action) == "R8.1"


def test_r8_1_the_next_hand_is_dealt_only_once_this_one_has_ended() -> None:
    game = GameState(first_dealer=3)
    game.deal(stack(3, 1, hands={0: "7H 7S 7D QS QD QC"}, upcard="7C"))
    game.apply(parse_action("0 take"))
    with pytest.raises(IllegalActionError) as err:
        game.deal(stack(0, 2))
    assert err.value.rule == "R8.1"


def exhaust(state: HandState) -> HandState:
    while len(state.stock) >= 2:
        seat = state.seat
        play(state, f"{seat} push", f"{seat} discard {state.hands[seat][0]}")
    return state


def test_r8_2_the_hand_ends_when_the_stock_is_exhausted() -> None:
    state = exhaust(seat0_holds_a_contract(upcard="KC"))
    seat = state.seat
    hands = [list(h) for h in state.hands]
    play(state, f"{seat} push")

    assert state.outcome is not None
    assert (state.outcome.ended_by, state.outcome.out_seat) == ("stock", None)
    assert state.outcome.scores == (penalty(hands[0] + hands[2]), penalty(hands[1] + hands[3]))
    assert rule_of(state, f"{seat} discard {hands[seat][0]}") == "R8.2"
    assert rule_of(state, f"{(seat + 1) % 4} take") == "R8.2"


def take_and_discard(state: HandState, turns: int) -> list[str]:
    """Every seat takes the top discard and throws its oldest other card (R6.5 allows it)."""
    actions = []
    for _ in range(turns):
        seat = state.seat
        play(state, f"{seat} take")
        card = next(c for c in state.hands[seat] if c is not state.taken)
        play(state, f"{seat} discard {card}")
        actions += [f"{seat} take", f"{seat} discard {card}"]
    return actions


def test_r8_3_the_hand_ends_when_the_400th_turn_ends_with_its_discard() -> None:
    state = seat0_holds_a_contract(upcard="KC")
    take_and_discard(state, 399)
    assert state.outcome is None and state.turns == 399
    seat = state.seat
    play(state, f"{seat} take")
    assert state.outcome is None  # the 400th turn has not ended yet
    card = next(c for c in state.hands[seat] if c is not state.taken)
    play(state, f"{seat} discard {card}")

    assert state.turns == 400 and state.outcome is not None
    assert (state.outcome.ended_by, state.outcome.out_seat) == ("stock", None)
    assert state.outcome.scores == (penalty(state.hands[0] + state.hands[2]),
                                     penalty(state.hands[1] + state.hands[3]))
    assert min(state.outcome.scores) > 0
    assert len(state.stock) == 83  # nobody drew from it
    assert rule_of(state, f"{(seat + 1) % 4} take") == "R8.3"


def test_r8_3_a_recorded_400_turn_hand_verifies_and_a_401st_turn_is_illegal() -> None:
    deck = stack(3, 1, upcard="KC")
    actions = take_and_discard(HandState.deal(1, 3, deck), 400)
    assert len(actions) == 800

    verdict = verify(record(3, [(deck, actions)]))
    assert verdict.status == "incomplete"
    assert verdict.hands[0].ended_by == "stock" and verdict.hands[0].out_seat is None

    late = verify(record(3, [(deck, [*actions, "0 take"])]))
    assert late.status == "illegal" and late.error is not None
    assert (late.error.hand, late.error.action) == (1, 800)
    assert late.error.reason.startswith("R8.3")


def test_r8_all_five_hands_out_at_once_give_a_complete_game() -> None:
    hands = [out_at_once(h, (3 + h - 1) % 4) for h in range(1, 6)]
    verdict = verify(record(3, hands))
    assert verdict.status == "complete"
    assert [h.out_seat for h in verdict.hands] == [0, 1, 2, 3, 0]
