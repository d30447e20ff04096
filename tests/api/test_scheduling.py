"""An online tournament's schedule through the API: set (or replaced) by PUT, paused and
resumed, a round moved, its next step run now; by its organisers only, each the service the
admin's page and console call, a bad body a 400 naming the field that stores nothing, and
no more queries than the admin's page for the same schedule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.admin_forms import admin_form_data
from tests.tournaments.admin_forms import schedule_form_data as form_data
from tests.tournaments.factories import UserFactory, tournament_with_teams
from tests.tournaments.schedule_helpers import scheduled
from tests.tournaments.test_admin import logged_in
from tournaments import services
from tournaments.models import Round, Schedule, Tournament
from tournaments.services import keys
from tournaments.services.schedule import LEASE

from .conftest import client_of, counted_queries, database_state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

BODY = {"time_zone": "Europe/Helsinki", "starts_at": "2027-01-15T18:00+02:00",
        "round_times": {"2": "2027-01-15T19:30+02:00"}, "interval_minutes": 10,
        "round_minutes": 90, "at_deadline": "adjudicate"}


@pytest.fixture(autouse=True)
def _fast_bots(settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0


def online(organiser: Any) -> Tournament:
    return tournament_with_teams(4, play=Tournament.Play.ONLINE,
                                 format=Tournament.Format.ROUND_ROBIN, bot_level="greedy",
                                 organisers=[organiser])


def test_an_organiser_sets_a_schedule_and_it_is_planned() -> None:
    organiser = UserFactory()
    tournament = online(organiser)
    answer = client_of(organiser).put(f"/api/v1/tournaments/{tournament.pk}/schedule/", BODY,
                                      format="json")
    assert answer.status_code == 200, answer.content
    schedule = Schedule.objects.get(tournament=tournament)
    assert schedule.starts_at == datetime(2027, 1, 15, 16, 0, tzinfo=UTC)
    assert schedule.round_times == {"2": "2027-01-15T17:30:00+00:00"}
    assert (schedule.round_minutes, schedule.at_deadline) == (90, "adjudicate")
    data = answer.json()
    assert (data["next_step"], data["next_round"]) == ("start", 1)
    assert data["next_step_at"] == "2027-01-15T16:00:00Z"


def test_a_put_replaces_the_whole_schedule() -> None:
    organiser = UserFactory()
    tournament = online(organiser)
    client = client_of(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/schedule/"
    assert client.put(url, BODY, format="json").status_code == 200
    again = client.put(url, {"starts_at": "2027-02-01T10:00Z"}, format="json")
    assert again.status_code == 200, again.content
    schedule = Schedule.objects.get(tournament=tournament)
    assert (schedule.time_zone, schedule.round_times, schedule.round_minutes,
            schedule.at_deadline) == ("UTC", {}, None, "bots")
    assert Schedule.objects.count() == 1


@pytest.mark.parametrize(("change", "field"), [
    ({"starts_at": "2027-01-15T18:00"}, "starts_at"),
    ({"starts_at": "tomorrow"}, "starts_at"),
    ({"time_zone": "Mars/Olympus"}, "time_zone"),
    ({"round_times": {"x": "2027-01-15T19:30Z"}}, "round_times"),
    ({"round_times": {"2": "2027-01-15T19:30"}}, "round_times"),
    ({"round_minutes": 0}, "round_minutes"),
    ({"at_deadline": "coin"}, "at_deadline"),
])
def test_a_bad_schedule_names_the_field_and_stores_nothing(change: dict[str, Any],
                                                           field: str) -> None:
    organiser = UserFactory()
    tournament = online(organiser)
    before = database_state()
    answer = client_of(organiser).put(f"/api/v1/tournaments/{tournament.pk}/schedule/",
                                      {**BODY, **change}, format="json")
    assert answer.status_code == 400
    assert field in answer.json(), answer.json()
    assert database_state() == before


def test_a_venue_tournament_has_no_schedule() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    answer = client_of(organiser).put(f"/api/v1/tournaments/{tournament.pk}/schedule/", BODY,
                                      format="json")
    assert answer.status_code == 400
    assert "only an online tournament runs on a schedule" in answer.json()["detail"]
    assert not Schedule.objects.exists()


@pytest.mark.parametrize(("method", "path", "body"), [
    ("put", "schedule/", BODY), ("post", "schedule/pause/", {"paused": True}),
    ("post", "schedule/move-round/", {"number": 2, "at": "2027-01-20T10:00Z"}),
    ("post", "schedule/run-now/", None),
])
def test_only_the_tournaments_organisers_touch_its_schedule(method: str, path: str,
                                                            body: Any) -> None:
    tournament, _schedule = scheduled()
    before = database_state()
    answer = getattr(client_of(UserFactory()), method)(
        f"/api/v1/tournaments/{tournament.pk}/{path}", body, format="json")
    assert answer.status_code == 403
    assert getattr(APIClient(), method)(f"/api/v1/tournaments/{tournament.pk}/{path}", body,
                                        format="json").status_code == 401
    assert database_state() == before


def test_pause_move_and_run_now_are_the_consoles_steps() -> None:
    organiser = UserFactory()
    tournament, _schedule = scheduled(organiser=organiser)
    client = client_of(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/schedule/"
    paused = client.post(url + "pause/", {"paused": True}, format="json")
    assert paused.status_code == 200
    assert paused.json()["paused"] is True and paused.json()["next_step_at"] is None
    resumed = client.post(url + "pause/", {"paused": False}, format="json")
    assert resumed.json()["paused"] is False and resumed.json()["next_step_at"] is not None
    moved = client.post(url + "move-round/", {"number": 1, "at": "2027-03-01T12:00+01:00"},
                        format="json")
    assert moved.status_code == 200, moved.content
    assert moved.json()["next_step_at"] == "2027-03-01T11:00:00Z"
    ran = client.post(url + "run-now/")
    assert ran.status_code == 200, ran.content
    assert ran.json()["done"].startswith("Round 1:")
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.PUBLISHED
    assert ran.json()["schedule"]["next_round"] == 1
    late = client.post(url + "move-round/", {"number": 1, "at": "2027-03-02T12:00Z"},
                       format="json")
    assert late.status_code == 400
    assert "has started already" in late.json()["detail"]


@pytest.mark.parametrize(("body", "field"), [
    ({"paused": "perhaps"}, "paused"), ({}, "paused"),
])
def test_a_bad_pause_names_the_field(body: dict[str, Any], field: str) -> None:
    organiser = UserFactory()
    tournament, _schedule = scheduled(organiser=organiser)
    before = database_state()
    answer = client_of(organiser).post(f"/api/v1/tournaments/{tournament.pk}/schedule/pause/",
                                       body, format="json")
    assert answer.status_code == 400 and field in answer.json()
    assert database_state() == before


@pytest.mark.parametrize(("body", "field"), [
    ({"number": 0, "at": "2027-03-01T12:00Z"}, "number"),
    ({"number": 2, "at": "2027-03-01T12:00"}, "at"),
    ({"number": 2}, "at"),
])
def test_a_bad_move_names_the_field_and_moves_nothing(body: dict[str, Any],
                                                      field: str) -> None:
    organiser = UserFactory()
    tournament, _schedule = scheduled(organiser=organiser)
    before = database_state()
    answer = client_of(organiser).post(
        f"/api/v1/tournaments/{tournament.pk}/schedule/move-round/", body, format="json")
    assert answer.status_code == 400 and field in answer.json(), answer.json()
    assert database_state() == before


def test_a_run_now_retried_with_its_key_runs_once() -> None:
    organiser = UserFactory()
    tournament, _schedule = scheduled(organiser=organiser)
    client = client_of(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/schedule/run-now/"
    first = client.post(url, HTTP_IDEMPOTENCY_KEY="run-1")
    again = client.post(url, HTTP_IDEMPOTENCY_KEY="run-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]


def test_an_api_key_sets_a_schedule_only_with_the_organise_scope() -> None:
    organiser = UserFactory()
    tournament = online(organiser)
    _row, key = keys.key_create(user=organiser, name="tool", scopes=["read", "results"],
                                tournaments=[])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    answer = client.put(f"/api/v1/tournaments/{tournament.pk}/schedule/", BODY, format="json")
    assert answer.status_code == 403
    assert not Schedule.objects.exists()


def test_setting_a_schedule_costs_no_more_queries_than_the_admins() -> None:
    organiser = UserFactory(is_staff=True)
    by_page, by_api = online(organiser), online(organiser)
    client = logged_in(organiser)
    url = reverse("admin:tournaments_tournament_change", args=[by_page.pk])
    data = admin_form_data(client, url)
    data.update({"schedule-TOTAL_FORMS": "1", "schedule-0-tournament": str(by_page.pk),
                 **{f"schedule-0-{key}": value for key, value in form_data().items()}})
    page, by_admin = counted_queries(lambda: client.post(url, data))
    assert page.status_code == 302
    assert Schedule.objects.filter(tournament=by_page).exists()
    api, queries = counted_queries(lambda: client_of(organiser).put(
        f"/api/v1/tournaments/{by_api.pk}/schedule/", BODY, format="json"))
    assert api.status_code == 200
    assert queries <= by_admin, (queries, by_admin)


def test_an_organiser_reads_the_schedule_with_the_step_a_worker_has_in_hand() -> None:
    organiser = UserFactory()
    tournament, schedule = scheduled(organiser=organiser)
    client = client_of(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/schedule/"
    waiting = client.get(url)
    assert waiting.status_code == 200, waiting.content
    assert (waiting.json()["next_step"], waiting.json()["under_way_since"]) == ("start", None)
    assert schedule.next_step_at is not None
    # a tick hands the step to a worker; none takes it (this test commits nothing)
    tick = schedule.next_step_at + timedelta(seconds=1)
    assert services.schedule_tick(now=tick) == 1

    before = database_state()
    handed = client.get(url)

    assert handed.status_code == 200
    assert handed.json()["under_way_since"] == tick.isoformat().replace("+00:00", "Z")
    assert handed.json()["next_step_at"] == (tick + LEASE).isoformat().replace("+00:00", "Z")
    assert handed.json()["next_step"] == "start" and handed.json()["starts_at"]
    assert database_state() == before  # a read changes nothing


def test_the_schedule_is_read_by_its_organisers_only_and_a_key_needs_the_read_scope() -> None:
    organiser = UserFactory()
    tournament, _schedule = scheduled(organiser=organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/schedule/"
    assert client_of(UserFactory()).get(url).status_code == 403
    assert APIClient().get(url).status_code == 401
    for scopes, status in ((["read"], 200), (["organise"], 403)):
        _row, key = keys.key_create(user=organiser, name=f"tool {scopes[0]}", scopes=scopes,
                                    tournaments=[])
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
        assert client.get(url).status_code == status, scopes
    unscheduled = online(organiser)
    missing = client_of(organiser).get(f"/api/v1/tournaments/{unscheduled.pk}/schedule/")
    assert missing.status_code == 404
    assert missing.json()["detail"] == f"{unscheduled} has no schedule"
