"""The round whose pages ``bench_pages`` asks for: an online Swiss tournament of
twice as many teams as the bench plays tables, its first round complete (random results,
the standings after it) and its second published, its live tables open. Their
follow-ups (the first bots' moves, the turn clocks) are dropped: nobody plays them, the
bench's own tables play beside them. Everything is named after ``PREFIX`` and removed by
:func:`remove`."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from bench.load.run import PagesLoad, paths
from bench.platform import synthetic_results
from bench.schedule import remove_named
from tournaments import services
from tournaments.models import Entry, Match, Player, Result, Round, Team, Tournament

PREFIX = "bench-load-"


def round_in_play(tables: int) -> tuple[int, int]:
    """The tournament's id and the number of its round in play, of ``tables`` tables."""
    teams = 2 * tables
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"{PREFIX}{n}") for n in range(2 * teams)])
    players = Player.objects.bulk_create(
        [Player(name=f"Bench {n}", handle=f"{PREFIX}{n}", user=user)
         for n, user in enumerate(users)])
    made = Team.objects.bulk_create(
        [Team(name=f"{PREFIX}{n}", player_a=players[2 * n], player_b=players[2 * n + 1])
         for n in range(teams)])
    tournament = Tournament.objects.create(
        name=f"{PREFIX}round", play=Tournament.Play.ONLINE, format=Tournament.Format.SWISS,
        rounds_planned=3, bot_level="greedy", status=Tournament.Status.RUNNING)
    Entry.objects.bulk_create(Entry(tournament=tournament, team=team, seed=n + 1)
                              for n, team in enumerate(made))
    first = Round.objects.create(tournament=tournament, number=1, status=Round.Status.COMPLETE)
    # every team plays: no bye, every match a score
    results = [(r.team_a, r.team_b, r.totals, r.winner)
               for r in synthetic_results(teams, tables) if r.team_b and r.totals]
    matches = Match.objects.bulk_create(
        Match(round=first, team_a_id=made[a - 1].pk, team_b_id=made[b - 1].pk,
              status=Match.Status.DONE) for a, b, _totals, _winner in results)
    Result.objects.bulk_create(
        Result(match=m, source=Result.Source.SHEET, hand_scores=[], out_seats=[],
               total_a=totals[0], total_b=totals[1],
               winner="d" if winner is None else "ab"[winner])
        for m, (_a, _b, totals, winner) in zip(matches, results, strict=True))
    services.standings_rebuild(tournament=tournament)
    with transaction.atomic():
        second = services.round_pair_next(tournament=tournament)
        services.round_publish(round=second)
        connection.run_on_commit = []  # the tables' first moves and clocks, not sent
    return tournament.pk, second.number


def remove() -> None:
    """Everything :func:`round_in_play` made."""
    remove_named(PREFIX)


@contextmanager
def made_round(tables: int) -> Iterator[tuple[int, int]]:
    """:func:`round_in_play`, removed after (with what an interrupted run left)."""
    remove()
    try:
        yield round_in_play(tables)
    finally:
        remove()


@contextmanager
def pages_load(tables: int, seconds: float, users: int) -> Iterator[PagesLoad]:
    """``users`` locust users asking for ``seconds`` the pages of a round of ``tables``
    tables, made first and removed after."""
    with made_round(tables) as (tournament, number), tempfile.TemporaryDirectory() as folder:
        yield PagesLoad(users, seconds, paths(tournament, number), Path(folder))
