"""Teams and scores (R1.1, R9)."""

from games.engine import GameState, HandState, parse_action, penalty, team_of, verify
from tests.games.packs import cards, out_at_once, play, record


def test_r1_1_seats_0_and_2_are_team_0_seats_1_and_3_team_1() -> None:
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert team_of(0) == team_of(2) != team_of(1) == team_of(3)


def test_r1_1_a_seat_outside_0_to_3_makes_a_record_malformed() -> None:
    deck, actions = out_at_once(1, 3)
    for seat in (4, -1):
        data = record(3, [(deck, actions)])
        data["hands"][0]["actions"][1]["seat"] = seat
        verdict = verify(data)
        assert verdict.status == "malformed"
        assert "hands[0].actions[1].seat" in (verdict.reason or "")
        assert "R1.1" in (verdict.reason or "")


def out_hand(hand_no: int, dealer: int, others: dict[int, str]) -> HandState:
    deck, actions = out_at_once(hand_no, dealer, others)
    return play(HandState.deal(hand_no, dealer, deck), *actions)


def test_r1_1_r9_1_seat_2_going_out_clears_team_0_not_team_1() -> None:
    others = {0: "AS AH KS KH 3C 3D", 1: "JK 2C 9D 9C TD TC", 3: "4C 4D 5C 5D 6C 6D"}
    state = out_hand(1, 1, others)  # dealer 1: seat 2 moves first

    assert state.outcome is not None and state.outcome.out_seat == 2
    assert state.hands[0] == cards(others[0])  # seat 0's cards cost nothing: partner went out
    assert state.outcome.scores == (0, 70 + 30)


def test_r1_1_r9_1_seat_1_going_out_clears_team_1_and_both_of_team_0_pay() -> None:
    others = {0: "AS AH KS KH 3C 3D", 2: "JK 2C 9D 9C TD TC", 3: "4C 4D 5C 5D 6C 6D"}
    state = out_hand(1, 0, others)

    assert state.outcome is not None and state.outcome.out_seat == 1
    assert state.outcome.scores == (60 + 70, 0)


def test_r9_1_after_stock_exhaustion_both_teams_pay_for_both_partners() -> None:
    hands = ["AS AH KS KH 3C 3D", "JK 2C 9D 9C TD TC", "4C 4D 5C 5D 6C 6D", "QS QH 7D 7C 8H 2H"]
    state = HandState(1, 3, [cards(h) for h in hands], [], cards("8C"), seat=0)
    play(state, "0 push")  # R6.4 on an empty stock

    assert state.outcome is not None and state.outcome.ended_by == "stock"
    assert state.outcome.scores == (60 + 30, 70 + 55)


def test_r9_1_the_penalty_is_what_is_left_in_hand_not_what_was_melded() -> None:
    others = {1: "3C 3D 3H 3S 4C 4D", 3: "4H 4S 5C 5D 5H 5S"}
    state = out_hand(1, 3, others)
    assert state.outcome is not None and state.outcome.scores == (0, 60)
    assert penalty(p.card for m in state.melds for p in m.cards) == 50


#: fd = 3: hands 1, 3, 5 are opened (and won at once) by team 0, hands 2 and 4 by team 1.
DRAW = {
    1: {1: "3C 3D 3H 3S 4C 4D", 3: "4H 4S 5C 5D 5H 5S"},  # team 1 pays 60
    2: {0: "TC TD TH TS JC JD JH", 2: "3C 3D 3H 3S 8C 8D 8H"},  # team 0 pays 105
    3: {1: "3C 3D 3H 4C 4D 4H 5C 5D", 3: "5H 6C 6D 6H 7C 7D 7H 8C"},  # team 1 pays 80
    4: {0: "TC TD TH TS JC JD JH JS QC", 2: "3C 3D 3H 3S 4C 4D 4H 4S 6C"},  # team 0 pays 135
    5: {1: "3D 3H 3S 4D 4H 4S 5D 5H 5S 6D", 3: "6H 6S 7D 7H 7S 8C 8D 8H 8S 9C"},  # 100
}


def five_hands(others: dict[int, dict[int, str]]) -> GameState:
    game = GameState(first_dealer=3)
    for hand_no in range(1, 6):
        deck, actions = out_at_once(hand_no, (3 + hand_no - 1) % 4, others[hand_no])
        game.deal(deck)
        for action in actions:
            game.apply(parse_action(action))
    return game


def test_r9_2_the_game_score_is_the_sum_of_the_hand_scores() -> None:
    game = five_hands(DRAW)
    assert [r.scores for r in game.results] == [(0, 60), (105, 0), (0, 80), (135, 0), (0, 100)]
    assert game.totals == (240, 240)


def test_r9_2_equal_game_scores_are_a_draw() -> None:
    game = five_hands(DRAW)
    assert game.is_over and game.winner is None

    data = record(3, [out_at_once(h, (2 + h) % 4, DRAW[h]) for h in range(1, 6)],
                  result={"hands": [[0, 60], [105, 0], [0, 80], [135, 0], [0, 100]],
                          "totals": [240, 240]})
    verdict = verify(data)
    assert verdict.status == "complete" and verdict.winner is None
    assert verdict.to_json()["winner"] is None and verdict.totals == (240, 240)


def test_r9_2_the_lower_game_score_wins() -> None:
    # one five-point card of team 1's in hand 5 becomes a ten: team 1 pays 245 and loses
    others = {h: dict(seats) for h, seats in DRAW.items()}
    others[5][1] = others[5][1].replace("6D", "KD")
    game = five_hands(others)
    assert game.totals == (240, 245) and game.winner == 0

    others[5][1] = DRAW[5][1]
    others[2][0] = others[2][0].replace("JH", "9S")  # team 0 pays 5 less in hand 2
    game = five_hands(others)
    assert game.totals == (235, 240) and game.winner == 0
    others[2][0] = others[2][0].replace("9S", "AS")  # and now 10 more
    game = five_hands(others)
    assert game.totals == (245, 240) and game.winner == 1


def test_r9_2_an_unfinished_game_has_no_winner_yet() -> None:
    game = GameState(first_dealer=3)
    deck, actions = out_at_once(1, 3, DRAW[1])
    game.deal(deck)
    for action in actions:
        game.apply(parse_action(action))
    assert not game.is_over and game.winner is None and game.totals == (0, 60)
