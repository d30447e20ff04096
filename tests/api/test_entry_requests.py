"""Entry requests through the API: listed for the tournament's organisers only, approved or
refused (``services.entries``, as the admin's actions), the players told; a request in
another state refused with its state named, storing nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.entering import awaiting, stored
from tests.tournaments.factories import UserFactory
from tests.tournaments.test_admin import logged_in
from tournaments.models import Entry, EntryRequest, Notification
from tournaments.services import keys

from .conftest import client_of, counted_queries

pytestmark = pytest.mark.django_db


def test_the_organisers_list_a_tournaments_requests() -> None:
    organiser = UserFactory()
    tournament, (first, second) = awaiting(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/entry-requests/"
    listed = client_of(organiser).get(url)
    assert listed.status_code == 200
    rows = listed.json()
    assert [row["id"] for row in rows] == [first.pk, second.pk]
    assert rows[0]["state"] == "awaiting" and rows[0]["team"] == first.team_id
    assert rows[0]["asker_name"] == first.asker.name
    assert client_of(UserFactory()).get(url).status_code == 403
    assert APIClient().get(url).status_code == 401


def test_an_organiser_approves_and_refuses_and_the_players_are_told() -> None:
    organiser = UserFactory()
    tournament, (first, second) = awaiting(organiser)
    client = client_of(organiser)
    told = Notification.objects.count()
    approved = client.post(f"/api/v1/entry-requests/{first.pk}/approve/")
    assert approved.status_code == 200, approved.content
    assert approved.json()["state"] == "entered"
    assert Entry.objects.filter(tournament=tournament, team=first.team).exists()
    refused = client.post(f"/api/v1/entry-requests/{second.pk}/refuse/")
    assert refused.status_code == 200 and refused.json()["state"] == "refused"
    assert not Entry.objects.filter(tournament=tournament, team=second.team).exists()
    assert Notification.objects.count() == told + 4  # both players of each team


def test_a_request_not_awaiting_is_refused_with_its_state() -> None:
    organiser = UserFactory()
    tournament, (first, _second) = awaiting(organiser)
    client = client_of(organiser)
    assert client.post(f"/api/v1/entry-requests/{first.pk}/approve/").status_code == 200
    before = stored(tournament)
    again = client.post(f"/api/v1/entry-requests/{first.pk}/approve/")
    assert again.status_code == 400
    assert "is not awaiting approval" in again.json()["detail"]
    entered = client.post(f"/api/v1/entry-requests/{first.pk}/refuse/")
    assert entered.status_code == 400 and "withdraw" in entered.json()["detail"]
    assert stored(tournament) == before


@pytest.mark.parametrize("step", ["approve", "refuse"])
def test_only_the_tournaments_organisers_answer_a_request(step: str) -> None:
    tournament, (first, _second) = awaiting(UserFactory())
    before = stored(tournament)
    assert client_of(UserFactory()).post(
        f"/api/v1/entry-requests/{first.pk}/{step}/").status_code == 403
    assert APIClient().post(f"/api/v1/entry-requests/{first.pk}/{step}/").status_code == 401
    assert client_of(UserFactory()).post(
        "/api/v1/entry-requests/999999/approve/").status_code == 404
    assert stored(tournament) == before


def test_an_approval_retried_with_its_key_is_answered_as_the_first() -> None:
    organiser = UserFactory()
    tournament, (first, _second) = awaiting(organiser)
    client = client_of(organiser)
    url = f"/api/v1/entry-requests/{first.pk}/approve/"
    one = client.post(url, HTTP_IDEMPOTENCY_KEY="approve-1")
    two = client.post(url, HTTP_IDEMPOTENCY_KEY="approve-1")
    assert one.status_code == two.status_code == 200
    assert two.json() == one.json() and two["Idempotent-Replayed"] == "true"


def test_a_key_limited_to_other_tournaments_answers_none_here() -> None:
    organiser = UserFactory()
    tournament, (first, _second) = awaiting(organiser)
    elsewhere, _requests = awaiting(organiser, teams=0)
    _row, key = keys.key_create(user=organiser, name="tool", scopes=["organise"],
                                tournaments=[elsewhere])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    before = stored(tournament)
    answer = client.post(f"/api/v1/entry-requests/{first.pk}/approve/")
    assert answer.status_code == 403
    assert stored(tournament) == before


def test_approving_costs_no_more_queries_than_the_admins() -> None:
    organiser = UserFactory(is_staff=True)
    _tournament, (first, second) = awaiting(organiser)
    page, by_admin = counted_queries(lambda: logged_in(organiser).post(
        reverse("admin:tournaments_entryrequest_changelist"),
        {"action": "approve", "_selected_action": [first.pk]}))
    assert page.status_code == 302
    assert EntryRequest.objects.get(pk=first.pk).state == "entered"
    api, by_api = counted_queries(lambda: client_of(organiser).post(
        f"/api/v1/entry-requests/{second.pk}/approve/"))
    assert api.status_code == 200
    assert by_api <= by_admin, (by_api, by_admin)
