"""The verifier's four verdicts and where it reports an illegal record (push-record.md)."""

import re
from typing import Any

import pytest

from games.engine import Record, load_record, verify
from games.engine.verify import EXIT_CODES
from tests.games.packs import out_at_once, record, stack

RULE = re.compile(r"^R\d\.\d")


def game(hands: int = 5, **kwargs: Any) -> dict[str, Any]:
    """``hands`` hands of a game (first dealer 3), each won at once by its first player."""
    return record(3, [out_at_once(h, (2 + h) % 4) for h in range(1, hands + 1)], **kwargs)


def _expected_scores() -> list[list[int]]:
    """R9.1 worked out from the stacked decks alone: the first player goes out, so the
    other team pays for both its hands as dealt (R4.2)."""
    scores = []
    for h in range(1, 6):
        dealer = (2 + h) % 4
        deck, _actions = out_at_once(h, dealer)
        losers = (dealer + 2) % 2  # the team of the seat after the first player
        paid = sum(deck[i].value for i in range(4 * (5 + h)) if (dealer + 1 + i) % 2 == losers)
        scores.append([paid, 0] if losers == 0 else [0, paid])
    return scores


SCORES = _expected_scores()
TOTALS = [sum(s[0] for s in SCORES), sum(s[1] for s in SCORES)]


def test_exit_codes_follow_the_status() -> None:
    assert EXIT_CODES == {"complete": 0, "incomplete": 0, "illegal": 1, "malformed": 2}


def test_a_complete_game() -> None:
    verdict = verify(game())

    assert verdict.status == "complete" and verdict.exit_code == 0
    assert [(h.hand, h.ended_by, h.out_seat) for h in verdict.hands] == [
        (1, "out", 0), (2, "out", 1), (3, "out", 2), (4, "out", 3), (5, "out", 0)]
    assert [list(h.scores) for h in verdict.hands] == SCORES
    assert list(verdict.totals) == TOTALS
    assert verdict.winner == (0 if TOTALS[0] < TOTALS[1] else 1)
    assert verdict.to_json() == {
        "status": "complete",
        "hands": [{"hand": i + 1, "ended_by": "out", "out_seat": [0, 1, 2, 3, 0][i],
                   "scores": s} for i, s in enumerate(SCORES)],
        "totals": TOTALS, "winner": verdict.winner}


@pytest.mark.parametrize("form", ["dict", "str", "bytes", "Record"])
def test_verify_takes_text_bytes_decoded_json_or_a_record(form: str) -> None:
    data = game(result={"hands": SCORES, "totals": TOTALS})
    source: Any = {"dict": data, "str": load_record(data).dumps(),
                   "bytes": load_record(data).dumps().encode(), "Record": load_record(data)}[form]
    assert verify(source).status == "complete"


@pytest.mark.parametrize("hands", [0, 1, 4])
def test_fewer_than_five_hands_is_incomplete(hands: int) -> None:
    verdict = verify(game(hands))
    assert verdict.status == "incomplete" and verdict.exit_code == 0
    assert len(verdict.hands) == hands and verdict.winner is None


def test_a_last_hand_not_yet_ended_is_incomplete() -> None:
    data = game(4)
    data["hands"].append(record(3, [(stack(3, 5), ["0 push", "0 discard AS"])])["hands"][0])
    verdict = verify(data)
    assert verdict.status == "incomplete" and len(verdict.hands) == 4


def illegal_at(data: dict[str, Any]) -> tuple[int, int, str]:
    verdict = verify(data)
    assert verdict.status == "illegal" and verdict.exit_code == 1
    assert verdict.error is not None
    assert RULE.match(verdict.error.reason), verdict.error.reason
    assert verdict.to_json()["error"]["hand"] == verdict.error.hand
    return verdict.error.hand, verdict.error.action, verdict.error.reason[:4]


def test_an_action_out_of_turn_is_illegal_at_its_hand_and_index() -> None:
    data = game(2)
    data["hands"][1]["actions"][0]["seat"] = 2
    assert illegal_at(data) == (2, 0, "R6.1")


def test_an_action_after_its_hand_ended_is_illegal() -> None:
    data = game(3)
    data["hands"][1]["actions"].append({"seat": 2, "do": "take"})
    assert illegal_at(data) == (2, 2, "R8.1")


def test_going_on_to_another_hand_before_one_ends_is_illegal_one_past_its_last_action() -> None:
    data = game(3)
    del data["hands"][1]["actions"][1]  # hand 2: the take stays, the contract is gone
    assert illegal_at(data) == (2, 1, "R8.1")


def test_a_hand_with_no_actions_followed_by_another_is_illegal_at_index_zero() -> None:
    data = game(2)
    data["hands"][0]["actions"] = []
    assert illegal_at(data) == (1, 0, "R8.1")


def test_an_illegal_verdict_keeps_the_hands_finished_before_it() -> None:
    data = game(3)
    data["hands"][2]["actions"][1]["melds"][0]["kind"] = "set"  # run declared a set
    verdict = verify(data)
    assert verdict.status == "illegal" and [h.hand for h in verdict.hands] == [1, 2]
    assert verdict.error is not None and (verdict.error.hand, verdict.error.action) == (3, 1)


