"""The OpenAPI schema, the docs page, and schemathesis over every operation of the schema:
whatever it generates (valid or not) gets no server error and an answer the schema
describes."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.contrib.staticfiles import finders
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.wsgi import application
from tests.examples import examples

from .conftest import League

pytestmark = pytest.mark.django_db

PATHS = ["/api/v1/tournaments/", "/api/v1/tournaments/{id}/",
         "/api/v1/tournaments/{id}/standings/", "/api/v1/tournaments/{id}/boards/",
         "/api/v1/tournaments/{id}/results-file/", "/api/v1/tournaments/{id}/trf/",
         "/api/v1/rounds/{id}/deal-file/",
         "/api/v1/tournaments/{id}/pair-next/", "/api/v1/tournaments/{id}/check-in/",
         "/api/v1/tournaments/{id}/entries/", "/api/v1/tournaments/{id}/entries/{team}/",
         "/api/v1/robot-events/", "/api/v1/robot-events/{id}/",
         "/api/v1/robot-events/{id}/ranking/",
         "/api/v1/rounds/", "/api/v1/rounds/{id}/", "/api/v1/rounds/{id}/publish/",
         "/api/v1/rounds/{id}/fill-seats/", "/api/v1/rounds/{id}/release-boards/",
         "/api/v1/rounds/{id}/complete/", "/api/v1/rounds/{id}/swap-teams/",
         "/api/v1/rounds/{id}/swap-seats/", "/api/v1/rounds/{id}/move-table/",
         "/api/v1/matches/", "/api/v1/matches/{id}/", "/api/v1/matches/{id}/record/",
         "/api/v1/matches/{id}/result/", "/api/v1/matches/{id}/result/confirm/",
         "/api/v1/teams/", "/api/v1/teams/{id}/",
         "/api/v1/players/", "/api/v1/players/{id}/", "/api/v1/auth/token/",
         "/api/v1/leagues/", "/api/v1/leagues/{id}/", "/api/v1/seasons/",
         "/api/v1/seasons/{id}/", "/api/v1/seasons/{id}/table/",
         "/api/v1/tournaments/{id}/schedule/", "/api/v1/tournaments/{id}/schedule/pause/",
         "/api/v1/tournaments/{id}/schedule/move-round/",
         "/api/v1/tournaments/{id}/schedule/run-now/",
         "/api/v1/tournaments/{id}/entry-requests/", "/api/v1/entry-requests/{id}/approve/",
         "/api/v1/entry-requests/{id}/refuse/", "/api/v1/matches/{id}/correct-result/",
         "/api/v1/seasons/{id}/draft-next/", "/api/v1/seasons/{id}/confirm/",
         "/api/v1/webhooks/", "/api/v1/webhooks/{id}/"]


def test_it_serves_an_openapi_schema_of_every_endpoint() -> None:
    response = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert sorted(schema["paths"]) == sorted(PATHS)
    for table in ("standings", "boards"):
        export = schema["paths"][f"/api/v1/tournaments/{{id}}/{table}/"]["get"]
        assert set(export["responses"]["200"]["content"]) == {
            "application/json", "text/csv", "application/x-ndjson"}
    submit = schema["paths"]["/api/v1/matches/{id}/result/"]["post"]
    assert {"201", "400", "401", "403", "404", "409"} <= set(submit["responses"])
    assert "tokenAuth" in schema["components"]["securitySchemes"]
    # a tournament's lists of its own things take none of the tournament list's filters
    entry_requests = schema["paths"]["/api/v1/tournaments/{id}/entry-requests/"]["get"]
    assert [p["name"] for p in entry_requests["parameters"] if p["in"] == "query"] == []


def test_it_documents_the_oauth2_flow_and_the_scope_each_operation_takes() -> None:
    schema = APIClient().get("/api/v1/schema/",
                             HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    flows = schema["components"]["securitySchemes"]["oauth2"]["flows"]
    assert list(flows) == ["authorizationCode"]
    assert flows["authorizationCode"]["authorizationUrl"] == "/oauth/authorize/"
    assert flows["authorizationCode"]["tokenUrl"] == "/oauth/token/"
    assert sorted(flows["authorizationCode"]["scopes"]) == ["organise", "read", "results"]
    for path, method, scope in (("/api/v1/tournaments/", "get", "read"),
                                ("/api/v1/tournaments/{id}/pair-next/", "post", "organise"),
                                ("/api/v1/matches/{id}/result/", "post", "results")):
        assert {"oauth2": [scope]} in schema["paths"][path][method]["security"]


def test_it_serves_swagger_ui_from_its_own_static_files() -> None:
    response = APIClient().get("/api/v1/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "https://" not in page  # no CDN
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")


# Loaded when the module is imported: building the schema reads no database. (The lazy
# ``schemathesis.pytest.from_fixture`` relies on a pytest internal that pytest 9 removed.)
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)


@pytest.fixture
def organiser_token(league: League) -> str:
    return Token.objects.create(user=league.organiser).key


@pytest.fixture
def wsgi_in_test_transaction() -> Any:
    """Keep the test's database connection open across requests to the real WSGI app, as
    Django's test client does: at the end of a request Django closes a connection that is
    not in autocommit mode, and the test's transaction is such a connection."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


