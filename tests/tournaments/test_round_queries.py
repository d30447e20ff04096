"""Starting a round costs a few queries a round, not a few a table: pairing it (its tables,
matches and seats), publishing it online (its live tables opened, its players told where)
and the scheduler's step that does both (in a worker), each the same count for 4 tables as
for 16. The tick that hands such steps out costs the same few queries for one as for many
(``manage.py bench_schedule`` times a hundred at once)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.live.models import LiveTable
from tournaments import services
from tournaments.models import Absence, Notification, OutboxTask, Round, Schedule, Tournament
from tournaments.services.schedule import LEASE

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
    """The queries of the worker's step that starts round 1 (the tick only hands it out)."""
    tournament = online(tables)
    now = timezone.now()
    Schedule.objects.create(tournament=tournament, starts_at=now, next_step="start",
                            next_round=1, next_step_at=now - timedelta(seconds=1))
    assert services.schedule_tick(now=now) == 1
    queries = counted(lambda: services.schedule_take_step(tournament_id=tournament.pk, now=now))
    assert LiveTable.objects.filter(match__round__tournament=tournament).count() == tables
    schedule = Schedule.objects.get(tournament=tournament)
    assert schedule.next_step == "complete" and schedule.under_way_since is None
    return queries


def test_the_scheduled_start_of_16_tables_costs_the_queries_of_4() -> None:
    assert scheduled_start(16) == scheduled_start(4)


def handed_out(due: int) -> int:
    """The queries of a tick with ``due`` tournaments' starts due (among others not due)."""
    now = timezone.now()
    made = [online(1) for _ in range(due + 2)]
    for n, tournament in enumerate(made):
        Schedule.objects.create(tournament=tournament, starts_at=now, next_step="start",
                                next_round=1, next_step_at=now + timedelta(
                                    seconds=-1 if n < due else 3600))
    tasks = OutboxTask.objects.filter(task="take_scheduled_step")
    before = tasks.count()
    queries = counted(lambda: services.schedule_tick(now=now))
    # each due step under way, due again only once its lease is up, and one task each
    under_way = Schedule.objects.filter(tournament__in=made, under_way_since=now,
                                        next_step_at=now + LEASE)
    assert sorted(under_way.values_list("tournament_id", flat=True)) == \
        sorted(t.pk for t in made[:due])
    assert tasks.count() - before == due
    assert not Round.objects.filter(tournament__in=made).exists()  # left to the workers
    return queries


def test_a_tick_hands_out_any_number_of_due_steps_in_the_same_few_queries() -> None:
    assert handed_out(1) == handed_out(5)


def test_a_tick_with_nothing_due_is_one_query() -> None:
    online(1)
    assert counted(lambda: services.schedule_tick(now=timezone.now())) == 1
