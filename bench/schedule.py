"""The scheduler's tick over many tournaments, for ``manage.py bench_schedule`` (a benchmark,
not a test): how long the database works for one tick with 100 steps due among 1,000
scheduled tournaments, and, apart from it, for the steps it hands to the workers; and how
many queries a tick costs when nothing is due."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from games.live.models import LiveTable
from tournaments import services
from tournaments.models import Entry, Match, OutboxTask, Player, Schedule, Team, Tournament
from tournaments.tasks import take_scheduled_step


@dataclass
class Timed:
    """The queries run meanwhile and the database's time for them (from sending each to
    having its answer)."""

    queries: int = 0
    seconds: float = 0.0
    wall: float = 0.0
    taken: int = 0

    def add(self, other: Timed) -> None:
        self.queries += other.queries
        self.seconds += other.seconds
        self.wall += other.wall
        self.taken += other.taken


@contextmanager
def timed() -> Iterator[Timed]:
    result = Timed()

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool,
                context: dict[str, Any]) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            result.queries += 1
            result.seconds += time.perf_counter() - started

    started = time.perf_counter()
    with connection.execute_wrapper(wrapper):
        yield result
    result.wall = time.perf_counter() - started


@dataclass
class Figures:
    tournaments: int
    entries: int
    due: int
    check_in: Timed
    check_in_steps: Timed
    starts: Timed
    starts_steps: Timed
    idle: Timed


PREFIX = "bench-schedule-"
STEP_TASK = "take_scheduled_step"  # the outbox's name of the step a tick hands out


def build(tournaments: int, teams_each: int, due: int) -> list[int]:
    """``tournaments`` online Swiss tournaments of ``teams_each`` teams each (their players
    with logins, so that opening check-in tells someone), all scheduled with check-in; the
    first ``due`` of them with their check-in window opening now, the others tomorrow.
    Committed (a live site's rows, with the planner's statistics); :func:`remove` takes
    them away. Returns the due tournaments' ids."""
    now = timezone.now()
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"{PREFIX}{n}")
         for n in range(tournaments * teams_each * 2)])
    players = Player.objects.bulk_create(
        [Player(name=f"Bench {n}", handle=f"{PREFIX}{n}", user=user)
         for n, user in enumerate(users)])
    teams = Team.objects.bulk_create(
        [Team(name=f"{PREFIX}{n}", player_a=players[2 * n], player_b=players[2 * n + 1])
         for n in range(tournaments * teams_each)])
    made = Tournament.objects.bulk_create(
        [Tournament(name=f"{PREFIX}{n}", play=Tournament.Play.ONLINE,
                    format=Tournament.Format.SWISS, rounds_planned=5, bot_level="random",
                    check_in_required=True) for n in range(tournaments)])
    Entry.objects.bulk_create(
        [Entry(tournament=tournament, team=teams[t * teams_each + n], seed=n + 1)
         for t, tournament in enumerate(made) for n in range(teams_each)])
    Schedule.objects.bulk_create(
        [Schedule(tournament=tournament,
                  starts_at=now + timedelta(minutes=30) if n < due else now + timedelta(days=1),
                  check_in_opens_minutes=30, check_in_closes_minutes=5,
                  next_step="check_in", next_round=1,
                  next_step_at=now - timedelta(seconds=1) if n < due
                  else now + timedelta(days=1))
         for n, tournament in enumerate(made)])
    with connection.cursor() as cursor:  # the planner's statistics, as a live site has them
        for model in (get_user_model(), Player, Team, Tournament, Entry, Schedule):
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
    return [tournament.pk for tournament in made[:due]]


def remove() -> None:
    """Everything :func:`build` made, and what the ticks made of it."""
    remove_named(PREFIX)


def remove_named(prefix: str) -> None:
    """The tournaments, teams, players and logins a benchmark named with ``prefix``, and
    the live tables of their matches."""
    tournaments = Tournament.objects.filter(name__startswith=prefix)
    tables = list(Match.objects.filter(round__tournament__in=tournaments)
                  .exclude(live_table=None).values_list("live_table_id", flat=True))
    tournaments.delete()
    LiveTable.objects.filter(pk__in=tables).delete()
    Team.objects.filter(name__startswith=prefix).delete()
    Player.objects.filter(handle__startswith=prefix).delete()
    get_user_model().objects.filter(username__startswith=prefix).delete()


def run(tournaments: int = 1000, teams_each: int = 64, due: int = 100) -> Figures:
    remove()
    try:
        due_ids = build(tournaments, teams_each, due)
        check_in = _tick_quietly()
        check_in_steps = _steps_quietly()
        # the same tournaments' rounds due to start now (their check-in window passed)
        now = timezone.now()
        Tournament.objects.filter(pk__in=due_ids).update(check_in_required=False)
        Schedule.objects.filter(tournament_id__in=due_ids).update(
            starts_at=now, next_step="start", next_step_at=now - timedelta(seconds=1))
        starts = _tick_quietly()
        starts_steps = _steps_quietly()
        Schedule.objects.update(next_step_at=now + timedelta(days=1))
        idle = _tick_quietly()
    finally:
        OutboxTask.objects.filter(task=STEP_TASK).delete()
        remove()
    return Figures(tournaments, tournaments * teams_each, due, check_in, check_in_steps,
                   starts, starts_steps, idle)


def _tick_quietly() -> Timed:
    """A tick, its outbox tasks written but not sent (the steps are run by
    :func:`_steps_quietly`, timed apart)."""
    figures = Timed()
    with transaction.atomic():
        with timed() as figures:
            figures.taken = services.schedule_tick()
        connection.run_on_commit = []  # the tasks, sent by the outbox after the commit
    return figures


def _steps_quietly() -> Timed:
    """Each step the tick handed out, as its worker takes it: the outbox's row locked and
    deleted (as it is sent) and the task run, one transaction a step (with the foreign keys'
    checks its commit makes); the steps' own follow-ups (bots' moves, timers, mails) are
    dropped: this measures the steps, not the games they start. The sum over the steps."""
    total = Timed()
    for pk in list(OutboxTask.objects.filter(task=STEP_TASK).order_by("pk")
                   .values_list("pk", flat=True)):
        with transaction.atomic():
            with timed() as figures:
                row = OutboxTask.objects.select_for_update(skip_locked=True).get(pk=pk)
                row.delete()
                figures.taken = int(take_scheduled_step(*row.args))
                with connection.cursor() as cursor:
                    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            connection.run_on_commit = []
        total.add(figures)
    return total
