"""Submitting a match's result through the API: who may, what is refused, and that a refused
submission leaves the database as it was."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.factories import UserFactory
from tournaments.models import Match, Result

from .conftest import OUT, SHEET, League, database_state, seated_user

pytestmark = pytest.mark.django_db


def url(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/result/"


def sheet_body() -> dict[str, Any]:
    return copy.deepcopy({"score_sheet": {"hand_scores": SHEET, "out_seats": OUT}})


def submitter(league: League, who: str) -> Any:
    if who == "player of the match":
        return seated_user(league.match, 1)
    if who == "organiser of this tournament":
        return league.organiser
    if who == "superuser":
        return UserFactory(is_superuser=True)
    if who == "player of another match":
        return seated_user(league.substituted, 0)
    if who == "organiser of another tournament":
        return league.cup_organiser
    assert who == "a user who plays nowhere"
    return UserFactory(is_staff=False)


@pytest.mark.parametrize("who", ["player of the match", "organiser of this tournament",
                                 "superuser"])
def test_it_stores_a_score_sheet_from_those_allowed(league: League, who: str) -> None:
    user = submitter(league, who)
    response = league.client(user).post(url(league.match), sheet_body(), format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    # a player's sheet waits for the other team; an organiser's counts at once
    waits = who == "player of the match"
    assert data["id"] == league.match.pk and data["status"] == ("awaiting" if waits else "done")
    assert data["result"]["confirmed"] is not waits
    assert data["result"]["totals"] == [70, 115] and data["result"]["winner"] == "a"
    assert data["result"]["source"] == "sheet"
    assert Result.objects.get(match=league.match).entered_by == user


@pytest.mark.parametrize("who", ["player of another match", "organiser of another tournament",
                                 "a user who plays nowhere"])
def test_it_refuses_everyone_else_with_403(league: League, who: str) -> None:
    user = submitter(league, who)
    before = database_state()
    response = league.client(user).post(url(league.match), sheet_body(), format="json")
    assert response.status_code == 403
    assert "organisers" in response.json()["detail"]
    assert database_state() == before


def test_an_anonymous_submission_is_401(league: League) -> None:
    before = database_state()
    response = league.client().post(url(league.match), sheet_body(), format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert database_state() == before


def test_a_token_from_the_token_endpoint_authenticates(league: League) -> None:
    user = seated_user(league.match, 2)
    user.set_password("s3cret-pass")
    user.save()
    client = APIClient()
    response = client.post("/api/v1/auth/token/",
                           {"username": user.username, "password": "s3cret-pass"})
    assert response.status_code == 200
    assert response.json()["token"] == Token.objects.get(user=user).key
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.post(url(league.match), sheet_body(), format="json").status_code == 201


def test_a_session_submission_needs_the_csrf_token(league: League) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(league.organiser)
    before = database_state()
    response = client.post(url(league.match), sheet_body(), format="json")
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
    assert database_state() == before


def test_a_verified_record_becomes_the_result(league: League, record: dict[str, Any]) -> None:
    response = league.client(league.organiser).post(url(league.match), {"record": record},
                                                    format="json")
    assert response.status_code == 201, response.content
    result = response.json()["result"]
    assert result["totals"] == record["result"]["totals"]
    assert [h["scores"] for h in result["hands"]] == record["result"]["hands"]
    assert result["source"] == "record" and result["has_record"] is True
    stored = league.client().get(f"/api/v1/matches/{league.match.pk}/record/")
    assert stored.json() == record


@pytest.mark.parametrize("damage, status", [
    (lambda r: r["hands"][0]["actions"].insert(0, {"seat": 3, "do": "take"}), "illegal"),
    # (not reversed: the two totals can be equal, and a game's seed is drawn afresh)
    (lambda r: r["result"]["totals"].__setitem__(0, r["result"]["totals"][0] + 5), "illegal"),
    (lambda r: r["hands"][1]["deck"].pop(), "malformed"),
    (lambda r: (r["hands"].pop(), r.pop("result")), "incomplete"),
])
def test_a_refused_record_names_hand_action_and_rule_and_stores_nothing(
        league: League, record: dict[str, Any], damage: Any, status: str) -> None:
    damaged = copy.deepcopy(record)
    damage(damaged)
    before = database_state()
    response = league.client(league.organiser).post(url(league.match), {"record": damaged},
                                                    format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["status"] == status and body["reason"] and body["detail"]
    if status == "illegal":
        assert isinstance(body["hand"], int) and isinstance(body["action"], int)
        assert body["reason"].startswith("R")
        assert body["detail"].startswith(f"hand {body['hand']}, action {body['action']}: ")
    assert database_state() == before


def test_an_impossible_score_sheet_says_where_and_stores_nothing(league: League) -> None:
    body = sheet_body()
    body["score_sheet"]["hand_scores"][0] = [5, 40]
    before = database_state()
    response = league.client(league.organiser).post(url(league.match), body, format="json")
    assert response.status_code == 400
    said = f"hand 1: {league.match.team_a.name} went out (seat 0), so it scores 0, not 5"
    assert said in response.json()["reason"]
    assert database_state() == before


@pytest.mark.parametrize("body, where", [
    ({}, "non_field_errors"),
    ({"record": {}, "score_sheet": {"hand_scores": SHEET, "out_seats": OUT}},
     "non_field_errors"),
    ({"record": "not an object"}, "record"),
    ({"record": [1, 2]}, "record"),
    ({"score_sheet": {"hand_scores": SHEET[:4], "out_seats": OUT}}, "score_sheet"),
    ({"score_sheet": {"hand_scores": [*SHEET[:4], [0, "x"]], "out_seats": OUT}},
     "score_sheet"),
    ({"score_sheet": {"hand_scores": SHEET, "out_seats": [0, 1, 2, 3, 4]}}, "score_sheet"),
    ({"score_sheet": {"hand_scores": SHEET}}, "score_sheet"),
    ({"score_sheet": "5 hands"}, "score_sheet"),
    ([1, 2, 3], "non_field_errors"),
])
def test_malformed_input_is_a_400_saying_what_and_where(league: League, body: Any,
                                                        where: str) -> None:
    before = database_state()
    response = league.client(league.organiser).post(url(league.match), body, format="json")
    assert response.status_code == 400, response.content
    assert where in response.json()
    assert database_state() == before


def test_the_position_of_a_bad_value_is_named(league: League) -> None:
    body = {"score_sheet": {"hand_scores": [*SHEET[:4], [0, "x"]], "out_seats": OUT}}
    response = league.client(league.organiser).post(url(league.match), body, format="json")
    assert response.json() == {"score_sheet": {"hand_scores": {"4": {"1": [
        "A valid integer is required."]}}}}


def test_a_body_that_is_not_json_is_a_400_and_not_json_is_a_415(league: League) -> None:
    client = league.client(league.organiser)
    response = client.post(url(league.match), "{oops", content_type="application/json")
    assert response.status_code == 400 and "JSON parse error" in response.json()["detail"]
    response = client.post(url(league.match), "hand_scores=1", content_type="text/plain")
    assert response.status_code == 415
    assert not Result.objects.filter(match=league.match).exists()


def test_a_second_result_is_a_409_and_changes_nothing(league: League,
                                                      record: dict[str, Any]) -> None:
    client = league.client(league.organiser)
    assert client.post(url(league.match), sheet_body(), format="json").status_code == 201
    before = database_state()
    for body in (sheet_body(), {"record": record}, {}):
        response = client.post(url(league.match), body, format="json")
        assert response.status_code == 409
        assert "already has a result" in response.json()["detail"]
    assert database_state() == before


def test_a_result_that_lands_after_the_early_check_is_still_a_409(
        league: League, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two submissions race: this one passed the early check before the other was stored;
    # the service's check under the row lock refuses it (ResultExists), and the API says 409.
    client = league.client(league.organiser)
    assert client.post(url(league.match), sheet_body(), format="json").status_code == 201
    before = database_state()
    monkeypatch.setattr("tournaments.api.results._has_result", lambda match: False)
    response = client.post(url(league.match), sheet_body(), format="json")
    assert response.status_code == 409
    assert "already has a result" in response.json()["detail"]
    assert database_state() == before


def test_an_unknown_match_is_a_404(league: League) -> None:
    client = league.client(league.organiser)
    for match_id in ("999999", "99999999999999999999999"):
        response = client.post(f"/api/v1/matches/{match_id}/result/", sheet_body(),
                               format="json")
        assert response.status_code == 404


def test_a_draft_match_is_hidden_from_others_and_refused_to_its_organiser(
        league: League) -> None:
    before = database_state()
    response = league.client(league.organiser).post(url(league.draft_match), sheet_body(),
                                                     format="json")
    assert response.status_code == 404
    response = league.client(league.cup_organiser).post(url(league.draft_match), sheet_body(),
                                                        format="json")
    assert response.status_code == 400
    assert "publish the round" in response.json()["detail"]
    assert database_state() == before


def test_a_score_sheet_may_wait_for_a_second_organiser(league: League) -> None:
    league.tournament.confirm_score_sheets = True
    league.tournament.save()
    response = league.client(league.organiser).post(url(league.match), sheet_body(),
                                                    format="json")
    assert response.status_code == 201
    data = response.json()
    assert data["status"] == "awaiting" and data["result"]["confirmed"] is False


def test_the_response_body_is_json_even_when_the_request_says_nothing(league: League) -> None:
    response = league.client(league.organiser).generic(
        "POST", url(league.match), json.dumps(sheet_body()), content_type="application/json")
    assert response.status_code == 201
    assert response["Content-Type"] == "application/json"


def test_a_stored_result_brings_the_current_standings_up_to_date(
        league: League, django_capture_on_commit_callbacks: Any,
        eager_tasks: None) -> None:
    standings = f"/api/v1/tournaments/{league.tournament.pk}/standings/"
    client = league.client(league.organiser)
    before = {r["team_id"]: r["played"] for r in client.get(standings).json()["rows"]}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(url(league.match), sheet_body(), format="json")
    assert response.status_code == 201 and len(callbacks) == 1
    after = {r["team_id"]: r["played"] for r in client.get(standings).json()["rows"]}
    teams = {league.match.team_a_id, league.match.team_b_id}
    assert after == {team: played + (team in teams) for team, played in before.items()}


def test_an_unconfirmed_score_sheet_leaves_the_standings_alone(
        league: League, django_capture_on_commit_callbacks: Any) -> None:
    league.tournament.confirm_score_sheets = True
    league.tournament.save()
    with django_capture_on_commit_callbacks() as callbacks:
        response = league.client(league.organiser).post(url(league.match), sheet_body(),
                                                        format="json")
    assert response.status_code == 201 and callbacks == []


def test_a_wrong_token_is_401_even_where_anonymous_users_may_read(league: League) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert client.get("/api/v1/tournaments/").status_code == 401
    assert client.post(url(league.match), sheet_body(), format="json").status_code == 401
