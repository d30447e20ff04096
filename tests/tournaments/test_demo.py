"""The demo league of ``make run`` being built, once, and its two logins; what the built
demo offers is tested in ``test_demo_built.py``, on one demo built for the module."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.utils import timezone

from games.engine import verify
from robot_duplicate.demo import DEMO_EVENT_NAME
from robot_duplicate.models import RobotEvent
from tournaments.demo import (
    DEMO_NAME,
    ONLINE_NAME,
    ORGANISER,
    PLAYED_ROUNDS,
    PLAYER_LOGINS,
    SCHEDULED_NAME,
    SUPERUSER,
    demo_setup,
)
from tournaments.models import MailAddress, Result, Round, Schedule, Standing, Tournament
from tournaments.selectors.entries import entries_open_now

pytestmark = pytest.mark.django_db
# logins are checked with their request, whose address the failed-login limit counts
LOGIN = RequestFactory().post("/admin/login/")


def test_it_builds_a_played_league_once_with_an_organiser_and_a_superuser() -> None:
    first = demo_setup()
    assert first.created
    organiser, superuser, *players = first.logins
    assert (organiser.username, organiser.superuser) == (ORGANISER, False)
    assert (superuser.username, superuser.superuser) == (SUPERUSER, True)
    assert [login.username for login in players] == list(PLAYER_LOGINS)
    for login in first.logins:
        user = authenticate(LOGIN, username=login.username, password=login.password)
        assert user is not None and user.is_superuser == login.superuser
        assert user.is_staff == login.staff == (login not in players)

    tournament = Tournament.objects.get(name=DEMO_NAME)
    assert list(tournament.organisers.values_list("username", flat=True)) == [ORGANISER]
    statuses = list(tournament.rounds.values_list("status", flat=True))
    assert statuses == [Round.Status.COMPLETE] * PLAYED_ROUNDS + [Round.Status.PUBLISHED]
    results = Result.objects.filter(match__round__tournament=tournament)
    assert results.count() == 4 * PLAYED_ROUNDS
    assert all(verify(r.record).status == "complete" for r in results)
    assert Standing.objects.filter(tournament=tournament, round_number=0).count() == 8

    again = demo_setup()
    assert not again.created
    assert Tournament.objects.filter(name=DEMO_NAME).count() == 1
    assert [login.password for login in again.logins] == [None] * 4  # kept
    assert Tournament.objects.filter(name=ONLINE_NAME).count() == 1
    robot = RobotEvent.objects.get(name=DEMO_EVENT_NAME)  # open now, for the player logins
    assert robot.is_open(timezone.now()) and not robot.entries.exists()
    assert list(robot.organisers.values_list("username", flat=True)) == [ORGANISER]
    assert authenticate(LOGIN, username=ORGANISER, password=organiser.password) is not None


def test_a_password_the_user_changed_survives_setup_demo_run_twice() -> None:
    call_command("setup_demo", stdout=StringIO())
    user = get_user_model().objects.get(username=ORGANISER)
    user.set_password("my-own-password-1")
    user.save()

    out = StringIO()
    call_command("setup_demo", stdout=out)
    call_command("setup_demo", stdout=StringIO())

    assert authenticate(LOGIN, username=ORGANISER, password="my-own-password-1") is not None
    assert "user organiser, password unchanged" in out.getvalue()
    assert "Superuser login" in out.getvalue()


def test_the_scheduled_cup_takes_entries_until_its_first_check_in_opens() -> None:
    built = timezone.now()
    out = StringIO()
    call_command("setup_demo", stdout=out)
    cup = Tournament.objects.get(name=SCHEDULED_NAME)
    schedule = Schedule.objects.get(tournament=cup)
    assert f"{SCHEDULED_NAME}: open for entries until " in out.getvalue()
    assert cup.entry_mode == Tournament.EntryMode.OPEN and entries_open_now(cup)
    assert cup.entries_open is not None and built <= cup.entries_open <= timezone.now()
    # entries close as round 1's check-in opens (its players are told), before it starts
    assert (schedule.next_step, schedule.next_round) == ("check_in", 1)
    assert cup.entries_close == schedule.next_step_at < schedule.starts_at
    assert cup.entries_close is not None and cup.entries_close >= built + timedelta(minutes=4)
    assert cup.check_in_required and cup.capacity == cup.entries.count() + 2
    aino = Client()
    aino.force_login(get_user_model().objects.get(username="aino"))
    page = aino.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Enter with a partner" in page and "Places taken: 6 of 8." in page

    again = demo_setup()  # a second make run builds nothing twice
    assert not again.created and Tournament.objects.filter(name=SCHEDULED_NAME).count() == 1
    assert again.entries_close == cup.entries_close
    assert MailAddress.objects.filter(user__username__in=PLAYER_LOGINS).count() == 2
