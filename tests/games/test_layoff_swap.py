"""Meld actions after the contract: further melds, lay-offs, wild swaps (R7.3-R7.6)."""

import pytest

from games.engine import HandState, IllegalActionError, MeldSpec, Placed
from tests.games.packs import all_cards, cards, deal, play


def codes(contract: str) -> str:
    return " ".join(p.card.code for part in contract.split(")")[:-1]
                    for p in MeldSpec.parse(part + ")").cards)


def table(extras: str = "3H 8H 6H", run1: str = "run(4H 5H JK=6H 7H)",
          set2: str = "set(TC TD TS)", run2: str = "run(5S 6S 7S 8S)") -> HandState:
    """Hand 2 (a set of 3 and a run of 4), dealer 3, after three turns.

    Seat 1 (an opponent of seat 2) laid meld 0 ``set(9C 9D 9S)`` and meld 1 ``run1``;
    seat 2 has just pushed and laid meld 2 ``set2`` and meld 3 ``run2``; it holds
    the three ``extras``: one pushed to it from the stock, one that seat 0 discarded
    and seat 1 pushed on, and the one its own push drew.
    """
    e1, e2, e3 = extras.split()
    contract1, contract2 = f"set(9C 9D 9S) {run1}", f"{set2} {run2}"
    state = deal(2, 3, hands={0: f"{e2} 9H", 1: codes(contract1), 2: codes(contract2)},
                 upcard="QC", stock=f"QD KS {e1} KD KH {e3}")
    play(state, "0 push", f"0 discard {e2}",
         "1 push", f"1 contract {contract1}", "1 discard QD",
         "2 push", f"2 contract {contract2}")
    assert state.hands[2] == cards(extras) and state.contract_down == [False, True, True, False]
    return state


def meld(state: HandState, meld_id: int) -> str:
    return str(state.melds[meld_id].spec())


def rule_of(state: HandState, action: str) -> str:
    melds, hand = list(state.melds), list(state.hands[state.seat])
    with pytest.raises(IllegalActionError) as err:
        play(state, action)
    assert state.melds == melds and state.hands[state.seat] == hand
    return err.value.rule


# -- R7.3: further melds and lay-offs ------------------------------------------------------

def test_r7_3_lay_off_onto_an_opponents_run_at_the_low_end() -> None:
    state = play(table(), "2 layoff 1 3H")
    assert meld(state, 1) == "run(3H 4H 5H JK=6H 7H)"
    assert state.melds[1].owner == 1 and state.hands[2] == cards("8H 6H")


def test_r7_3_lay_off_onto_an_opponents_run_at_the_high_end() -> None:
    state = play(table(), "2 layoff 1 8H")
    assert meld(state, 1) == "run(4H 5H JK=6H 7H 8H)"


def test_r7_3_lay_off_at_both_ends_at_once_listed_in_any_order() -> None:
    state = play(table(), "2 layoff 1 8H 3H")
    assert meld(state, 1) == "run(3H 4H 5H JK=6H 7H 8H)"


def test_r7_3_lay_off_onto_an_opponents_set_and_onto_own_melds() -> None:
    state = play(table(extras="9H TH 4S"), "2 layoff 0 9H", "2 layoff 2 TH", "2 layoff 3 4S")
    assert [meld(state, i) for i in (0, 2, 3)] == [
        "set(9C 9D 9S 9H)", "set(TC TD TS TH)", "run(4S 5S 6S 7S 8S)"]
    assert state.outcome is not None and state.outcome.out_seat == 2  # R8.1: by lay-off


def test_r7_3_lay_off_a_wild_declared_for_an_open_end() -> None:
    state = play(table(extras="JK 2D 3H"), "2 layoff 3 JK=9S", "2 layoff 1 2D=3H")
    assert meld(state, 3) == "run(5S 6S 7S 8S JK=9S)"
    assert meld(state, 1) == "run(2D=3H 4H 5H JK=6H 7H)"


def test_r7_3_lay_off_in_a_later_turn_after_the_contract() -> None:
    state = play(table(), "2 discard 3H", "3 take", "3 discard KH", "0 take", "0 discard 9H",
                 "1 take", "1 layoff 0 9H", "1 discard KD")
    assert meld(state, 0) == "set(9C 9D 9S 9H)" and state.seat == 2


