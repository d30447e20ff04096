"""The OpenAPI schema read as others read it: a client generated from the served schema
with openapi-python-client (a dev dependency, run as a subprocess) logs in and submits a
score sheet to a live server; a strict OpenAPI 3.0 validator takes the schema and the
real answers, nulls included; the schema is English whatever language is asked for."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from tournaments.models import Match, Result

from .client_generation import JSON_SCHEMA
from .conftest import OUT, SHEET, League, seated_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(committed_league: League) -> League:
    """Committed, for the live server to read (so every test here takes it so: a module's
    shared league is kept in a transaction)."""
    return committed_league


def served_schema(**headers: str) -> dict[str, Any]:
    response = APIClient().get("/api/v1/schema/", **{**JSON_SCHEMA, **headers})
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


def test_a_generated_client_logs_in_and_submits_a_score_sheet(
        league: League, generated: ModuleType, live_server: Any) -> None:
    from push_api_client import AuthenticatedClient, Client
    from push_api_client.api.auth import auth_token_create
    from push_api_client.api.matches import matches_result_create, matches_retrieve
    from push_api_client.models import (
        AuthTokenRequest,
        MatchDetail,
        ResultSubmissionRequest,
        ScoreSheetRequest,
    )

    user = seated_user(league.match, 0)
    user.set_password("a long pass phrase")
    user.save()
    seated = {seat.position: seat.player for seat in league.match.seats.all()}

    # (closed after use: a kept-alive connection would hold the server's database session)
    with Client(base_url=live_server.url) as anonymous:
        login = auth_token_create.sync_detailed(client=anonymous, body=AuthTokenRequest(
            username=user.username, password="a long pass phrase"))
        # a bot's seat and a match without a result read back as None, not as an error
        other = matches_retrieve.sync(league.substituted.pk, client=anonymous)
    assert login.status_code == 200, login.content
    with AuthenticatedClient(base_url=live_server.url, token=login.parsed.token,
                             prefix="Token") as client:
        answer = matches_result_create.sync_detailed(
            league.match.pk, client=client,
            body=ResultSubmissionRequest(score_sheet=ScoreSheetRequest(hand_scores=SHEET,
                                                                       out_seats=OUT)))

    assert answer.status_code == 201, answer.content
    match = answer.parsed
    assert isinstance(match, MatchDetail)
    assert match.result.totals == [sum(s[0] for s in SHEET), sum(s[1] for s in SHEET)]
    assert [hand.out_seat for hand in match.result.hands] == OUT
    assert [seat.player.name for seat in match.seats] == [seated[p].name for p in range(4)]
    stored = Result.objects.get(match=league.match)
    assert (stored.hand_scores, stored.out_seats) == (SHEET, OUT)
    assert stored.source == Result.Source.SHEET

    assert isinstance(other, MatchDetail)
    assert other.result is None
    assert None in [seat.player for seat in other.seats]


def test_the_schema_served_to_a_finnish_browser_is_in_english() -> None:
    english = served_schema()

    for headers in ({"HTTP_ACCEPT_LANGUAGE": "fi"}, {"HTTP_COOKIE": "django_language=fi"}):
        finnish = served_schema(**headers)
        assert finnish == english
    text = json.dumps(english)
    assert "identifying this match" in text and "ottelu" not in text


def test_the_token_endpoint_has_one_body_type_and_every_body_is_required() -> None:
    paths = served_schema()["paths"]
    token = paths["/api/v1/auth/token/"]["post"]["requestBody"]
    submit = paths["/api/v1/matches/{id}/result/"]["post"]["requestBody"]

    assert list(token["content"]) == ["application/json"]
    assert token["required"] is True and submit["required"] is True


def test_the_schema_is_valid_openapi_3_0() -> None:
    schema = served_schema()

    assert schema["openapi"].startswith("3.0.")
    validate(schema)  # raises, naming the place, when it is not


def validator(schema: dict[str, Any], component: str) -> OAS30Validator:
    """A strict OpenAPI 3.0 validator of ``component``: ``nullable`` counts only beside a
    ``type``, as the 3.0.3 specification says."""
    return OAS30Validator({"components": schema["components"],
                           "allOf": [{"$ref": f"#/components/schemas/{component}"}]})


def test_real_answers_with_nulls_are_valid_under_a_strict_3_0_reader(league: League) -> None:
    schema = served_schema()
    client = APIClient()
    bot_seat = next(s for s in league.substituted.seats.all() if s.player is None)
    answers = {
        "MatchDetail": [client.get(f"/api/v1/matches/{m.pk}/").json()
                        for m in Match.objects.filter(round__tournament=league.tournament)],
        "PaginatedMatchList": [client.get("/api/v1/matches/").json()],
        "TournamentDetail": [client.get(f"/api/v1/tournaments/{league.cup.pk}/").json()],
    }
    nulls = 0
    for component, bodies in answers.items():
        for body in bodies:
            errors = [f"{list(e.absolute_path)}: {e.message}"
                      for e in validator(schema, component).iter_errors(body)]
            assert errors == [], component
            nulls += json.dumps(body).count("null")
    by_id = {answer["id"]: answer for answer in answers["MatchDetail"]}
    assert by_id[league.match.pk]["result"] is None  # round 2 has no result yet
    substituted = by_id[league.substituted.pk]
    assert substituted["seats"][bot_seat.position]["player"] is None
    assert nulls > 10
    # and the validator is strict: a null where the schema has none is refused
    assert list(validator(schema, "Seat").iter_errors({**substituted["seats"][0], "bot": None}))

