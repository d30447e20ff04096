"""``Idempotency-Key`` on the API's writes: a retry is answered as the first request and
does nothing twice; the key used for another request, or malformed, is refused and changes
nothing; an error is not kept. Two requests with one key at once: test_idempotency_race.py."""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.tournaments.factories import UserFactory
from tournaments.models import IdempotentRequest, Match, Result

from .conftest import OUT, SHEET, League, database_state

pytestmark = pytest.mark.django_db


def url(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/result/"


def sheet(first_hand_a: int = 0) -> dict[str, Any]:
    scores = copy.deepcopy(SHEET)
    scores[0][0] = first_hand_a
    return {"score_sheet": {"hand_scores": scores, "out_seats": OUT}}


def post(league: League, user: Any, body: dict[str, Any], key: str | None) -> Any:
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    return league.client(user).post(url(league.match), body, format="json", **headers)


def test_a_retry_with_the_key_gets_the_first_answer_and_writes_nothing_more(
        league: League) -> None:
    first = post(league, league.organiser, sheet(), "retry-1")
    assert first.status_code == 201, first.content
    after_first = database_state()
    again = post(league, league.organiser, sheet(), "retry-1")
    assert again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert database_state() == after_first
    # without the key the same request is a second submission, refused
    assert post(league, league.organiser, sheet(), None).status_code == 409


def test_the_key_sent_with_another_body_is_refused_and_changes_nothing(
        league: League) -> None:
    assert post(league, league.organiser, sheet(), "k").status_code == 201
    before = database_state()
    response = post(league, league.organiser, sheet(first_hand_a=5), "k")
    assert response.status_code == 422
    assert response.json()["detail"].startswith("Idempotency-Key: this key was used for "
                                                "another request")
    assert database_state() == before


def test_an_error_is_not_kept_so_the_key_may_carry_the_corrected_request(
        league: League) -> None:
    bad = sheet()
    bad["score_sheet"]["out_seats"] = [9] * len(OUT)
    before = database_state()
    assert post(league, league.organiser, bad, "fix-me").status_code == 400
    assert database_state() == before
    assert post(league, league.organiser, sheet(), "fix-me").status_code == 201
    assert Result.objects.filter(match=league.match).count() == 1


@pytest.mark.parametrize("key", ["", "x" * 256, "ä-key", "tab\tkey"])
def test_a_malformed_key_is_a_400_naming_the_header(league: League, key: str) -> None:
    before = database_state()
    response = post(league, league.organiser, sheet(), key)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()
    assert database_state() == before


def test_each_person_has_their_own_keys(league: League) -> None:
    assert post(league, league.organiser, sheet(), "same").status_code == 201
    other = UserFactory(is_superuser=True)
    # another person's "same" is a request of its own: the match has its result already
    assert post(league, other, sheet(), "same").status_code == 409


def test_a_key_kept_longer_than_a_day_is_forgotten(league: League) -> None:
    assert post(league, league.organiser, sheet(), "old").status_code == 201
    IdempotentRequest.objects.update(created=timezone.now() - timedelta(days=1, seconds=1))
    assert post(league, league.organiser, sheet(), "old").status_code == 409
