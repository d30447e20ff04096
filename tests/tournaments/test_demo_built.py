"""What the demo league of ``make run`` offers once built: the organiser's admin, the
online cup's table for the two player logins, and the scheduled cup they may enter and
that runs itself. Building the demo plays a league's games, so the module builds it once
(``demo``), in a transaction rolled back after its last test; each test runs in a
savepoint inside it (pytest-django's own), so what one changes is undone before the next.
Building it is tested in ``test_demo.py``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.utils import timezone

from games.live import presence
from games.live import service as live_service
from games.live.models import LiveSeat, LiveTable
from tournaments import services
from tournaments.demo import (
    DEMO_NAME,
    ONLINE_NAME,
    ORGANISER,
    PLAYER_LOGINS,
    SCHEDULED_NAME,
    DemoSetup,
    demo_setup,
)
from tournaments.models import (
    MailAddress,
    Notification,
    Player,
    Result,
    Schedule,
    Tournament,
)

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Built:
    setup: DemoSetup  # with the logins' printed passwords
    at: datetime  # when it was built


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: Any) -> Iterator[Built]:
    """The demo, built once for the module and rolled back after its last test."""
    with django_db_blocker.unblock(), transaction.atomic():
        at = timezone.now()
        yield Built(demo_setup(), at)
        transaction.set_rollback(True)


def test_the_demo_organiser_sees_the_scoped_admin(demo: Built) -> None:
    client = Client()
    client.force_login(get_user_model().objects.get(username=ORGANISER))
    page = client.get("/admin/tournaments/tournament/")
    assert page.status_code == 200
    assert DEMO_NAME in page.content.decode()
    assert client.get("/admin/auth/user/").status_code == 403  # not a superuser


def test_the_online_cup_has_a_table_open_where_the_two_player_logins_are_opponents(
        demo: Built) -> None:
    setup = demo.setup
    cup = Tournament.objects.get(name=ONLINE_NAME)
    assert cup.play == Tournament.Play.ONLINE
    table = LiveTable.objects.get(match__round__tournament=cup)
    assert table.status == LiveTable.Status.PLAYING
    assert cup.wait_for_players and table.awaiting and table.seq == 0  # it waits for them
    seats = {seat.seat: seat for seat in LiveSeat.objects.filter(table=table)}
    assert seats[0].user.username == "aino" and seats[1].user.username == "cai"
    assert seats[2].bot and seats[3].bot  # their partners have no login
    players = {login.username: login.password for login in setup.logins
               if login.username in PLAYER_LOGINS}
    client = Client()
    login = client.post("/accounts/login/", {"username": "aino", "password": players["aino"]})
    assert login.status_code == 302
    home = client.get("/").content.decode()
    assert f'href="/tables/{table.pk}/"' in home and "Demo online cup, round 1" in home


def test_the_online_cups_match_waits_for_its_people_and_can_be_dealt_afresh(
        demo: Built, django_capture_on_commit_callbacks: Any) -> None:
    table = LiveTable.objects.get(match__round__tournament__name=ONLINE_NAME)
    # long after make run, nobody has come: no substitute, no bot has moved
    LiveTable.objects.filter(pk=table.pk).update(created=timezone.now() - timedelta(hours=1))
    assert presence.check_away(table.pk) == []
    assert LiveTable.objects.get(pk=table.pk).seq == 0
    # the newcomer played a little, left, and comes back to start it again
    with django_capture_on_commit_callbacks(execute=True):
        assert live_service.begin(table.pk)
    call_command("setup_demo", "--restart-online", stdout=StringIO())
    fresh = LiveTable.objects.get(match__round__tournament__name=ONLINE_NAME)
    assert fresh.pk != table.pk and fresh.awaiting and fresh.seq == 0
    assert not LiveTable.objects.filter(pk=table.pk).exists()
    assert Tournament.objects.filter(name=ONLINE_NAME).count() == 1
    assert Tournament.objects.filter(name=DEMO_NAME).count() == 1  # the league stays


def test_the_scheduled_cup_starts_a_few_minutes_after_the_demo_and_runs_itself(
        demo: Built, eager_tasks: None, django_capture_on_commit_callbacks: Any,
        settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    built = demo.at
    cup = Tournament.objects.get(name=SCHEDULED_NAME)
    schedule = Schedule.objects.get(tournament=cup)
    assert built + timedelta(minutes=5) <= schedule.starts_at <= built + timedelta(minutes=10)
    logged_in = Player.objects.filter(user__isnull=False)
    assert not cup.entries.filter(team__player_a__in=logged_in).exists()
    assert not cup.entries.filter(team__player_b__in=logged_in).exists()
    # nobody entered: its check-in opens for nobody, and round 1 starts at its time
    with django_capture_on_commit_callbacks(execute=True):
        assert services.schedule_tick(now=schedule.starts_at) >= 1
    round = cup.rounds.get(number=1)
    # bots in every seat: its tables played to the end at full speed, nobody waited for
    assert not LiveSeat.objects.filter(table__match__round=round, user__isnull=False).exists()
    assert Result.objects.filter(match__round=round).count() == 3


def _log_in(username: str, setup: DemoSetup) -> Client:
    """A browser logged in with the demo login's printed password."""
    password = next(login.password for login in setup.logins if login.username == username)
    client = Client()
    assert client.post("/accounts/login/", {"username": username,
                                            "password": password}).status_code == 302
    return client