def test_a_matching_claimed_result_is_complete() -> None:
    assert verify(game(result={"hands": SCORES, "totals": TOTALS})).status == "complete"


@pytest.mark.parametrize("wrong_hand", [1, 3, 5])
def test_a_claim_that_differs_is_illegal_at_the_last_action_of_the_first_differing_hand(
        wrong_hand: int) -> None:
    claimed = [list(s) for s in SCORES]
    claimed[wrong_hand - 1][0] += 5
    claimed[4][1] += 5  # hand 5 differs too, later
    data = game(result={"hands": claimed, "totals": [TOTALS[0] + 5, TOTALS[1] + 5]})
    assert illegal_at(data) == (wrong_hand, 1, "R9.1")


def test_a_claim_whose_totals_alone_differ_is_illegal_at_the_last_action_of_the_last_hand(
        ) -> None:
    data = game(result={"hands": SCORES, "totals": [TOTALS[0], TOTALS[1] + 1]})
    assert illegal_at(data) == (5, 1, "R9.2")


def test_a_claim_missing_a_finished_hand_is_illegal_at_that_hand() -> None:
    data = game(result={"hands": SCORES[:4], "totals": TOTALS})
    assert illegal_at(data) == (5, 1, "R9.1")


def test_an_incomplete_game_may_claim_the_hands_it_finished() -> None:
    two = [SCORES[0][0] + SCORES[1][0], SCORES[0][1] + SCORES[1][1]]
    data = game(2, result={"hands": SCORES[:2], "totals": two})
    data["hands"].append(record(3, [(stack(1, 3), ["2 push"])])["hands"][0])
    verdict = verify(data)
    assert verdict.status == "incomplete" and list(verdict.totals) == two


def test_an_incomplete_game_may_not_claim_a_hand_it_has_not_finished() -> None:
    data = game(2, result={"hands": SCORES[:3], "totals": [sum(s[t] for s in SCORES[:3])
                                                           for t in (0, 1)]})
    data["hands"].append(record(3, [(stack(1, 3), ["2 push", "2 discard AS"])])["hands"][0])
    assert illegal_at(data) == (3, 1, "R9.1")


def test_a_claim_of_more_hands_than_the_record_holds_is_illegal_at_its_last_hand() -> None:
    data = game(2, result={"hands": SCORES[:3], "totals": [sum(s[t] for s in SCORES[:3])
                                                           for t in (0, 1)]})
    assert illegal_at(data) == (2, 1, "R9.1")


def test_a_record_object_with_a_bad_shape_is_malformed_not_a_crash() -> None:
    good = load_record(game(5))
    six = Record(good.first_dealer, good.hands + good.hands[:1])
    short = Record(good.first_dealer, (type(good.hands[0])(good.hands[0].deck[:107],
                                                           good.hands[0].actions),))
    for bad in (six, short):
        verdict = verify(bad)
        assert verdict.status == "malformed" and verdict.exit_code == 2
        assert verdict.reason is not None and "hands" in verdict.reason


def reason_at(data: dict[str, Any]) -> tuple[int, int, str]:
    verdict = verify(data)
    assert verdict.status == "illegal" and verdict.error is not None
    return verdict.error.hand, verdict.error.action, verdict.error.reason


def test_a_claim_for_a_hand_not_finished_says_the_replay_has_none() -> None:
    # one action of hand 1, which goes on: the claim's hand 1 is the first to differ
    data = record(3, [(stack(3, 1), ["0 push"])], result={"hands": [[0, 55]], "totals": [0, 55]})
    assert reason_at(data) == (1, 0, "R9.1: the record claims [0, 55] for hand 1, the replay "
                                      "gives no finished hand")


def test_a_claim_without_a_finished_hand_says_it_claims_nothing() -> None:
    data = game(1, result={"hands": [], "totals": [0, 0]})
    assert reason_at(data) == (1, 1, f"R9.1: the record claims nothing for hand 1, the "
                                      f"replay gives {SCORES[0]}")


def test_a_claim_of_the_second_hand_names_hand_2() -> None:
    data = game(2, result={"hands": [SCORES[0], [0, 0]], "totals": SCORES[0]})
    assert reason_at(data) == (2, 1, f"R9.1: the record claims [0, 0] for hand 2, the "
                                      f"replay gives {SCORES[1]}")


def test_a_record_of_no_hands_that_claims_one_is_illegal_before_any_action() -> None:
    data = record(3, [], result={"hands": [[0, 0]], "totals": [0, 0]})
    assert reason_at(data) == (0, 0, "R9.1: the record claims [0, 0] for hand 1, the replay "
                                      "gives no finished hand")
    data = record(3, [], result={"hands": [], "totals": [0, 5]})
    assert reason_at(data) == (0, 0, "R9.2: the record claims totals [0, 5], the replay "
                                      "gives [0, 0]")
