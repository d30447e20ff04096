"""The demo league of ``make run``."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.test import RequestFactory

from games.engine import verify
from tournaments.demo import DEMO_NAME, PLAYED_ROUNDS, demo_setup
from tournaments.models import Result, Round, Standing, Tournament

pytestmark = pytest.mark.django_db
# logins are checked with their request, whose address the failed-login limit counts
LOGIN = RequestFactory().post("/admin/login/")


def test_it_builds_a_played_league_once_and_always_gives_a_working_login() -> None:
    first = demo_setup()
    assert first.created
    assert authenticate(LOGIN, username=first.username, password=first.password) is not None

    tournament = Tournament.objects.get(name=DEMO_NAME)
    statuses = list(tournament.rounds.values_list("status", flat=True))
    assert statuses == [Round.Status.COMPLETE] * PLAYED_ROUNDS + [Round.Status.PUBLISHED]
    results = Result.objects.filter(match__round__tournament=tournament)
    assert results.count() == 4 * PLAYED_ROUNDS
    assert all(verify(r.record).status == "complete" for r in results)
    assert Standing.objects.filter(tournament=tournament, round_number=0).count() == 8

    again = demo_setup()
    assert not again.created
    assert Tournament.objects.filter(name=DEMO_NAME).count() == 1
    assert authenticate(LOGIN, username=again.username, password=again.password) is not None
    assert authenticate(LOGIN, username=first.username, password=first.password) is None
