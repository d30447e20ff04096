"""The schedule in the admin: set on the tournament's page in its own time zone (stored in
UTC), run from the console (pause, resume, run the next step now, move a round), and shown on
the tournament's public page for each reader's own zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.admin.schedule import ScheduleForm
from tournaments.models import Round, Schedule, Tournament

from .admin_forms import admin_form_data
from .admin_forms import schedule_form_data as form_data
from .factories import UserFactory, tournament_with_teams
from .schedule_helpers import scheduled
from .test_admin import logged_in
from .test_console import console, do

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture(autouse=True)
def _fast_bots(settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0


def test_times_are_given_in_the_schedules_zone_and_stored_in_utc() -> None:
    tournament = tournament_with_teams(4, play=Tournament.Play.ONLINE)
    form = ScheduleForm(data=form_data(rounds="3: 2027-07-01 12:30"),
                        instance=Schedule(tournament=tournament))
    assert form.is_valid(), form.errors
    schedule = form.save()
    assert schedule.starts_at == datetime(2027, 1, 15, 16, 0, tzinfo=UTC)  # winter: +2
    assert schedule.round_times == {"3": "2027-07-01T09:30:00+00:00"}  # summer: +3
    again = ScheduleForm(instance=schedule)
    assert again.initial["start"] == "2027-01-15 18:00"
    assert again.initial["rounds"] == "3: 2027-07-01 12:30"


@pytest.mark.parametrize(("changes", "field", "said"), [
    ({"time_zone": "Mars/Olympus"}, "time_zone", "is not a time zone"),
    ({"start": "tomorrow at six"}, "start", "YYYY-MM-DD HH:MM"),
    ({"rounds": "two: soon"}, "rounds", "Line 1, “two: soon”"),
])
def test_a_bad_time_says_which_and_where(changes: dict[str, str], field: str,
                                         said: str) -> None:
    tournament = tournament_with_teams(4, play=Tournament.Play.ONLINE)
    form = ScheduleForm(data=form_data(**changes), instance=Schedule(tournament=tournament))
    assert not form.is_valid()
    assert said in " ".join(form.errors[field])


def test_a_venue_tournament_is_told_to_go_online_first() -> None:
    tournament = tournament_with_teams(4)
    form = ScheduleForm(data=form_data(), instance=Schedule(tournament=tournament))
    assert not form.is_valid() and "online" in str(form.errors)


def test_the_console_pauses_runs_and_moves_the_schedule(
        django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    client = logged_in(organiser)
    tournament, schedule = scheduled(organiser=organiser, time_zone="Europe/Helsinki")
    page = client.get(console(tournament)).content.decode()
    assert "Pause the schedule" in page and "Next: round 1" in page

    page = do(client, tournament, "schedule_pause").content.decode()
    assert "The schedule is paused." in page and "Resume the schedule" in page
    assert Schedule.objects.get(tournament=tournament).paused
    do(client, tournament, "schedule_resume")
    assert not Schedule.objects.get(tournament=tournament).paused

    page = do(client, tournament, "schedule_move", number="1", at="nonsense").content.decode()
    assert "Not done: choose a round and its new time" in page
    assert Schedule.objects.get(tournament=tournament).round_times == {}
    do(client, tournament, "schedule_move", number="1", at="2027-01-15T18:00")
    assert Schedule.objects.get(tournament=tournament).next_step_at == \
        datetime(2027, 1, 15, 16, 0, tzinfo=UTC)

    with django_capture_on_commit_callbacks(execute=True):
        page = do(client, tournament, "schedule_run").content.decode()
    assert "Round 1: pair, publish and open the round&#x27;s tables, done." in page
    assert Round.objects.get(tournament=tournament, number=1).status != Round.Status.DRAFT


def test_another_organisers_schedule_is_not_found() -> None:
    tournament, _schedule = scheduled()
    client = logged_in(UserFactory())
    response = client.post(reverse("admin:tournaments_tournament_console_do",
                                   args=[tournament.pk]), {"step": "schedule_pause"})
    assert response.status_code == 404
    assert not Schedule.objects.get(tournament=tournament).paused


def test_the_tournament_page_shows_the_next_round_in_the_schedules_zone(client: Client
                                                                        ) -> None:
    starts = timezone.now().replace(microsecond=0) + timedelta(days=3)
    tournament, _schedule = scheduled(starts_at=starts, time_zone="Asia/Tokyo")
    page = client.get(reverse("tournaments:tournament_detail",
                              args=[tournament.pk])).content.decode()
    local = starts.astimezone(Schedule.objects.get(tournament=tournament).zone)
    assert f'<time datetime="{starts.isoformat()}" data-local>' \
        f'{local:%Y-%m-%d %H:%M} Asia/Tokyo</time>' in page
    assert "tournaments/local_time.js" in page


def test_the_schedule_is_set_on_the_tournaments_page_and_planned() -> None:
    organiser = UserFactory()
    client = logged_in(organiser)
    tournament = tournament_with_teams(4, play=Tournament.Play.ONLINE, organisers=[organiser])
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    data = admin_form_data(client, url)
    prefix = "schedule"
    assert data[f"{prefix}-TOTAL_FORMS"] == "0"
    data.update({f"{prefix}-TOTAL_FORMS": "1", f"{prefix}-0-tournament": str(tournament.pk),
                 **{f"{prefix}-0-{key}": value for key, value in form_data(
                     start="2027-01-15 18:00", check_in_opens_minutes="30").items()}})
    response = client.post(url, data)
    assert response.status_code == 302, (
        response.context["adminform"].form.errors,
        [f.formset.errors for f in response.context["inline_admin_formsets"]])
    schedule = Schedule.objects.get(tournament=tournament)
    assert schedule.starts_at == datetime(2027, 1, 15, 16, 0, tzinfo=UTC)
    # planned: no check-in required, so round 1 starts at its time
    assert (schedule.next_step, schedule.next_step_at) == ("start", schedule.starts_at)


def test_a_start_handed_to_a_worker_shows_as_under_way_not_as_missing(
        client: Client, django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament, schedule = scheduled(organiser=organiser, time_zone="Europe/Helsinki")
    with django_capture_on_commit_callbacks(execute=False):  # the worker has not taken it
        assert services.schedule_tick(now=schedule.starts_at) == 1
    page = client.get(reverse("tournaments:tournament_detail",
                              args=[tournament.pk])).content.decode()
    assert "Round 1 is starting: its tables open in a moment." in page
    assert "Round 1 starts at" not in page
    local = schedule.starts_at.astimezone(schedule.zone)
    page = logged_in(organiser).get(console(tournament)).content.decode()
    assert "Round 1, pair, publish and open the round&#x27;s tables: under way since " \
        f"{local:%Y-%m-%d %H:%M}" in page
    services.schedule_take_step(tournament_id=tournament.pk, now=schedule.starts_at)
    page = client.get(reverse("tournaments:tournament_detail",
                              args=[tournament.pk])).content.decode()
    assert "is starting" not in page
    assert "under way" not in logged_in(organiser).get(console(tournament)).content.decode()
