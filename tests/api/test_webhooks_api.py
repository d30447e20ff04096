"""``/api/v1/webhooks/``: an organiser's own subscriptions, made with the secret shown once,
read and deleted; a key needs the organise scope; nobody sees another's."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments.models import ApiKey, WebhookSubscription
from tournaments.services import keys

from .conftest import client_of

pytestmark = pytest.mark.django_db

URL = "/api/v1/webhooks/"
BODY = {"url": "https://example.org/hook", "events": ["round.published", "result.confirmed"]}


@pytest.fixture
def organiser() -> Any:
    return UserFactory()


@pytest.fixture
def tournament(organiser: Any) -> Any:
    return tournament_with_teams(2, organisers=[organiser])


def test_an_organiser_subscribes_and_sees_the_secret_once(organiser: Any,
                                                          tournament: Any) -> None:
    client = client_of(organiser)
    made = client.post(URL, {**BODY, "tournament": tournament.pk}, format="json")
    assert made.status_code == 201, made.json()
    answer = made.json()
    stored = WebhookSubscription.objects.get()
    assert answer["secret"] == stored.secret and len(stored.secret) == 64
    assert answer["events"] == ["result.confirmed", "round.published"]
    assert (answer["format"], answer["tournament"], answer["active"]) == ("json",
                                                                          tournament.pk, True)
    listed = client.get(URL).json()["results"]
    assert [row["id"] for row in listed] == [stored.pk] and "secret" not in listed[0]
    assert "secret" not in client.get(f"{URL}{stored.pk}/").json()
    assert client.delete(f"{URL}{stored.pk}/").status_code == 204
    assert not WebhookSubscription.objects.exists()


def test_nobody_sees_or_deletes_anothers_subscription(organiser: Any,
                                                      tournament: Any) -> None:
    client_of(organiser).post(URL, BODY, format="json")
    stored = WebhookSubscription.objects.get()
    other = client_of(UserFactory())
    assert other.get(URL).json()["results"] == []
    assert other.get(f"{URL}{stored.pk}/").status_code == 404
    assert other.delete(f"{URL}{stored.pk}/").status_code == 404
    assert APIClient().get(URL).status_code == 401
    assert WebhookSubscription.objects.count() == 1


@pytest.mark.parametrize("body, field", [
    ({**BODY, "url": "file:///etc/passwd"}, "url"),
    ({**BODY, "events": ["round.played"]}, "events"),
    ({**BODY, "events": []}, "events"),
    ({**BODY, "format": "telegram"}, "format"),
    ({**BODY, "tournament": 999999}, "tournament"),
    ({"events": ["round.published"]}, "url"),
])
def test_a_bad_body_says_what_and_stores_nothing(organiser: Any, tournament: Any,
                                                 body: dict[str, Any], field: str) -> None:
    response = client_of(organiser).post(URL, body, format="json")
    assert response.status_code == 400
    assert field in str(response.json())
    assert not WebhookSubscription.objects.exists()


def test_a_tournament_one_does_not_organise_is_refused(tournament: Any) -> None:
    response = client_of(UserFactory()).post(URL, {**BODY, "tournament": tournament.pk},
                                             format="json")
    assert response.status_code == 403
    assert not WebhookSubscription.objects.exists()


def test_a_key_needs_the_organise_scope_even_to_read(organiser: Any, tournament: Any) -> None:
    _row, read_only = keys.key_create(user=organiser, name="reader",
                                      scopes=[ApiKey.Scope.READ])
    _row, organising = keys.key_create(user=organiser, name="runner",
                                       scopes=[ApiKey.Scope.ORGANISE])
    reader = APIClient(HTTP_AUTHORIZATION=f"Bearer {read_only}")
    assert reader.get(URL).status_code == 403
    assert reader.post(URL, BODY, format="json").status_code == 403
    runner = APIClient(HTTP_AUTHORIZATION=f"Bearer {organising}")
    assert runner.post(URL, BODY, format="json").status_code == 201
    assert runner.get(URL).status_code == 200


def test_a_key_limited_to_a_tournament_subscribes_to_it_alone(organiser: Any,
                                                              tournament: Any) -> None:
    _row, key = keys.key_create(user=organiser, name="one", scopes=[ApiKey.Scope.ORGANISE],
                                tournaments=[tournament])
    client = APIClient(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.post(URL, BODY, format="json").status_code == 403  # every tournament
    assert client.post(URL, {**BODY, "tournament": tournament.pk},
                       format="json").status_code == 201
