"""Two entries of one robot duplicate at once (PostgreSQL row locks, threads with their own
connections): the same person pressing Play twice, and two partners accepting each other's
invitations at once, leave one table and refuse the other."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.live.models import LiveTable
from robot_duplicate import services
from robot_duplicate.models import RobotEntry, RobotEvent
from tests.tournaments.test_concurrency import at_once
from tournaments.services import TournamentUserError

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                                 reason="row locks are tested on PostgreSQL (set DATABASE_URL)")]


def event(kind: str) -> RobotEvent:
    now = timezone.now()
    return RobotEvent.objects.create(name=f"Robot {kind} {RobotEvent.objects.count()}",
                                     kind=kind, opens=now - timedelta(minutes=1),
                                     closes=now + timedelta(hours=1))


def person(name: str) -> Any:
    return get_user_model().objects.create_user(name, password=f"pw-{name}-123")


def enter(event_id: int, user: Any, partner: Any = None) -> Any:
    return lambda: services.robot_enter(event=RobotEvent.objects.get(pk=event_id), user=user,
                                        partner=partner)


@pytest.mark.parametrize("attempt", range(5))
def test_one_person_pressing_play_twice_at_once_gets_one_table(attempt: int) -> None:
    solo, anna = event(RobotEvent.Kind.INDIVIDUAL), person(f"anna{attempt}")
    errors = at_once(enter(solo.pk, anna), enter(solo.pk, anna))
    assert len(errors) == 1 and isinstance(errors[0], TournamentUserError)
    assert "already played" in str(errors[0])
    assert RobotEntry.objects.filter(event=solo).count() == 1
    assert LiveTable.objects.count() == 1


@pytest.mark.parametrize("attempt", range(5))
def test_partners_accepting_each_other_at_once_get_one_table(attempt: int) -> None:
    pairs = event(RobotEvent.Kind.PAIRS)
    anna, bea = person(f"anna{attempt}"), person(f"bea{attempt}")
    from_anna = services.robot_enter(event=pairs, user=anna, partner=bea)
    from_bea = services.robot_enter(event=pairs, user=bea, partner=anna)
    errors = at_once(
        lambda: services.robot_answer(entry=from_anna, user=bea, accept=True),
        lambda: services.robot_answer(entry=from_bea, user=anna, accept=True))
    assert len(errors) == 1 and isinstance(errors[0], TournamentUserError)
    assert "no longer open" in str(errors[0])
    entry = RobotEntry.objects.get(event=pairs)
    assert not entry.awaiting_partner and entry.live_table_id is not None
    assert LiveTable.objects.count() == 1
