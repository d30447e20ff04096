"""Ending a live table takes its locks in the order of the finished table's report: the
table first (the report's handler is called holding it), then the match's round and the
match. So the two never wait on each other (PostgreSQL row locks)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, connections, transaction

from games.live.models import LiveTable
from tournaments import services
from tournaments.models import Match, Result, Round

from .factories import UserFactory
from .test_online import online, publish_first_round

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                                 reason="row locks are tested on PostgreSQL (set DATABASE_URL)")]


def waiting_for_a_lock() -> None:
    """Return once another connection to this database waits for a lock."""
    for _ in range(300):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # else read once a transaction
            cursor.execute("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() "
                           "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
            if cursor.fetchone() is not None:
                return
        time.sleep(0.1)
    raise TimeoutError("nothing came to wait for the table's lock within 30 s")


def test_ending_a_table_waits_for_the_table_before_taking_the_round_or_the_match() -> None:
    organiser = UserFactory()
    match = publish_first_round(online(organisers=[organiser]), organiser)
    out: dict[str, Any] = {}

    def end() -> None:
        try:
            out["result"] = services.match_end_live_table(
                match=match, hand_scores=[[0, 40], [30, 0], [0, 50], [40, 0], [0, 25]],
                out_seats=[0, 1, 2, 3, 0], reason="the table hangs", user=organiser)
        except Exception as exc:  # noqa: BLE001 - asserted on below
            out["error"] = exc
        finally:
            connections.close_all()

    with transaction.atomic():  # as the finished table's report holds the table
        LiveTable.objects.select_for_update().get(match=match)
        ending = threading.Thread(target=end, daemon=True)
        ending.start()
        waiting_for_a_lock()
        # it holds neither the round (not even shared) nor the match while it waits
        Round.objects.select_for_update(nowait=True).get(pk=match.round_id)
        Match.objects.select_for_update(nowait=True, of=("self",)).get(pk=match.pk)
    ending.join(30)
    assert "error" not in out, out
    assert Result.objects.get(match=match).source == Result.Source.ENDED
    assert LiveTable.objects.get(match=match).status == LiveTable.Status.ENDED