def test_r7_3_further_melds_of_any_kind_after_the_contract() -> None:
    state = play(table(extras="KC KH JK"), "2 meld set(KC KH JK=K)")
    assert meld(state, 4) == "set(KC KH JK=K)" and state.melds[4].owner == 2
    state = play(table(extras="JC QC KC"), "2 meld run(JC QC KC)")
    assert (state.melds[4].low, state.melds[4].high) == (11, 13)


def test_r7_3_r5_1_a_further_meld_still_needs_three_cards() -> None:
    assert rule_of(table(extras="KC KH 6H"), "2 meld set(KC KH)") == "R5.1"


@pytest.mark.parametrize("action", [
    "2 layoff 1 6H",  # its place is held by the joker
    "2 layoff 0 8H",  # not a 9
    "2 layoff 1 3H 8H 6H",
    "2 layoff 3 8H",  # wrong suit
    "2 layoff 9 3H",  # no meld 9
    "2 layoff 0 9C",  # fits, but seat 2 has no 9C
])
def test_r7_3_a_lay_off_must_fit_and_come_from_the_hand(action: str) -> None:
    assert rule_of(table(), action) == "R7.3"


def test_r7_3_a_lay_off_must_leave_one_unbroken_run() -> None:
    state = table(extras="9H 3H 6H")
    assert rule_of(state, "2 layoff 1 9H") == "R7.3"  # leaves a gap at 8H
    assert rule_of(state, "2 layoff 1 3H 9H") == "R7.3"


@pytest.mark.parametrize(("run2", "extras", "action", "after"), [
    ("run(2S 3S 4S 5S)", "AS 3H 6H", "2 layoff 3 AS", "run(AS 2S 3S 4S 5S)"),
    ("run(TS JS QS KS)", "AS 3H 6H", "2 layoff 3 AS", "run(TS JS QS KS AS)"),
    ("run(TS JS QS KS)", "JK 3H 6H", "2 layoff 3 JK=AS", "run(TS JS QS KS JK=AS)"),
    ("run(2S 3S 4S 5S)", "JK 3H 6H", "2 layoff 3 JK=AS", "run(JK=AS 2S 3S 4S 5S)"),
])
def test_r7_3_an_ace_lays_off_low_below_a_two_or_high_above_a_king(
        run2: str, extras: str, action: str, after: str) -> None:
    state = play(table(extras=extras, run2=run2), action)
    assert meld(state, 3) == after


@pytest.mark.parametrize(("run2", "extras", "action"), [
    ("run(JS QS KS AS)", "AS 3H 6H", "2 layoff 3 AS"),  # no place left for it
    ("run(JS QS KS AS)", "2S 3H 6H", "2 layoff 3 2S"),  # no wrap-around
    ("run(JS QS KS AS)", "JK 3H 6H", "2 layoff 3 JK=2S"),
    ("run(AS 2S 3S 4S)", "KS 3H 6H", "2 layoff 3 KS"),
])
def test_r7_3_r5_3_nothing_lays_off_past_an_ace(run2: str, extras: str, action: str) -> None:
    assert rule_of(table(extras=extras, run2=run2), action) == "R7.3"


# -- R7.4: wild replacement ------------------------------------------------------------------

def test_r7_4_swap_a_joker_and_lay_it_off_onto_another_meld() -> None:
    state = play(table(), "2 swap 1 6H JK")
    assert meld(state, 1) == "run(4H 5H 6H 7H)"
    assert state.pending == [(cards("JK")[0], 1)] and state.hands[2] == cards("3H 8H")

    play(state, "2 layoff 3 JK=9S", "2 discard 3H")
    assert meld(state, 3) == "run(5S 6S 7S 8S JK=9S)" and state.seat == 3


def test_r7_4_swap_a_joker_and_play_it_in_a_new_meld() -> None:
    state = play(table(extras="6H KC KH"), "2 swap 1 6H JK", "2 meld set(KC KH JK=K)")
    assert meld(state, 4) == "set(KC KH JK=K)" and state.pending == []


def test_r7_4_any_card_of_the_rank_replaces_a_wild_in_a_set() -> None:
    state = play(table(extras="TH 3H 6H", set2="set(TC TD 2D=T)"), "2 swap 2 TH 2D",
                 "2 layoff 1 2D=3H")
    assert meld(state, 2) == "set(TC TD TH)"
    assert meld(state, 1) == "run(2D=3H 4H 5H JK=6H 7H)"


