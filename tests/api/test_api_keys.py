"""API keys with scopes: made once and kept as a digest, used as ``Authorization: Bearer``,
held to their scopes and tournaments, refused once revoked; and the page that makes them."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.factories import UserFactory
from tournaments.models import ApiKey, Match, Result
from tournaments.services import keys
from tournaments.services.errors import TournamentUserError

from .conftest import OUT, SHEET, League, bearer, database_state

pytestmark = pytest.mark.django_db


def submit(client: APIClient, match: Match) -> Any:
    return client.post(f"/api/v1/matches/{match.pk}/result/",
                       copy.deepcopy({"score_sheet": {"hand_scores": SHEET, "out_seats": OUT}}),
                       format="json")


def state() -> dict[str, Any]:
    # a key's last use is noted even when what it asked is refused
    return {model: rows for model, rows in database_state().items() if model != "ApiKey"}


def test_a_key_is_shown_once_and_kept_only_as_its_digest(league: League) -> None:
    row, key = keys.key_create(user=league.organiser, name="results board",
                               scopes=["read"])
    assert key.startswith(f"push_{row.prefix}_") and len(key) > 40
    stored = ApiKey.objects.filter(pk=row.pk).values().get()
    assert all(key not in str(value) for value in stored.values())
    assert stored["digest"] != key and len(stored["digest"]) == 64


def test_a_read_key_reads_as_its_person_and_its_use_is_noted(league: League) -> None:
    row, key = keys.key_create(user=league.organiser, name="board", scopes=["read"])
    response = bearer(key).get("/api/v1/tournaments/")
    assert response.status_code == 200
    row.refresh_from_db()
    assert row.last_used is not None


def test_a_key_without_the_read_scope_reads_nothing(league: League) -> None:
    _row, key = keys.key_create(user=league.organiser, name="writer", scopes=["results"])
    response = bearer(key).get("/api/v1/tournaments/")
    assert response.status_code == 403
    assert response.json()["detail"] == "this API key lacks the read scope"


def test_a_results_key_submits_a_result_as_its_person(league: League) -> None:
    _row, key = keys.key_create(user=league.organiser, name="scorer", scopes=["results"])
    response = submit(bearer(key), league.match)
    assert response.status_code == 201, response.content
    assert Result.objects.get(match=league.match).entered_by == league.organiser


@pytest.mark.parametrize("scopes", [["read"], ["organise"], ["read", "organise"]])
def test_a_key_without_the_results_scope_submits_nothing(league: League,
                                                         scopes: list[str]) -> None:
    _row, key = keys.key_create(user=league.organiser, name="reader", scopes=scopes)
    before = state()
    response = submit(bearer(key), league.match)
    assert response.status_code == 403
    assert response.json()["detail"] == "this API key lacks the results scope"
    assert state() == before


def test_a_key_limited_to_tournaments_writes_only_in_them(league: League) -> None:
    organiser = league.organiser
    league.cup.organisers.add(organiser)
    _row, elsewhere = keys.key_create(user=organiser, name="cup only", scopes=["results"],
                                      tournaments=[league.cup])
    before = state()
    response = submit(bearer(elsewhere), league.match)
    assert response.status_code == 403
    assert response.json()["detail"] == "this API key does not act in this tournament"
    assert state() == before
    _row, here = keys.key_create(user=organiser, name="league only", scopes=["results"],
                                 tournaments=[league.tournament])
    assert submit(bearer(here), league.match).status_code == 201


def test_a_key_is_limited_only_to_tournaments_its_person_organises(league: League) -> None:
    with pytest.raises(TournamentUserError, match="you do not organise Autumn Cup"):
        keys.key_create(user=league.organiser, name="x", scopes=["results"],
                        tournaments=[league.cup])
    assert not ApiKey.objects.exists()


@pytest.mark.parametrize("scopes, words", [([], "scopes: choose one or more"),
                                           (["everything"], "scopes: choose one or more")])
def test_a_key_needs_known_scopes(league: League, scopes: list[str], words: str) -> None:
    with pytest.raises(TournamentUserError, match=words):
        keys.key_create(user=league.organiser, name="x", scopes=scopes)
    assert not ApiKey.objects.exists()


def test_a_revoked_key_authenticates_nobody(league: League) -> None:
    row, key = keys.key_create(user=league.organiser, name="old", scopes=["read", "results"])
    keys.key_revoke(user=league.organiser, key_id=row.pk)
    before = state()
    for response in (bearer(key).get("/api/v1/tournaments/"), submit(bearer(key), league.match)):
        assert response.status_code == 401
        assert response.json()["detail"] == "Authorization: this API key was revoked"
    assert state() == before


@pytest.mark.parametrize("header", ["Bearer push_000000000000_nothing", "Bearer nonsense",
                                    "Bearer", "Bearer a b", "Bearer push_\u00e4_x"])
def test_an_unknown_or_malformed_key_is_401(league: League, header: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/tournaments/")
    assert response.status_code == 401
    assert response.json()["detail"].startswith("Authorization: ")


def test_a_key_whose_secret_is_changed_is_refused(league: League) -> None:
    _row, key = keys.key_create(user=league.organiser, name="k", scopes=["read"])
    response = bearer(key[:-1] + ("A" if key[-1] != "A" else "B")).get("/api/v1/tournaments/")
    assert response.status_code == 401


def test_nobody_revokes_another_persons_key(league: League) -> None:
    row, key = keys.key_create(user=league.organiser, name="mine", scopes=["read"])
    with pytest.raises(TournamentUserError):
        keys.key_revoke(user=league.cup_organiser, key_id=row.pk)
    assert bearer(key).get("/api/v1/tournaments/").status_code == 200


def test_the_keys_page_makes_a_key_shows_it_once_and_revokes_it(league: League) -> None:
    client = Client(enforce_csrf_checks=False)
    client.force_login(league.organiser)
    made = client.post("/accounts/api-keys/", {"name": "club board", "scopes": ["read"]})
    assert made.status_code == 201
    key = made.context["made"][1]
    assert key in made.content.decode()
    again = client.get("/accounts/api-keys/").content.decode()
    assert "club board" in again and key not in again
    assert bearer(key).get("/api/v1/tournaments/").status_code == 200
    row = ApiKey.objects.get()
    assert client.post(f"/accounts/api-keys/{row.pk}/revoke/").status_code == 302
    assert bearer(key).get("/api/v1/tournaments/").status_code == 401


def test_the_keys_page_says_what_is_wrong_and_makes_nothing(league: League) -> None:
    client = Client()
    client.force_login(league.organiser)
    response = client.post("/accounts/api-keys/", {"name": "", "scopes": ["sudo"]})
    assert response.status_code == 400
    page = response.content.decode()
    assert "This field is required." in page and "Select a valid choice." in page
    assert not ApiKey.objects.exists()


def test_the_keys_page_is_for_a_logged_in_person_and_revoking_needs_post(
        league: League) -> None:
    assert Client().get("/accounts/api-keys/").status_code == 302  # to the login
    row, _key = keys.key_create(user=league.organiser, name="k", scopes=["read"])
    client = Client()
    client.force_login(UserFactory())
    assert client.get(f"/accounts/api-keys/{row.pk}/revoke/").status_code == 405
    assert client.post(f"/accounts/api-keys/{row.pk}/revoke/").status_code == 404
    row.refresh_from_db()
    assert row.revoked is None
