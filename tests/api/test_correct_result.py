"""An organiser corrects a match's result through the API (``services.result_correct``, as
the admin's "correct the result" page): the sheet given replaces the scores and counts at
once; by the tournament's organisers only, with the results scope; a bad sheet a 400 naming
where that stores nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Result
from tournaments.services import keys

from .conftest import OUT, SHEET, League, client_of, database_state

pytestmark = pytest.mark.django_db

RIGHT = [[40, 0], [0, 30], [50, 0], [0, 40], [25, 0]]
RIGHT_OUT = [1, 0, 3, 2, 1]


def _entered(league: League) -> Result:
    return services.match_submit_score_sheet(match=league.match, hand_scores=SHEET,
                                             out_seats=OUT, user=league.organiser)


def _url(league: League) -> str:
    return f"/api/v1/matches/{league.match.pk}/correct-result/"


def _body(hand_scores: Any = RIGHT, out_seats: Any = RIGHT_OUT) -> dict[str, Any]:
    return {"score_sheet": {"hand_scores": copy.deepcopy(hand_scores),
                            "out_seats": list(out_seats)}}


def test_an_organiser_corrects_a_result_and_it_counts(league: League) -> None:
    _entered(league)
    answer = client_of(league.organiser).post(_url(league), _body(), format="json")
    assert answer.status_code == 200, answer.content
    result = Result.objects.get(match=league.match)
    assert result.hand_scores == RIGHT and result.out_seats == RIGHT_OUT
    assert result.confirmed and result.confirmed_by == league.organiser
    hands = answer.json()["result"]["hands"]
    assert [hand["scores"] for hand in hands] == RIGHT
    assert answer.json()["result"]["confirmed"] is True


def test_no_result_is_nothing_to_correct(league: League) -> None:
    answer = client_of(league.organiser).post(_url(league), _body(), format="json")
    assert answer.status_code == 404
    assert not Result.objects.filter(match=league.match).exists()


def test_only_the_tournaments_organisers_correct_a_result(league: League) -> None:
    _entered(league)
    before = database_state()
    assert client_of(league.cup_organiser).post(_url(league), _body(),
                                                format="json").status_code == 403
    assert APIClient().post(_url(league), _body(), format="json").status_code == 401
    assert database_state() == before


@pytest.mark.parametrize(("body", "where"), [
    ({}, "score_sheet"),
    (_body(hand_scores=SHEET[:4]), "hand_scores"),
    (_body(out_seats=[0, 1, 2, 3, 7]), "out_seats"),
    (_body(hand_scores=[[0, 40], [30, 0], [0, 50], [40, 0], [0, "x"]]), "hand_scores"),
])
def test_a_malformed_sheet_names_where_and_changes_nothing(league: League,
                                                           body: dict[str, Any],
                                                           where: str) -> None:
    _entered(league)
    before = database_state()
    answer = client_of(league.organiser).post(_url(league), body, format="json")
    assert answer.status_code == 400
    assert where in str(answer.json()), answer.json()
    assert database_state() == before


def test_a_sheet_the_rules_refuse_is_a_400_that_changes_nothing(league: League) -> None:
    _entered(league)
    before = database_state()
    # both teams cannot go out in one hand: the side that went out scores 0
    answer = client_of(league.organiser).post(
        _url(league), _body(hand_scores=[[40, 0]] * 5, out_seats=[0] * 5), format="json")
    assert answer.status_code == 400, answer.content
    assert database_state() == before


def test_a_correction_retried_with_its_key_is_answered_as_the_first(league: League) -> None:
    _entered(league)
    client = client_of(league.organiser)
    first = client.post(_url(league), _body(), format="json", HTTP_IDEMPOTENCY_KEY="fix-1")
    again = client.post(_url(league), _body(), format="json", HTTP_IDEMPOTENCY_KEY="fix-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"


def test_a_correction_takes_the_results_scope(league: League) -> None:
    _entered(league)

    def with_key(scopes: list[str]) -> APIClient:
        _row, key = keys.key_create(user=league.organiser, name=f"tool {scopes}",
                                    scopes=scopes, tournaments=[])
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
        return client

    assert with_key(["read", "organise"]).post(_url(league), _body(),
                                               format="json").status_code == 403
    assert with_key(["results"]).post(_url(league), _body(),
                                      format="json").status_code == 200