def test_r7_4_the_taken_wild_must_be_played_before_the_discard() -> None:
    state = play(table(), "2 swap 1 6H JK")
    assert rule_of(state, "2 discard 3H") == "R7.4"
    with pytest.raises(IllegalActionError) as err:
        play(state, "2 discard 3H")
    assert str(err.value) == "R7.4: the swapped JK must be played into a meld before the discard"


def test_r7_4_the_taken_wild_may_not_go_back_into_the_same_meld() -> None:
    state = play(table(), "2 swap 1 6H JK")
    assert rule_of(state, "2 layoff 1 JK=8H") == "R7.4"
    assert rule_of(state, "2 layoff 1 3H JK=8H") == "R7.4"


@pytest.mark.parametrize("action", [
    "2 swap 1 3H JK",  # the joker stands for 6H
    "2 swap 1 3H 4H",  # 4H is no wild
    "2 swap 0 6H JK",  # meld 0 holds no joker
    "2 swap 1 6D JK",  # seat 2 has no 6D
    "2 swap 1 JK JK",
])
def test_r7_4_only_the_represented_natural_from_hand_replaces_a_wild(action: str) -> None:
    assert rule_of(table(), action) == "R7.4"


def test_r7_4_an_empty_hand_with_a_wild_still_to_place_is_not_out() -> None:
    state = play(table(), "2 layoff 1 3H", "2 layoff 1 8H", "2 swap 1 6H JK")
    assert state.hands[2] == [] and state.outcome is None and state.seat == 2
    assert rule_of(state, "2 discard 6H") == "R7.4"

    play(state, "2 layoff 3 JK=9S")
    assert state.outcome is not None and state.outcome.out_seat == 2  # R8.1: by lay-off


# -- R7.5: a natural 2 is no wild ------------------------------------------------------------

def test_r7_5_a_natural_two_in_a_run_cannot_be_replaced() -> None:
    state = table(extras="2H 3H 6H", run1="run(AH 2H 3H 4H)")
    assert rule_of(state, "2 swap 1 2H 2H") == "R7.5"


def test_r7_5_a_two_in_a_set_of_twos_cannot_be_replaced() -> None:
    state = table(extras="2H 3H 6H", set2="set(2C 2D 2S)")
    assert rule_of(state, "2 swap 2 2H 2C") == "R7.5"


def test_r7_5_but_a_two_standing_as_a_wild_can() -> None:
    state = play(table(run1="run(4H 5H 2C=6H 7H)"), "2 swap 1 6H 2C", "2 layoff 3 2C=9S")
    assert meld(state, 1) == "run(4H 5H 6H 7H)" and meld(state, 3) == "run(5S 6S 7S 8S 2C=9S)"


def test_r7_5_and_a_wild_standing_for_a_two_is_replaced_by_that_natural_two() -> None:
    state = play(table(extras="2H 3H 6H", run1="run(AH JK=2H 3H 4H)"), "2 swap 1 2H JK",
                 "2 layoff 3 JK=9S")
    assert meld(state, 1) == "run(AH 2H 3H 4H)"
    assert state.melds[1].cards[1] == Placed(cards("2H")[0])


# -- R7.6: melds stay ------------------------------------------------------------------------

def test_r7_6_no_card_moves_from_one_meld_to_another() -> None:
    state = table(extras="3H 8H 6H")
    assert rule_of(state, "2 layoff 0 9S") == "R7.3"  # 9S is in meld 0, not in hand
    assert rule_of(state, "2 layoff 1 4H") == "R7.3"


def test_r7_6_only_a_replaced_wild_moves_and_melds_keep_their_ids() -> None:
    state = table()
    before = [meld(state, i) for i in range(4)]
    play(state, "2 swap 1 6H JK", "2 layoff 3 JK=9S", "2 discard 3H")
    after = [meld(state, i) for i in range(4)]

    assert [m.id for m in state.melds] == [0, 1, 2, 3]
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] == before[1].replace("JK=6H", "6H")
    assert after[3] == before[3].replace(")", " JK=9S)")
    assert all_cards(state) == all_cards(table())


def test_r7_6_melds_stay_until_the_hand_ends() -> None:
    state = play(table(extras="9H TH 4S"), "2 layoff 0 9H", "2 layoff 2 TH", "2 layoff 3 4S")
    assert state.outcome is not None
    assert len(state.melds) == 4 and sum(len(m.cards) for m in state.melds) == 17
