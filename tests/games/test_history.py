"""A game keeps its history (like python-chess's ``Board.move_stack``): its packs as dealt
and its actions hand by hand; ``GameState.record`` writes them as push-record/1 and
``GameState.from_record`` plays a record back through the rules, saying where it breaks."""

import dataclasses
import functools
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import make_bot
from games.engine import (
    Action,
    Deal,
    GameState,
    HandRecord,
    IllegalActionError,
    Push,
    Record,
    Take,
    deal_from_seed,
    load_record,
    parse_action,
    play_game,
    verify,
)
from tests.games.packs import out_at_once

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
POLICIES = st.sampled_from(["random", "greedy"])
FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.lru_cache(maxsize=32)
def played(seed: int, policy: str) -> Record:
    first_dealer, decks = deal_from_seed(seed)
    return play_game([make_bot(policy, seed * 4 + seat) for seat in range(4)], first_dealer,
                     decks, players=["Ann", "Ben", "Cleo", "Dev"])


def step_by_step(seed: int, policy: str, actions: int) -> GameState:
    """A game dealt and played through ``deal`` and ``apply`` alone, stopped after
    ``actions`` actions (or at its end)."""
    first_dealer, decks = deal_from_seed(seed)
    bots = [make_bot(policy, seed * 4 + seat) for seat in range(4)]
    game = GameState(first_dealer)
    for _ in range(actions):
        if game.to_move is None:
            if game.is_over:
                break
            game.deal(decks[len(game.results)])
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(game.observation(seat), game.legal_actions()))
    return game


@FAST
@given(seed=SEEDS, policy=POLICIES)
def test_a_played_game_replayed_from_its_record_is_the_same_game(seed: int,
                                                                 policy: str) -> None:
    record = played(seed, policy)
    game = GameState.from_record(record)

    assert game.is_over and game.first_dealer == record.first_dealer
    assert game.packs == tuple(hand.deck for hand in record.hands)
    assert game.actions == tuple(hand.actions for hand in record.hands)
    assert record.result is not None
    assert tuple(r.scores for r in game.results) == record.result.hands
    assert game.totals == record.result.totals == verify(record).totals
    assert game.record(record.players) == record  # one builder: the same record again


@FAST
@given(seed=SEEDS, policy=POLICIES)
def test_a_record_round_trips_through_its_json(seed: int, policy: str) -> None:
    record = played(seed, policy)
    text = record.dumps()

    assert load_record(text) == record
    assert GameState.from_record(load_record(text)).record(record.players).dumps() == text


@FAST
@given(seed=SEEDS, policy=POLICIES, actions=st.integers(0, 500))
def test_a_game_keeps_every_pack_and_action_as_it_goes(seed: int, policy: str,
                                                       actions: int) -> None:
    """Stopped anywhere, even mid-hand, a game's record replays to the very same state:
    the same seat to move, every seat's observation, the finished hands' scores, which
    are all the record claims."""
    game = step_by_step(seed, policy, actions)
    _first_dealer, decks = deal_from_seed(seed)
    assert game.packs == tuple(tuple(deck) for deck in decks[:len(game.packs)])
    assert sum(map(len, game.actions)) == actions or game.is_over

    record = game.record()
    again = GameState.from_record(record)
    assert again.actions == game.actions and again.results == game.results
    assert again.to_move == game.to_move
    if game.packs:
        assert [again.observation(s) for s in range(4)] == [game.observation(s)
                                                            for s in range(4)]
    assert record.result is not None and record.result.hands == tuple(
        r.scores for r in game.results)
    assert verify(record).status == ("complete" if game.is_over else "incomplete")


def test_a_record_names_its_players_and_claims_its_result_only_when_asked() -> None:
    game = GameState.from_record(played(1, "random"))

    assert game.record().players is None
    assert game.record(["A", "B", "C", "D"]).players == ("A", "B", "C", "D")
    bare = game.record(result=False)
    assert bare.result is None and "result" not in bare.to_json()
    assert verify(bare).status == "complete"


def test_a_record_taken_earlier_does_not_change_as_the_game_goes_on() -> None:
    game = GameState(first_dealer=3)
    deck, actions = out_at_once(1, 3)
    game.deal(deck)
    game.apply(parse_action(actions[0]))
    before = game.record()
    history = game.actions

    game.apply(parse_action(actions[1]))
    assert before.hands[0].actions == (parse_action(actions[0]),)
    assert history == ((parse_action(actions[0]),),)
    assert game.actions == ((parse_action(actions[0]), parse_action(actions[1])),)


# -- where a record breaks ---------------------------------------------------------------

def with_action(record: Record, hand: int, index: int, action: Action) -> Record:
    """``record`` with action ``index`` of hand ``hand`` (1-based) replaced."""
    hands = list(record.hands)
    actions = list(hands[hand - 1].actions)
    actions[index] = action
    hands[hand - 1] = HandRecord(hands[hand - 1].deck, tuple(actions))
    return dataclasses.replace(record, hands=tuple(hands), result=None)


@FAST
@given(seed=SEEDS, data=st.data())
def test_from_record_refuses_an_illegal_action_and_says_where(seed: int,
                                                              data: st.DataObject) -> None:
    record = played(seed, "random")
    hand = data.draw(st.integers(1, len(record.hands)), label="hand")
    index = data.draw(st.integers(0, len(record.hands[hand - 1].actions) - 1), label="index")
    actual = record.hands[hand - 1].actions[index]
    wrong_seat = Take((actual.seat + 1) % 4)  # out of turn (R6.1)

    with pytest.raises(IllegalActionError) as refused:
        GameState.from_record(with_action(record, hand, index, wrong_seat))

    error = refused.value
    assert (error.hand, error.action, error.rule) == (hand, index, "R6.1")
    assert str(error) == f"hand {hand}, action {index}: {error.reason}"
    assert error.reason.startswith("R6.1: it is seat ")
    assert verify(with_action(record, hand, index, wrong_seat)).to_json()["error"] == {
        "hand": hand, "action": index, "reason": error.reason}