def test_a_demo_login_enters_the_scheduled_cup_with_the_other_as_partner(demo: Built) -> None:
    setup = demo.setup
    cup = Tournament.objects.get(name=SCHEDULED_NAME)
    aino, cai = _log_in("aino", setup), _log_in("cai", setup)
    cai_player = Player.objects.get(user__username="cai")

    asked = aino.post(f"/tournaments/{cup.pk}/enter/", {"partner": f"@{cai_player.handle}"})
    assert asked.status_code == 302
    told = Notification.objects.get(user__username="cai", kind=Notification.Kind.PARTNER_ASKS)
    assert cai.post(told.link, {"answer": "accept"}).status_code == 302

    entry = cup.entries.get(team__name="Aino & Cai")
    assert {entry.team.player_a.name, entry.team.player_b.name} == {"Aino", "Cai"}
    assert "Your team is entered." in aino.get(f"/tournaments/{cup.pk}/").content.decode()


def test_the_scheduled_cups_notifications_are_mailed_to_the_logins_confirmed_addresses(
        demo: Built, eager_tasks: None, django_capture_on_commit_callbacks: Any,
        settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    setup = demo.setup
    cup = Tournament.objects.get(name=SCHEDULED_NAME)
    schedule = Schedule.objects.get(tournament=cup)
    addresses = {address.user.username: address.email for address in
                 MailAddress.objects.filter(confirmed__isnull=False).select_related("user")}
    assert addresses == {"aino": "aino@example.org", "cai": "cai@example.org"}
    aino, cai = _log_in("aino", setup), _log_in("cai", setup)
    mail.outbox.clear()

    def mailed(subject: str) -> list[str]:
        return sorted(message.to[0] for message in mail.outbox if message.subject == subject)

    with django_capture_on_commit_callbacks(execute=True):
        aino.post(f"/tournaments/{cup.pk}/enter/", {"partner": "@cai"})
    assert mailed(f"A partner asks you to enter {SCHEDULED_NAME}") == ["cai@example.org"]
    (asks,) = mail.outbox
    assert f"Aino asks you to enter {SCHEDULED_NAME} with them." in str(asks.body)
    told = Notification.objects.get(user__username="cai", kind=Notification.Kind.PARTNER_ASKS)
    with django_capture_on_commit_callbacks(execute=True):
        cai.post(told.link, {"answer": "accept"})
    assert mailed(f"Your entry to {SCHEDULED_NAME}") == sorted(addresses.values())

    # round 1's check-in opens: both are told by mail, and check in
    with django_capture_on_commit_callbacks(execute=True):
        assert services.schedule_tick(now=schedule.next_step_at) == 1
    assert mailed(f"Check-in is open: {SCHEDULED_NAME}") == sorted(addresses.values())
    for client, username in ((aino, "aino"), (cai, "cai")):
        player = Player.objects.get(user__username=username)
        client.post(f"/players/{player.pk}/check-in/{cup.pk}/")
    # the round starts: their table is ready, and the mail says where
    with django_capture_on_commit_callbacks(execute=True):
        assert services.schedule_tick(now=schedule.starts_at) >= 1
    assert mailed(f"Your table is ready: {SCHEDULED_NAME}, round 1") == \
        sorted(addresses.values())
    table = LiveSeat.objects.get(user__username="aino",
                                 table__match__round__tournament=cup).table
    assert LiveSeat.objects.filter(table=table, user__username="cai").exists()
    ready = next(m for m in mail.outbox if m.subject.startswith("Your table is ready"))
    assert f"/tables/{table.pk}/" in str(ready.body)
