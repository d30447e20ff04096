"""Two requests with one ``Idempotency-Key`` at once, on PostgreSQL's row locks: one
writes, and both get its answer. Apart from test_idempotency.py because its writes are
committed (the requests run in threads of their own), which a module's shared league,
kept in a transaction, cannot be."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from tests.tournaments.test_concurrency import twice_at_once
from tournaments.models import IdempotentRequest, Result

from .conftest import League
from .test_idempotency import post, sheet


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                    reason="row locks are tested on PostgreSQL (set DATABASE_URL)")
def test_two_requests_with_one_key_at_once_write_once_and_get_one_answer(
        committed_league: League) -> None:
    league = committed_league  # the requests' threads read it
    answers: list[Any] = []

    def submit() -> None:
        answers.append(post(league, league.organiser, sheet(), "at-once"))

    for attempt in range(3):
        Result.objects.filter(match=league.match).delete()
        IdempotentRequest.objects.all().delete()
        answers.clear()
        assert twice_at_once(submit) == [], attempt
        assert [a.status_code for a in answers] == [201, 201], [a.content for a in answers]
        assert answers[0].json() == answers[1].json()
        assert Result.objects.filter(match=league.match).count() == 1
        assert IdempotentRequest.objects.count() == 1
