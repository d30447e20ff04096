"""GameState is the one object a whole game is played through (R3, R9.2): its hand is
never handed out to be advanced behind its back."""

import pytest

from games.engine import GameState, IllegalActionError, legal_actions, parse_action, winner
from tests.games.packs import out_at_once


def test_playing_the_hand_the_game_shows_changes_nothing_in_the_game() -> None:
    game = GameState(first_dealer=3)
    deck, actions = out_at_once(1, 3)
    assert game.deal(deck) is None  # no hand to drive

    shown = game.hand
    for action in actions:  # seat 0 takes the upcard and goes out on its copy
        shown.apply(parse_action(action))
    shown.hands[1].clear()
    assert shown.outcome is not None

    assert game.to_move == 0 and game.results == () and game.hand.outcome is None
    assert len(game.hand.hands[1]) == 6
    for action in actions:  # the game itself still plays the hand, and records it
        game.apply(parse_action(action))
    assert game.to_move is None and [r.out_seat for r in game.results] == [0]


def test_the_game_lists_legal_actions_and_observations_of_its_hand() -> None:
    game = GameState(first_dealer=3)
    deck, actions = out_at_once(1, 3)
    game.deal(deck)
    assert game.legal_actions() == legal_actions(game.hand)
    assert [str(a) for a in game.legal_actions()] == ["0 take", "0 push"]
    assert game.observation(1) == game.hand.observation(1)
    assert game.observation(1).hand != game.observation(0).hand  # each seat its own cards

    for action in actions:
        game.apply(parse_action(action))
    assert game.legal_actions() == []  # the hand is over: deal the next one
    assert game.observation(0).hand == ()  # seat 0 went out


def test_before_the_first_deal_there_is_no_hand_to_play_or_show() -> None:
    game = GameState(first_dealer=0)
    assert game.to_move is None and not game.is_over
    for use in (game.legal_actions, lambda: game.observation(0), lambda: game.hand,
                lambda: game.apply(parse_action("1 take"))):
        with pytest.raises(IllegalActionError) as err:
            use()
        assert err.value.rule == "R4.2"


def test_a_games_results_cannot_be_rewritten_from_outside() -> None:
    game = GameState(first_dealer=3)
    deck, actions = out_at_once(1, 3)
    game.deal(deck)
    for action in actions:
        game.apply(parse_action(action))
    with pytest.raises(AttributeError):
        game.results.append(game.results[0])
    with pytest.raises(AttributeError):
        game.first_dealer = 1
    assert len(game.results) == 1 and game.first_dealer == 3


@pytest.mark.parametrize("totals, team", [((240, 240), None), ((235, 240), 0),
                                          ((245, 240), 1), ((0, 0), None)])
def test_r9_2_the_team_with_the_lower_game_score_wins(totals: tuple[int, int],
                                                      team: int | None) -> None:
    assert winner(totals) == team
