"""The scheduler's tick over many tournaments, for ``manage.py bench_schedule`` (a benchmark,
not a test): how long the database works for one tick with 100 steps due among 1,000
scheduled tournaments, and how many queries a tick costs when nothing is due."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from tournaments import services
from tournaments.models import Entry, Player, Schedule, Team, Tournament


@dataclass
class Timed:
    """The queries run meanwhile and the database's time for them (from sending each to
    having its answer)."""

    queries: int = 0
    seconds: float = 0.0
    wall: float = 0.0
    taken: int = 0
    _start: float = field(default=0.0, repr=False)


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


class _Undo(Exception):
    """Raised to roll the benchmark's field back."""


@dataclass
class Figures:
    tournaments: int
    entries: int
    due: int
    check_in: Timed
    starts: Timed
    idle: Timed
    idle_small: Timed


def build(tournaments: int, teams_each: int, due: int, step: str) -> None:
    """``tournaments`` online Swiss tournaments of ``teams_each`` teams each (their players
    with logins, so that opening check-in tells someone), all scheduled; ``due`` of them
    with their ``step`` (``check_in`` or ``start``) due now, the others tomorrow."""
    now = timezone.now()
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"bench-{n}") for n in range(tournaments * teams_each * 2)])
    players = Player.objects.bulk_create(
        [Player(name=f"Bench {n}", handle=f"bench-{n}", user=user)
         for n, user in enumerate(users)])
    teams = Team.objects.bulk_create(
        [Team(name=f"Bench team {n}", player_a=players[2 * n], player_b=players[2 * n + 1])
         for n in range(tournaments * teams_each)])
    made = Tournament.objects.bulk_create(
        [Tournament(name=f"Bench schedule {n}", play=Tournament.Play.ONLINE,
                    format=Tournament.Format.SWISS, rounds_planned=5, bot_level="random",
                    check_in_required=step == "check_in") for n in range(tournaments)])
    Entry.objects.bulk_create(
        [Entry(tournament=tournament, team=teams[t * teams_each + n], seed=n + 1)
         for t, tournament in enumerate(made) for n in range(teams_each)])
    soon = now + timedelta(minutes=30 if step == "check_in" else 0)
    Schedule.objects.bulk_create(
        [Schedule(tournament=tournament, starts_at=soon if n < due else now + timedelta(days=1),
                  check_in_opens_minutes=60 if step == "check_in" else None,
                  next_step=step, next_round=1,
                  next_step_at=now - timedelta(seconds=1) if n < due
                  else now + timedelta(days=1))
         for n, tournament in enumerate(made)])
    # the planner's statistics for the rows just written (ANALYZE counts this transaction's
    # own rows): without them it plans for empty tables, as a live site's never are
    with connection.cursor() as cursor:
        for model in (get_user_model(), Player, Team, Tournament, Entry, Schedule):
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def one_tick(tournaments: int, teams_each: int, due: int, step: str) -> Timed:
    """Build the field, tick once, and roll it all back (nothing is left behind)."""
    figures = Timed()
    try:
        with transaction.atomic():
            build(tournaments, teams_each, due, step)
            with timed() as figures:
                figures.taken = services.schedule_tick()
            raise _Undo
    except _Undo:
        pass
    return figures


def idle_tick(tournaments: int) -> Timed:
    """A tick with nothing due among ``tournaments`` scheduled ones."""
    figures = Timed()
    try:
        with transaction.atomic():
            build(tournaments, 2, 0, "start")
            with timed() as figures:
                figures.taken = services.schedule_tick()
            raise _Undo
    except _Undo:
        pass
    return figures


def run(tournaments: int = 1000, teams_each: int = 64, due: int = 100) -> Figures:
    return Figures(tournaments, tournaments * teams_each, due,
                   check_in=one_tick(tournaments, teams_each, due, "check_in"),
                   starts=one_tick(tournaments, teams_each, due, "start"),
                   idle=idle_tick(tournaments), idle_small=idle_tick(10))
