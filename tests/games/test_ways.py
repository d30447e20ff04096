"""Ways to play chosen cards (games/engine/ways.py): everything offered is accepted by the
full state's ``apply``, the generator's own meld actions are among the ways for their cards,
and requests that are not the seat's to make are refused naming the rule."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import make_bot
from games.engine import (
    Action,
    Card,
    GameState,
    HandState,
    IllegalActionError,
    LayContract,
    LayMelds,
    LayOff,
    MeldSpec,
    Swap,
)
from games.engine.cards import parse_cards
from games.engine.melds import build_meld
from games.engine.play import deal_from_seed
from games.engine.ways import LIMIT, ways
from tests.examples import examples

MELD_ACTIONS = (LayContract, LayMelds, LayOff, Swap)


def cards_of(action: Action) -> list[Card]:
    if isinstance(action, LayContract | LayMelds):
        return [p.card for spec in action.melds for p in spec.cards]
    if isinstance(action, LayOff):
        return [p.card for p in action.cards]
    assert isinstance(action, Swap)
    return [action.card]


def meld_of(action: Action) -> int | None:
    return action.meld if isinstance(action, LayOff | Swap) else None


def same_move(action: Action) -> tuple[object, ...]:
    """An action up to the order of cards that does not matter: melds in an action, cards
    in a set, cards laid off (their places follow from what they stand for)."""
    def meld(spec: MeldSpec) -> str:
        cards = [str(p) for p in spec.cards]
        return f"{spec.kind}({' '.join(sorted(cards) if spec.kind == 'set' else cards)})"

    if isinstance(action, LayContract | LayMelds):
        return type(action), tuple(sorted(meld(m) for m in action.melds))
    if isinstance(action, LayOff):
        return LayOff, action.meld, tuple(sorted(str(p) for p in action.cards))
    return (str(action),)


def decisions(seed: int, hands: int = 2) -> Iterator[GameState]:
    """The game at each decision of bots playing it (greedy, with some random moves, so
    swaps and their pending wilds come up too)."""
    rng = random.Random(seed)
    first_dealer, decks = deal_from_seed(seed)
    game = GameState(first_dealer)
    bots = [make_bot("greedy", seed + seat) for seat in range(4)]
    for deck in decks[:hands]:
        game.deal(deck)
        while (seat := game.to_move) is not None:
            yield game
            legal = game.legal_actions()
            swaps = [a for a in legal if isinstance(a, Swap)]
            if swaps and rng.random() < 0.5:
                game.apply(rng.choice(swaps))
            elif rng.random() < 0.2:
                game.apply(rng.choice(legal))
            else:
                game.apply(bots[seat].choose(game.observation(seat), legal))


@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_the_generators_meld_actions_are_ways_and_every_way_is_legal(seed: int) -> None:
    for game in decisions(seed):
        seat, hand = game.to_move, game.hand
        assert seat is not None
        obs = game.observation(seat)
        for action in game.legal_actions():
            if not isinstance(action, MELD_ACTIONS):
                continue
            found = ways(obs, cards_of(action), meld_of(action), limit=10_000)
            assert same_move(action) in {same_move(w) for w in found}, (str(action), obs)
            for way in found[:LIMIT]:
                assert sorted(cards_of(way)) == sorted(cards_of(action))
                hand.copy().apply(way)  # raises IllegalActionError if not legal


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), data=st.data())
def test_ways_for_random_cards_of_a_hand_are_legal_and_distinct(
        seed: int, data: st.DataObject) -> None:
    game = next(g for g in decisions(seed) if g.hand.phase == "play")
    seat, hand = game.to_move, game.hand
    assert seat is not None
    held = hand.hands[seat]
    chosen = data.draw(st.lists(st.sampled_from(range(len(held))), min_size=1, max_size=9,
                                unique=True))
    cards = [held[i] for i in chosen]
    meld = data.draw(st.none() | st.sampled_from(range(len(hand.melds)))
                     if hand.melds else st.none())
    found = ways(game.observation(seat), cards, meld)
    assert len(found) <= LIMIT
    assert len({str(w) for w in found}) == len(found)
    assert [str(w) for w in found] == [str(w) for w in ways(game.observation(seat), cards,
                                                             meld)]  # a fixed order
    for way in found:
        assert sorted(cards_of(way)) == sorted(cards)
        hand.copy().apply(way)


def hand_state(hand: str, melds: tuple[str, ...] = (), *, down: bool = False,
               hand_no: int = 1, taken: str | None = None) -> HandState:
    """Seat 0 to meld, holding ``hand``, with ``melds`` (owned by seat 1) on the table."""
    hands = [parse_cards(hand), [], [], []]
    table = [build_meld(MeldSpec.parse(m), meld_id=i, owner=1) for i, m in enumerate(melds)]
    return HandState(hand_no, 3, hands, [], parse_cards("9D"), table, [down, False, False, False],
                     0, "play", None if taken is None else Card.parse(taken))


def texts(state: HandState, cards: str, meld: int | None = None) -> list[str]:
    return [str(a) for a in ways(state.observation(0), parse_cards(cards), meld)]


def test_a_joker_with_two_hearts_stands_below_or_above_them() -> None:
    state = hand_state("5H 6H JK 9C", ("run(7S 8S 9S)",), down=True)
    assert texts(state, "5H 6H JK") == ["0 meld run(JK=4H 5H 6H)", "0 meld run(5H 6H JK=7H)"]
    assert texts(state, "JK", 0) == ["0 layoff 0 JK=TS", "0 layoff 0 JK=6S"]


def test_two_wilds_are_placed_every_way_and_the_cards_split_into_melds() -> None:
    state = hand_state("5H 6H 7H 8H JK 2C 4D", down=True)
    found = texts(state, "5H 6H 7H 8H JK 2C")
    assert found[0] == "0 meld run(2C=3H JK=4H 5H 6H 7H 8H)"
    assert "0 meld run(JK=3H 2C=4H 5H 6H 7H 8H)" in found
    assert "0 meld run(5H 6H 7H 8H 2C=9H JK=TH)" in found
    assert len(found) == LIMIT  # capped: splits into two runs come after the single runs


def test_the_contract_takes_every_split_and_declaration() -> None:
    state = hand_state("7H 7S JK QS QD 2C 4D")
    assert texts(state, "7H 7S JK QS QD 2C") == [
        "0 contract set(7S 7H 2C=7) set(QS QD JK=Q)",
        "0 contract set(7S 7H JK=7) set(QS QD 2C=Q)",
    ]
    assert texts(state, "7H 7S JK") == []  # one set is not the contract (R7.1)


def test_a_natural_card_swaps_each_wild_it_may_replace_or_lays_off() -> None:
    state = hand_state("QH 8S 4D", ("run(7S JK=8S 9S)", "set(QS QD 2C=Q JK=Q)"), down=True)
    assert texts(state, "8S", 0) == ["0 swap 0 8S JK"]
    assert texts(state, "QH", 1) == ["0 layoff 1 QH", "0 swap 1 QH 2C", "0 swap 1 QH JK"]


def test_a_swapped_wild_is_laid_off_elsewhere_only() -> None:
    state = hand_state("QH 8S 4D", ("run(7S JK=8S 9S)", "set(QS QD 2C=Q)"), down=True)
    state.apply(Swap(0, 0, Card.parse("8S"), Card.parse("JK")))
    assert texts(state, "JK", 0) == []  # not back into its own meld (R7.4)
    assert texts(state, "JK", 1) == ["0 layoff 1 JK=Q"]


def test_it_leaves_out_a_meld_that_strands_the_taken_card() -> None:
    # 9C was taken and may not be discarded (R6.5): melding the rest would leave only it.
    state = hand_state("7H 7S 7D QS QH QD 9C", taken="9C")
    assert texts(state, "7H 7S 7D QS QH QD") == []
    state = hand_state("7H 7S 7D QS QH QD 9C 4D", taken="9C")
    assert texts(state, "7H 7S 7D QS QH QD") == ["0 contract set(7S 7H 7D) set(QS QH QD)"]


@pytest.mark.parametrize(("cards", "meld", "rule", "says"), [
    ("7H 8C", None, "R7.3", "8C not in seat 0's hand"),
    ("7H 7H", None, "R7.3", "7H not in seat 0's hand"),
    ("", None, "R7.3", "at least one card"),
    ("7H", 5, "R7.3", "no meld 5"),
])
def test_a_request_beyond_the_seats_cards_is_refused(
        cards: str, meld: int | None, rule: str, says: str) -> None:
    state = hand_state("7H 7S 7D 4D", ("set(QS QD QH)",), down=True)
    with pytest.raises(IllegalActionError) as refused:
        ways(state.observation(0), parse_cards(cards), meld)
    assert refused.value.rule == rule and says in refused.value.message


def test_only_the_seat_to_move_may_ask_and_only_after_its_draw() -> None:
    state = hand_state("7H 7S 7D 4D", down=True)
    with pytest.raises(IllegalActionError) as refused:
        ways(state.observation(1), [], None)
    assert refused.value.rule == "R6.1"
    state.phase = "draw"
    with pytest.raises(IllegalActionError) as refused:
        ways(state.observation(0), parse_cards("7H 7S 7D"))
    assert refused.value.rule == "R6.2"


@pytest.mark.parametrize(("hand", "chosen", "way"), [
    ("7S 7D 7C 7H", "7S 7D 7C", "0 meld set(7S 7D 7C)"),  # then 7H onto the set
    ("7H 8H 9H 6H", "7H 8H 9H", "0 meld run(7H 8H 9H)"),  # then 6H below the run
    ("JH QH KH AH", "JH QH KH", "0 meld run(JH QH KH)"),  # then AH above it, ace high
])
def test_r6_5_a_meld_that_may_take_the_taken_card_afterwards_is_a_way(
        hand: str, chosen: str, way: str) -> None:
    # the last card of the hand was taken this turn and no meld on the table takes it, so
    # it may not be discarded (R6.5): the new meld must be one it can be laid off on (R7.3)
    state = hand_state(hand, down=True, taken=hand.split()[-1])
    assert texts(state, chosen) == [way]


def test_r5_4_a_set_of_2s_takes_a_joker_and_each_2_stands_for_itself_elsewhere() -> None:
    state = hand_state("2H 2S JK 4D", down=True)
    found = texts(state, "2H 2S JK")
    assert found[-1] == "0 meld set(2S 2H JK=2)"
    assert "0 meld run(JK=AH 2H 2S=3H)" in found and "0 meld run(JK=AS 2S 2H=3S)" in found
    assert len(found) == 9


def test_r5_3_a_run_of_all_fourteen_places_is_a_way() -> None:
    run = "AH JK 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    state = hand_state(run + " 4D", down=True)
    found = [str(a) for a in ways(state.observation(0), parse_cards(run), budget=10_000)]
    assert found[0] == "0 meld run(AH JK=2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH)"


def test_r5_3_an_ace_lays_off_below_a_run_that_starts_at_two_and_above_one_at_king() -> None:
    state = hand_state("AH AS 9C", ("run(JK=2H 3H 4H 5H)", "run(JS QS KS)"), down=True)
    assert texts(state, "AH", 0) == ["0 layoff 0 AH"]  # position 1, below the 2
    assert texts(state, "AS", 1) == ["0 layoff 1 AS"]  # position 14, above the king
