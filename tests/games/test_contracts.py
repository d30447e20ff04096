"""The contract of each hand (R3.2) and laying it down (R7.1, R7.2)."""

import pytest

from games.engine import (
    CONTRACTS,
    HandState,
    IllegalActionError,
    LayContract,
    MeldSpec,
    penalty,
)
from games.engine.state import CONTRACT_TEXT
from tests.games.packs import OUT_AT_ONCE, cards, deal, play

LEGAL = {
    1: "set(7H 7S 7D) set(QS QD QC)",
    2: "set(9C 9D 9S) run(4H 5H 6H 7H)",
    3: "run(3S 4S 5S 6S) run(8D 9D TD JD)",
    4: "set(5C 5D 5H) set(8C 8S 8H) set(KC KS KH)",
    5: "run(3C 4C 5C 6C 7C) run(9H TH JH QH KH)",
}


def holding(hand_no: int, contract: str) -> HandState:
    """Hand ``hand_no``, dealer 3: seat 0 holds the contract's cards and has pushed."""
    codes = [p.card.code for part in contract.split(")")[:-1]
             for p in MeldSpec.parse(part + ")").cards]
    return play(deal(hand_no, 3, hands={0: " ".join(codes)}, upcard="AD", stock="AC AH"),
                "0 push")


