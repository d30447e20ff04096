"""Legal-action generation: everything offered is legal, and nothing leaves a player stuck."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import (
    Card,
    GameState,
    HandState,
    LayContract,
    LayMelds,
    contracts,
    full_pack,
    legal_actions,
    observed_legal_actions,
    parse_action,
)
from games.engine.cards import cards_str, parse_cards
from games.engine.play import deal_from_seed
from games.engine.state import CONTRACTS
from tests.examples import examples

from .packs import stack


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_every_generated_action_is_accepted_by_apply(seed: int) -> None:
    rng = random.Random(seed)
    first_dealer, decks = deal_from_seed(seed)
    game = GameState(first_dealer)
    for deck in decks[:2]:
        game.deal(deck)
        while (seat := game.to_move) is not None:
            legal = game.legal_actions()
            assert legal, f"seat {seat} has no legal action"
            hand = game.hand
            for action in legal:
                hand.copy().apply(action)  # raises IllegalActionError if not legal
            game.apply(rng.choice(legal))


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_the_movers_observation_offers_what_the_whole_state_does(seed: int) -> None:
    # what a bot or a browser is offered (its own seat's view) is the engine's own list, in
    # its order, and a seat not to move is offered nothing
    rng = random.Random(seed)
    first_dealer, decks = deal_from_seed(seed)
    game = GameState(first_dealer)
    for deck in decks[:2]:
        game.deal(deck)
        while (mover := game.to_move) is not None:
            expected = [str(a) for a in legal_actions(game.hand)]
            for seat in range(4):
                offered = [str(a) for a in observed_legal_actions(game.hand.observation(seat))]
                assert offered == (expected if seat == mover else []), (seat, mover)
            game.apply(rng.choice(game.legal_actions()))


def test_two_runs_that_need_different_wilds_are_found() -> None:
    # Each run needs one wild; they must not both be given the 2D.
    hand = parse_cards("5H 6H 8H 7C 9C TC 2D JK 3S")
    found = [sorted(str(m) for m in c) for c in contracts(3, hand)]
    assert found in ([["run(5H 6H 2D=7H 8H)", "run(7C JK=8C 9C TC)"]],
                     [["run(5H 6H JK=7H 8H)", "run(7C 2D=8C 9C TC)"]])


def _contract_texts(hand_no: int, hand: str) -> list[str]:
    return sorted(" ".join(str(m) for m in c) for c in contracts(hand_no, parse_cards(hand)))


def test_a_set_takes_its_only_natural_from_a_run_that_keeps_another() -> None:
    # R5.5: each meld holds a natural. The 7H is the only 7, inside the run: the set of 7s
    # takes it, and a wild stands in the run's hole, since the run keeps 5H, 6H and 8H
    assert _contract_texts(2, "5H 6H 7H 8H JK JK 2D") == sorted([
        "set(5H 2D=5 JK=5) run(JK=5H 6H 7H 8H)",
        "set(6H 2D=6 JK=6) run(5H JK=6H 7H 8H)",
        "set(7H 2D=7 JK=7) run(5H 6H JK=7H 8H)",
        "set(8H 2D=8 JK=8) run(5H 6H 7H JK=8H)",
        "set(2D JK=2 JK=2) run(5H 6H 7H 8H)",
        "set(5H 2D=5 JK=5) run(6H 7H 8H JK=9H)",
    ])
    # a run of two naturals gives one up (6H or 7H), the wild taking its position
    assert _contract_texts(2, "6H 7H JK JK 2D 2S 2C KC") == sorted([
        "set(6H 2S=6 2D=6) run(2C=6H 7H JK=8H JK=9H)",
        "set(7H 2S=7 2D=7) run(6H 2C=7H JK=8H JK=9H)",
        "set(KC 2S=K 2D=K) run(6H 7H 2C=8H JK=9H)",
        "set(2S 2D 2C) run(6H 7H JK=8H JK=9H)",
        "set(6H 2S=6 2D=6) run(2C=JC JK=QC KC JK=AC)",
        "set(7H 2S=7 2D=7) run(2C=JC JK=QC KC JK=AC)",
        "set(6H 2S=6 2D=6) run(7H 2C=8H JK=9H JK=TH)",
        "set(KC 2S=K 2D=K) run(7H 2C=8H JK=9H JK=TH)",
    ])
    # a run whose only natural is the 7H keeps it: no set of 7s beside a run of hearts
    assert _contract_texts(2, "7H JK JK 2D 2S 2C 2H") == sorted([
        "set(2S 2H 2D) run(7H 2C=8H JK=9H JK=TH)",
        "set(7H 2S=7 2H=7) run(2C 2D=3C JK=4C JK=5C)",
        "set(7H 2S=7 2H=7) run(2D 2C=3D JK=4D JK=5D)",
        "set(7H 2S=7 2D=7) run(2H 2C=3H JK=4H JK=5H)",
        "set(7H 2H=7 2D=7) run(2S 2C=3S JK=4S JK=5S)",
    ])


def test_two_aces_of_a_suit_end_one_run_high_and_another_run_too() -> None:
    # R5.3: an ace is low or high. With both aces of hearts each run may take one; with
    # one of them used at either end, the other is still free for the second run
    assert _contract_texts(3, "AH AH JH 8H JK JK KH JK 8H QH") == sorted([
        "run(JH QH KH AH) run(8H JK=9H JK=TH JK=JH)",
        "run(JH QH KH AH) run(AH JK=2H JK=3H JK=4H)",
        "run(JH QH KH AH) run(JK=JH JK=QH JK=KH AH)",
    ])
    assert _contract_texts(3, "AH 3H 2H JK AH QH JS 4H JH") == [
        "run(AH 2H 3H 4H) run(JH QH JK=KH AH)"]


def test_naturals_of_one_rank_beyond_two_sets_of_three_go_to_the_first() -> None:
    assert _contract_texts(1, "7S 7S 7H 7H 7D 7D 7C 7C KC") == [
        "set(7S 7S 7H 7H 7D) set(7D 7C 7C)"]


def test_hand_one_contract_lists_each_pair_of_ranks() -> None:
    hand = parse_cards("7H 7S 7D 9C 9D JK QS QH")
    found = {" ".join(str(m) for m in c) for c in contracts(1, hand)}
    assert "set(7S 7H 7D) set(9D 9C JK=9)" in found  # naturals in suit order, S H D C
    assert "set(7S 7H 7D) set(QS QH JK=Q)" in found
    assert "set(9D 9C JK=9) set(QS QH JK=Q)" not in found  # only one joker for both


def test_no_contract_is_offered_when_the_hand_cannot_make_it() -> None:
    assert contracts(5, parse_cards("3H 4H 5H 6H 7H 9S TS JS")) == []


def test_it_never_offers_a_meld_that_leaves_only_the_taken_card() -> None:
    # Seat 1 takes the 9C it did not hold, so it may not discard it (R6.5); laying
    # down 7H 7S 7D + QS QH QD would leave it holding only that 9C.
    game = GameState(first_dealer=0)
    game.deal(stack(0, 1, {1: "7H 7S 7D QS QH QD"}, upcard="9C"))
    game.apply(parse_action("1 take"))
    offered = game.legal_actions()
    assert not any(isinstance(a, LayContract) for a in offered)
    assert "1 discard 9C" not in [str(a) for a in offered]
    assert "1 discard 7H" in [str(a) for a in offered]


# -- contracts the generator once missed (apply accepted them; R7.1 allows them) --------


def test_two_sets_of_one_rank_are_offered() -> None:
    # R7.1 [D]: two sets of the same rank are allowed; five 7s and a joker make two.
    found = {" ".join(str(m) for m in c) for c in contracts(1, parse_cards("7C 7C 7D 7H 7H JK 5S"))}
    assert found == {"set(7H 7H 7D) set(7C 7C JK=7)"}


def test_a_set_leaves_a_natural_for_the_run() -> None:
    # The KS goes to the run; the set of kings is made with the 2H instead (R5.2, R5.3).
    hand = parse_cards("2H AD JS KH KH KS QS QS TC TS")
    found = {" ".join(str(m) for m in c) for c in contracts(2, hand)}
    assert "set(KH KH 2H=K) run(TS JS QS KS)" in found


def test_two_runs_over_one_window_share_the_single_card_held_once() -> None:
    # One JD for two runs 9D-KD: the second run needs a wild for it (R7.1, R5.3).
    hand = parse_cards("9D 9D JD QD QD KD KD JK JK 2C")
    found = {" ".join(str(m) for m in c) for c in contracts(5, hand)}
    assert "run(9D 2C=TD JD QD KD) run(9D JK=TD JK=JD QD KD)" in found


def _random_meld(rng: random.Random, pool: Counter[Card], kind: str, length: int) -> list[Card]:
    """Cards for a random legal meld of ``kind`` (R5), taken from ``pool``; [] if it ran out."""
    wilds = [c for c in pool.elements() if c.is_wild]
    if kind == "set":
        rank = rng.randrange(1, 14)
        naturals = [c for c in pool.elements() if c.rank == rank and not c.is_joker]
        want = rng.randrange(1, length + 1) if rank != 2 else length
        cards = rng.sample(naturals, min(want, len(naturals)))
        fill = [w for w in wilds if rank != 2 or w.is_joker]
    else:
        suit = rng.choice("SHDC")
        low = rng.randrange(1, 16 - length)
        cards = [Card.of(p, suit) for p in range(low, low + length) if rng.random() < 0.7]
        cards = [c for c in cards if pool[c] > 0 and not c.is_wild] or cards[:0]
        fill = wilds
        length = len(range(low, low + length))
    need = length - len(cards)
    if not cards or need > len(fill):
        return []
    chosen = cards + rng.sample(fill, need)
    if Counter(chosen) - pool:
        return []
    pool.subtract(chosen)
    return chosen


@settings(max_examples=examples(300), deadline=None)
@given(rng=st.randoms(use_true_random=False), hand_no=st.integers(1, 5),
       extra=st.integers(0, 6))
def test_a_hand_holding_a_contract_is_offered_one_and_each_offer_lays_down(
        rng: random.Random, hand_no: int, extra: int) -> None:
    # R7.1: whenever the hand can lay its contract, the generator offers a way, and apply
    # accepts every way it offers.
    pool = Counter(full_pack())
    held: list[Card] = []
    for kind, length in CONTRACTS[hand_no]:
        meld = _random_meld(rng, pool, kind, length + rng.randrange(2))
        assume(meld)
        held += meld
    held += rng.sample(list(pool.elements()), extra)
    rng.shuffle(held)
    offered = contracts(hand_no, held)
    assert offered, f"no contract offered for hand {hand_no} from {cards_str(held)}"
    for melds in offered:
        state = HandState(hand_no, 0, [[], list(held), [], []], [], [Card.parse("9C")],
                          seat=1, phase="play")
        state.apply(LayContract(1, melds))  # raises IllegalActionError if not legal
        assert state.contract_down[1]


@settings(max_examples=examples(200), deadline=None)
@given(rng=st.randoms(use_true_random=False), extra=st.integers(0, 6))
def test_a_hand_holding_a_meld_is_offered_one_once_its_contract_is_down(
        rng: random.Random, extra: int) -> None:
    # R7.3: any set or run of at least 3 may be laid down after the contract.
    pool = Counter(full_pack())
    held = _random_meld(rng, pool, rng.choice(["set", "run"]), rng.randrange(3, 6))
    assume(held)
    held += rng.sample(list(pool.elements()), extra)
    state = HandState(1, 0, [[], list(held), [], []], [], [Card.parse("9C")],
                      contract_down=[False, True, False, False], seat=1, phase="play")
    offered = [a for a in legal_actions(state) if isinstance(a, LayMelds)]
    assert offered, f"no meld offered from {cards_str(held)}"
    for action in offered:
        state.copy().apply(action)
