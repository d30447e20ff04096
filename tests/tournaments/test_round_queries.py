"""Starting a round costs a few queries a round, not a few a table: pairing it (its tables,
matches and seats), publishing it online (its live tables opened, its players told where)
and the scheduler's step that does both, each the same count for 4 tables as for 16. A
scheduler tick starts a hundred such rounds at once (``manage.py bench_schedule``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.live.models import LiveTable
from tournaments import services
from tournaments.models import Absence, Notification, Round, Schedule, Tournament

from .factories import UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db


def online(tables: int) -> Tournament:
    """An online tournament of ``tables`` tables' teams, every player with a login but one
    marked absent from round 1 (a bot substitutes for them)."""
    tournament = tournament_with_teams(2 * tables, play=Tournament.Play.ONLINE,
                                       bot_level="greedy", turn_seconds=60,
                                       reserve_seconds=120, grace_seconds=60)
    for entry in tournament.entries.select_related("team__player_a", "team__player_b"):
        for player in (entry.team.player_a, entry.team.player_b):
            player.user = UserFactory(is_staff=False)
            player.save(update_fields=["user"])
    Absence.objects.create(tournament=tournament, round_number=1,
                           player=tournament.entries.first().team.player_b)
    return tournament


def counted(step: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        step()
    return len(queries)


def pair_and_publish(tables: int) -> tuple[int, int]:
    """The queries of pairing the first round, and of publishing it."""
    tournament = online(tables)
    rounds: list[Round] = []
    pairing = counted(lambda: rounds.append(services.round_pair_next(tournament=tournament)))
    publishing = counted(lambda: services.round_publish(round=rounds[0]))
    assert LiveTable.objects.filter(match__round=rounds[0]).count() == tables
    told = [f"table:{pk}" for pk in rounds[0].matches.values_list("pk", flat=True)]
    # each player told where their table is, but the absent one, whose seat is a bot's
    assert Notification.objects.filter(key__in=told).count() == 4 * tables - 1
    return pairing, publishing


def test_pairing_and_publishing_16_tables_cost_the_queries_of_4() -> None:
    assert pair_and_publish(16) == pair_and_publish(4)


def scheduled_start(tables: int) -> int:
    tournament = online(tables)
    now = timezone.now()
    Schedule.objects.create(tournament=tournament, starts_at=now, next_step="start",
                            next_round=1, next_step_at=now - timedelta(seconds=1))
    queries = counted(lambda: services.schedule_tick(now=now))
    assert LiveTable.objects.filter(match__round__tournament=tournament).count() == tables
    return queries


def test_the_scheduled_start_of_16_tables_costs_the_queries_of_4() -> None:
    assert scheduled_start(16) == scheduled_start(4)


def test_a_tick_that_started_a_round_asks_no_more_of_it_when_nothing_more_is_due() -> None:
    tournament = online(4)
    now = timezone.now()
    Schedule.objects.create(tournament=tournament, starts_at=now, next_step="start",
                            next_round=1, next_step_at=now - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        assert services.schedule_tick(now=now) == 1
    # the tournament's lock taken for the start, not again to find its next step not due
    assert sum("SKIP LOCKED" in query["sql"] for query in queries) == 1
    schedule = Schedule.objects.get(tournament=tournament)
    assert schedule.next_step == "complete" and schedule.next_step_at > now