def test_from_record_refuses_an_action_after_its_hand_has_ended() -> None:
    deck, actions = out_at_once(1, 3)
    late = Push(1)
    record = Record(3, (HandRecord(tuple(deck),
                                   (*map(parse_action, actions), late)),))

    with pytest.raises(IllegalActionError) as refused:
        GameState.from_record(record)
    assert (refused.value.hand, refused.value.action, refused.value.rule) == (1, 2, "R8.1")
    assert "hand 1 has already ended" in str(refused.value)


def test_from_record_refuses_a_record_that_goes_on_before_its_hand_has_ended() -> None:
    deck, actions = out_at_once(1, 3)
    deck2, _ = out_at_once(2, 0)
    record = Record(3, (HandRecord(tuple(deck), (parse_action(actions[0]),)),
                        HandRecord(tuple(deck2), ())))

    with pytest.raises(IllegalActionError) as refused:
        GameState.from_record(record)
    assert (refused.value.hand, refused.value.action) == (1, 1)  # one past its last action
    assert refused.value.reason == ("R8.1: hand 1 has not ended, but the record goes on to "
                                    "hand 2")


def test_a_refused_step_leaves_the_game_as_the_steps_before_it_left_it() -> None:
    deck, actions = out_at_once(1, 3)
    game = GameState(first_dealer=3)
    with pytest.raises(IllegalActionError) as refused:
        game.play([Deal(deck), parse_action(actions[0]), Take(0), parse_action(actions[1])])

    assert (refused.value.hand, refused.value.action) == (1, 1)
    assert game.actions == ((parse_action(actions[0]),),) and game.to_move == 0
    game.apply(parse_action(actions[1]))  # the game goes on from there
    assert game.results[0].out_seat == 0


def test_an_action_with_no_hand_dealt_is_refused_at_the_start() -> None:
    with pytest.raises(IllegalActionError) as refused:
        GameState(first_dealer=0).play([Take(1)])
    assert (refused.value.rule, refused.value.hand, refused.value.action) == ("R4.2", 0, 0)


# -- watching a replay -------------------------------------------------------------------

def test_on_step_sees_each_deal_and_each_action_in_its_own_hand() -> None:
    record = played(2, "greedy")
    seen: list[tuple[int, int, Action | None]] = []
    games: set[int] = set()

    def watch(game: GameState, hand: int, index: int, action: Action | None) -> None:
        games.add(id(game))
        seen.append((hand, index, action))
        assert len(game.packs) == hand  # the next hand is not dealt yet
        assert game.actions[hand - 1][index] == action if action else index == -1
        if action is not None and index == len(record.hands[hand - 1].actions) - 1:
            assert game.to_move is None and len(game.results) == hand  # it ended the hand

    game = GameState.from_record(record, watch)
    assert games == {id(game)}
    assert seen == [(number, index, action)
                    for number, hand in enumerate(record.hands, start=1)
                    for index, action in [(-1, None), *enumerate(hand.actions)]]


# -- dealing when a hand is due -----------------------------------------------------------

@FAST
@given(seed=SEEDS, policy=POLICIES, cut=st.integers(0, 1000))
def test_one_stream_of_actions_is_dealt_into_hands_as_they_end(seed: int, policy: str,
                                                              cut: int) -> None:
    """A live table's log is one stream of actions; played with the seed's packs dealt
    when due, its first ``cut`` actions and then the rest give the game of the record."""
    record = played(seed, policy)
    _first_dealer, decks = deal_from_seed(seed)
    log = [action for hand in record.hands for action in hand.actions]

    game = GameState(record.first_dealer)
    game.play(game.with_deals(decks, log[:cut]))
    assert game.to_move is not None or game.is_over  # a hand that ends deals the next
    game.play(game.with_deals(decks, log[cut:]))
    assert game.record(record.players) == record


def test_each_action_is_drawn_once_its_hand_is_dealt() -> None:
    """``with_deals`` asks for an action only once the hand it belongs to is dealt (so a
    player may choose it from that hand); past the last pack's hand an action is passed
    on, for the rules to refuse."""
    record = played(3, "random")
    decks = [hand.deck for hand in record.hands[:2]]
    log = [action for hand in record.hands[:2] for action in hand.actions]
    game = GameState(record.first_dealer)
    asked: list[tuple[int, int | None]] = []

    def choices() -> Iterator[Action]:
        for action in log:
            asked.append((len(game.packs), game.to_move))
            yield action

    game.play(game.with_deals(decks, choices()))
    assert [seat for _hand, seat in asked] == [action.seat for action in log]
    assert [hand for hand, _seat in asked] == [1] * len(record.hands[0].actions) + [2] * len(
        record.hands[1].actions)
    assert game.record(record.players, result=False) == dataclasses.replace(
        record, hands=record.hands[:2], result=None)

    with pytest.raises(IllegalActionError) as refused:
        game.play(game.with_deals(decks, [record.hands[2].actions[0]]))
    assert (refused.value.hand, refused.value.action) == (2, len(record.hands[1].actions))


def test_a_record_is_replayed_only_on_a_new_game_of_its_first_dealer() -> None:
    record = played(4, "random")
    for game in (GameState((record.first_dealer + 1) % 4), GameState.from_record(record)):
        with pytest.raises(ValueError, match="new game"):
            game.play(game.replaying(record))