# New cases every run (a failure prints how to reproduce it), with the health checks on
# but two that do not apply: the fixtures (a token, the test's transaction) are meant to
# be shared by the examples, and every example is a request through the whole stack.
@schema.parametrize()
@settings(max_examples=examples(25), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_no_operation_answers_with_a_server_error(case: Any, organiser_token: str,
                                                 wsgi_in_test_transaction: None) -> None:
    # As an organiser, so that result submission gets past authentication to the checks.
    # Every check but positive_data_acceptance: schema-valid data is refused by design where
    # the rules decide (an impossible score sheet, wrong credentials, an incomplete round).
    case.call_and_validate(headers={"Authorization": f"Token {organiser_token}"},
                           excluded_checks=[schemathesis.checks.positive_data_acceptance])


CONFORMANCE = [schemathesis.checks.not_a_server_error,
               schemathesis.checks.status_code_conformance,
               schemathesis.checks.content_type_conformance,
               schemathesis.checks.response_schema_conformance]


def test_every_real_object_is_answered_as_the_schema_says(
        league: League, organiser_token: str, wsgi_in_test_transaction: None,
        record: dict[str, Any]) -> None:
    """Generated ids rarely exist; here every object of the league is fetched (and results
    submitted) and each answer is checked against the schema."""
    from tournaments import services
    from tournaments.models import (
        Division,
        Match,
        Player,
        Round,
        Season,
        SeriesEvent,
        Team,
        Tournament,
    )
    from tournaments.models import League as LeagueModel

    services.match_submit_record(match=league.match, record=record, user=league.organiser)
    auth = {"Authorization": f"Token {organiser_token}"}
    seasons = LeagueModel.objects.create(name="Schema league", slug="schema")
    seasons.organisers.add(league.organiser)
    Division.objects.create(season=Season.objects.create(league=seasons, number=1, name="One"),
                            tournament=league.tournament, level=1)
    series = Season.objects.create(league=seasons, number=2, name="Two",
                                   kind=Season.Kind.SERIES, status=Season.Status.DRAFT)
    SeriesEvent.objects.create(season=series, tournament=league.tournament)
    objects = {"tournaments": Tournament, "rounds": Round, "matches": Match, "teams": Team,
               "players": Player, "leagues": LeagueModel, "seasons": Season}
    calls = 0
    for path, model in objects.items():
        schema[f"/api/v1/{path}/"]["GET"].Case(query={"page_size": 2}).call_and_validate(
            headers=auth, checks=CONFORMANCE)
        for pk in model.objects.values_list("pk", flat=True):
            operation = schema[f"/api/v1/{path}/{{id}}/"]["GET"]
            queries = [{}, {"include": "record"}] if path == "matches" else [{}]
            for query in queries:
                operation.Case(path_parameters={"id": pk}, query=query).call_and_validate(
                    headers=auth, checks=CONFORMANCE)
                calls += 1
    for pk in Match.objects.values_list("pk", flat=True):
        schema["/api/v1/matches/{id}/record/"]["GET"].Case(
            path_parameters={"id": pk}).call_and_validate(headers=auth, checks=CONFORMANCE)
    table = schema["/api/v1/seasons/{id}/table/"]["GET"]
    for query in ({}, {"by": "player"}, {"format": "csv"}, {"format": "ndjson"}):
        table.Case(path_parameters={"id": series.pk},
                   query=query).call_and_validate(headers=auth, checks=CONFORMANCE)
    standings = schema["/api/v1/tournaments/{id}/standings/"]["GET"]
    for query in ({}, {"round": 1}, {"round": 2}, {"format": "csv"}, {"format": "ndjson"}):
        standings.Case(path_parameters={"id": league.tournament.pk},
                       query=query).call_and_validate(headers=auth, checks=CONFORMANCE)
    submit = schema["/api/v1/matches/{id}/result/"]["POST"]
    sheet = {"score_sheet": {"hand_scores": [[0, 40], [30, 0], [0, 50], [40, 0], [0, 25]],
                             "out_seats": [0, 1, 2, 3, 0]}}
    for match, body in ((league.substituted, {"score_sheet": {}}),  # 400
                        (league.substituted, {"record": {"format": "push-record/1"}}),  # 400
                        (league.substituted, sheet),  # 201
                        (league.substituted, sheet),  # 409
                        (league.draft_match, sheet)):  # 404
        submit.Case(path_parameters={"id": match.pk}, body=body,
                    media_type="application/json").call_and_validate(
            headers=auth, checks=CONFORMANCE)
    assert calls > 20
