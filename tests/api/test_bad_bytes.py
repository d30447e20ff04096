"""No body answers 500: text PostgreSQL cannot store (a NUL character, a
lone surrogate), nesting too deep for Python, or bytes that are not UTF-8 are a 400 naming
the place, and nothing is stored. Errors under /api/ are JSON, never an HTML page."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from tournaments.models import Match

from .conftest import League, database_state

pytestmark = pytest.mark.django_db


def url(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/result/"


def post_raw(league: League, body: str | bytes) -> Any:
    """Post the body as it is (a JSON client would refuse to encode a lone surrogate)."""
    return league.client(league.organiser).post(url(league.match), body,
                                                content_type="application/json")


def with_names(record: dict[str, Any], names: list[str]) -> dict[str, Any]:
    named = copy.deepcopy(record)
    named["players"] = names
    return named


@pytest.mark.parametrize("change, place", [
    (lambda r: with_names(r, ["A", "B", "C\x00", "D"]),
     "record.players[2]: contains a NUL character"),
    (lambda r: with_names(r, ["\ud800", "B", "C", "D"]),
     "record.players[0]: contains a lone surrogate"),
    (lambda r: {**r, "note": "a\x00b"}, "record.note: contains a NUL character"),
    (lambda r: {**r, "first_dealer\udfff": 1}, "record: a key contains a lone surrogate"),
])
def test_a_legal_record_with_unstorable_text_is_a_400_naming_the_place(
        league: League, record: dict[str, Any], change: Any, place: str) -> None:
    before = database_state()
    response = post_raw(league, json.dumps({"record": change(record)}))  # \\u escapes
    assert response.status_code == 400
    assert response.json()["detail"].startswith(f"JSON parse error - {place}")
    assert database_state() == before


@pytest.mark.parametrize("depth", [20, 1_000, 100_000])
def test_a_body_nested_too_deep_is_a_400(league: League, depth: int) -> None:
    before = database_state()
    response = post_raw(league, '{"record": ' + "[" * depth + "]" * depth + "}")
    assert response.status_code == 400
    assert "nested deeper than 16 levels" in response.json()["detail"]
    assert database_state() == before


def test_a_body_that_is_not_utf8_is_a_400(league: League) -> None:
    before = database_state()
    response = post_raw(league, b'{"record": {"format": "push-record/1\xff"}}')
    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]
    assert database_state() == before


def test_the_token_endpoint_refuses_a_username_postgresql_cannot_store() -> None:
    response = Client().post("/api/v1/auth/token/", '{"username": "x\\ud800", '
                             '"password": "p"}', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"] == ("JSON parse error - username: contains a lone "
                                         "surrogate (half of a UTF-16 pair), which is not text")
    assert not Token.objects.exists()


@pytest.mark.urls("tests.api.crash_urls")
def test_an_unexpected_failure_under_the_api_is_a_json_500() -> None:
    client = Client(raise_request_exception=False)
    response = client.get("/api/v1/crash/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert "server error" in response.json()["detail"]
    page = client.get("/crash/")  # the site's pages keep Django's page
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")


def test_a_path_under_the_api_that_no_version_takes_is_a_json_404() -> None:
    response = Client().get("/api/v2/tournaments/")
    assert response.status_code == 404
    assert response.json() == {"detail": "no such endpoint"}
    assert Client().get("/no-such-page/")["Content-Type"].startswith("text/html")
