"""Legal-action generation: everything offered is legal, and nothing leaves a player stuck."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GameState, LayContract, contracts, legal_actions, parse_action
from games.engine.cards import parse_cards
from games.engine.play import deal_from_seed

from .packs import stack


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_every_generated_action_is_accepted_by_apply(seed: int) -> None:
    rng = random.Random(seed)
    first_dealer, decks = deal_from_seed(seed)
    game = GameState(first_dealer)
    for deck in decks[:2]:
        hand = game.deal(deck)
        while hand.outcome is None:
            legal = legal_actions(hand)
            assert legal, f"seat {hand.seat} has no legal action in phase {hand.phase}"
            for action in legal:
                hand.copy().apply(action)  # raises IllegalActionError if not legal
            game.apply(rng.choice(legal))


def test_two_runs_that_need_different_wilds_are_found() -> None:
    # Each run needs one wild; they must not both be given the 2D.
    hand = parse_cards("5H 6H 8H 7C 9C TC 2D JK 3S")
    found = {" ".join(str(m) for m in c) for c in contracts(3, hand)}
    assert "run(5H 6H 2D=7H 8H) run(7C JK=8C 9C TC)" in found


def test_hand_one_contract_lists_each_pair_of_ranks() -> None:
    hand = parse_cards("7H 7S 7D 9C 9D JK QS QH")
    found = {" ".join(str(m) for m in c) for c in contracts(1, hand)}
    assert "set(7H 7S 7D) set(9C 9D JK=9)" in found
    assert "set(7H 7S 7D) set(QS QH JK=Q)" in found
    assert "set(9C 9D JK=9) set(QS QH JK=Q)" not in found  # only one joker for both


def test_no_contract_is_offered_when_the_hand_cannot_make_it() -> None:
    assert contracts(5, parse_cards("3H 4H 5H 6H 7H 9S TS JS")) == []


def test_it_never_offers_a_meld_that_leaves_only_the_taken_card() -> None:
    # Seat 1 takes the 9C it did not hold, so it may not discard it (R6.5); laying
    # down 7H 7S 7D + QS QH QD would leave it holding only that 9C.
    game = GameState(first_dealer=0)
    hand = game.deal(stack(0, 1, {1: "7H 7S 7D QS QH QD"}, upcard="9C"))
    hand.apply(parse_action("1 take"))
    offered = legal_actions(hand)
    assert not any(isinstance(a, LayContract) for a in offered)
    assert "1 discard 9C" not in [str(a) for a in offered]
    assert "1 discard 7H" in [str(a) for a in offered]