def rule_of(state: HandState, action: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        play(state, action)
    return err.value.rule


def test_r3_2_the_contracts_table() -> None:
    assert CONTRACTS == {
        1: (("set", 3), ("set", 3)),
        2: (("set", 3), ("run", 4)),
        3: (("run", 4), ("run", 4)),
        4: (("set", 3), ("set", 3), ("set", 3)),
        5: (("run", 5), ("run", 5)),
    }


@pytest.mark.parametrize("hand_no", [1, 2, 3, 4, 5])
def test_r3_2_r7_1_each_hands_contract_is_accepted(hand_no: int) -> None:
    state = play(holding(hand_no, LEGAL[hand_no]), f"0 contract {LEGAL[hand_no]}")

    assert state.contract_down == [True, False, False, False]
    assert " ".join(str(m.spec()) for m in state.melds) == LEGAL[hand_no]
    assert all(m.owner == 0 for m in state.melds)
    assert state.hands[0] == cards("AH")  # the card the push drew


@pytest.mark.parametrize(("hand_no", "wrong"), [
    (1, "set(7H 7S 7D)"),
    (1, "set(7H 7S 7D) set(QS QD QC) set(7C 7C QH)"),
    (1, "run(7H 8H 9H) set(QS QD QC)"),
    (2, "set(9C 9D 9S) set(4H 4D 4S)"),
    (2, "set(9C 9D 9S) run(4H 5H 6H)"),  # the run is one short
    (2, "set(9C 9D) run(4H 5H 6H 7H)"),
    (3, "run(3S 4S 5S 6S) set(8D 8D 8S)"),
    (3, "run(3S 4S 5S 6S) run(8D 9D TD)"),
    (4, "set(5C 5D 5H) set(8C 8S 8H)"),
    (4, "set(5C 5D 5H) set(8C 8S 8H) run(KH QH JH)"),
    (5, "run(3C 4C 5C 6C 7C) run(9H TH JH QH)"),
    (5, "run(3C 4C 5C 6C 7C)"),
])
def test_r3_2_r7_1_a_contract_of_the_wrong_kinds_or_lengths_is_illegal(hand_no: int,
                                                                       wrong: str) -> None:
    state = holding(hand_no, LEGAL[hand_no])
    assert rule_of(state, f"0 contract {wrong}") == "R7.1"
    assert state.melds == [] and not state.contract_down[0]


def test_r7_1_the_melds_may_be_listed_in_any_order() -> None:
    state = play(holding(2, LEGAL[2]), "0 contract run(4H 5H 6H 7H) set(9C 9D 9S)")
    assert [m.kind for m in state.melds] == ["run", "set"]
    assert [m.id for m in state.melds] == [0, 1]


def test_r7_1_each_meld_must_reach_its_own_minimum() -> None:
    state = holding(1, "set(7H 7S 7D 7C) set(QS QD)")
    assert rule_of(state, "0 contract set(7H 7S 7D 7C) set(QS QD)") == "R7.1"


@pytest.mark.parametrize("hand_no", [1, 2, 3, 4, 5])
def test_r7_1_a_contract_meld_may_be_longer_than_its_minimum(hand_no: int) -> None:
    hand, upcard, contract = OUT_AT_ONCE[hand_no]
    state = deal(hand_no, 3, hands={0: hand}, upcard=upcard)

    play(state, "0 take", f"0 contract {contract}")  # all n + 1 cards: out by melding

    assert state.contract_down[0]
    assert sum(len(m.cards) for m in state.melds) == sum(n for _k, n in CONTRACTS[hand_no]) + 1


def test_r7_1_two_sets_of_the_same_rank_are_allowed() -> None:
    state = play(holding(1, "set(7H 7S 7D) set(7C 7H 7S)"),
                 "0 contract set(7H 7S 7D) set(7C 7H 7S)")
    assert [m.rank for m in state.melds] == [7, 7]


def test_r7_1_two_runs_of_the_same_cards_are_allowed() -> None:
    state = play(holding(3, "run(3S 4S 5S 6S) run(3S 4S 5S 6S)"),
                 "0 contract run(3S 4S 5S 6S) run(3S 4S 5S 6S)")
    assert [(m.low, m.high) for m in state.melds] == [(3, 6), (3, 6)]


def test_r7_1_the_contract_comes_from_the_players_own_hand() -> None:
    state = holding(1, LEGAL[1])
    assert rule_of(state, "0 contract set(7H 7S 7D) set(KS KD KC)") == "R7.1"
    assert rule_of(state, "0 contract set(7H 7S 7H) set(QS QD QC)") == "R7.1"  # one 7H only


@pytest.mark.parametrize("action", ["0 meld set(7H 7S 7D)", "0 layoff 0 7H", "0 swap 0 7H JK"])
def test_r7_1_nothing_but_the_contract_before_the_contract(action: str) -> None:
    state = holding(1, LEGAL[1])
    assert rule_of(state, action) == "R7.1"


def test_r7_1_the_contract_is_laid_once() -> None:
    state = holding(1, "set(7H 7S 7D) set(QS QD QC)")
    play(state, "0 contract set(7H 7S 7D) set(QS QD QC)")
    assert rule_of(state, "0 contract set(7H 7S 7D) set(QS QD QC)") == "R7.1"


def partners() -> HandState:
    """Hand 1, dealer 3. Seat 1 lays its contract (melds 0: 9s, 1: kings) on turn 2;
    seat 2 discards 9H on turn 3; seat 3 takes it on turn 4."""
    state = deal(1, 3, hands={0: "3C 4C 6D 7D TH JH", 1: "9C 9D 9S KC KD KS",
                              2: "9H 4S 6S 7S TS JS", 3: "5C 5D 5H 8C 8D 8H"},
                 upcard="QH", stock="QC QD 3H 4H")
    return play(state, "0 push", "0 discard 3C",
                "1 push", "1 contract set(9C 9D 9S) set(KC KD KS)", "1 discard QC",
                "2 take")


def test_r7_1_an_opponents_contract_does_not_open_the_table_either() -> None:
    state = partners()
    assert rule_of(state, "2 layoff 0 9H") == "R7.1"


@pytest.mark.parametrize("action", ["3 layoff 0 9H", "3 meld set(5C 5D 5H)",
                                    "3 layoff 1 KH"])
def test_r7_2_a_partners_contract_does_not_count(action: str) -> None:
    state = play(partners(), "2 discard 9H", "3 take")
    assert state.contract_down == [False, True, False, False]
    assert rule_of(state, action) == "R7.2"


def test_r7_2_r7_3_after_their_own_contract_they_may_lay_off_on_the_partners_meld() -> None:
    state = play(partners(), "2 discard 9H", "3 take",
                 "3 contract set(5C 5D 5H) set(8C 8D 8H)")
    assert state.hands[3] == cards("9H")  # only the taken card: it can't be discarded (R6.5)
    before = [list(state.hands[0]), list(state.hands[2])]

    play(state, "3 layoff 0 9H")

    assert str(state.melds[0].spec()) == "set(9C 9D 9S 9H)"
    assert state.outcome is not None
    assert (state.outcome.ended_by, state.outcome.out_seat) == ("out", 3)
    assert state.outcome.scores == (penalty(before[0] + before[1]), 0)


def test_r3_2_each_contract_in_the_engines_words() -> None:
    """Built once, when the engine is imported (mutation testing cannot switch that code,
    so this checks every text it built); the refusals and the live table show them."""
    assert CONTRACT_TEXT == {
        1: "two sets of 3",
        2: "a set of 3 and a run of 4",
        3: "two runs of 4",
        4: "three sets of 3",
        5: "two runs of 5",
    }


@pytest.mark.parametrize(("hand_no", "wrong", "reason"), [
    (1, "set(7H 7S 7D) run(4H 5H 6H)",
     "R7.1: hand 1 contract needs two sets of 3; got a set of 3, a run of 3"),
    (2, "set(9C 9D 9S 9H)", "R7.1: hand 2 contract needs a set of 3 and a run of 4; got a "
                            "set of 4"),
    (4, "", "R7.1: hand 4 contract needs three sets of 3; got no melds"),
])
def test_r7_1_a_contract_of_the_wrong_kinds_says_what_it_needs_and_what_it_got(
        hand_no: int, wrong: str, reason: str) -> None:
    state = holding(hand_no, LEGAL[hand_no])
    with pytest.raises(IllegalActionError) as err:
        state.apply(LayContract(0, tuple(MeldSpec.parse(part + ")")
                                         for part in wrong.split(")")[:-1])))
    assert str(err.value) == reason
