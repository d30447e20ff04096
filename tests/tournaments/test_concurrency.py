"""Two workers doing the same job at once must not both do it (PostgreSQL row locks)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connections

from tournaments import services
from tournaments.models import Absence, Result, Standing

from .factories import tournament_with_teams

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                                 reason="row locks are tested on PostgreSQL (set DATABASE_URL)")]


def twice_at_once(work: Callable[[], object]) -> list[BaseException]:
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def run() -> None:
        try:
            barrier.wait()
            work()
        except BaseException as exc:  # noqa: BLE001 - collected and asserted on below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_two_standings_rebuilds_at_once_leave_one_table() -> None:
    tournament = tournament_with_teams(6)
    for _ in range(5):
        assert twice_at_once(lambda: services.standings_rebuild(tournament=tournament)) == []
    assert Standing.objects.filter(tournament=tournament).count() == 6


def test_a_bot_match_played_by_two_workers_at_once_gets_one_result() -> None:
    tournament = tournament_with_teams(2)
    for entry in tournament.entries.select_related("team"):
        for player in (entry.team.player_a, entry.team.player_b):
            Absence.objects.create(tournament=tournament, round_number=1, player=player)
    round = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round)
    match = round.matches.get()
    assert twice_at_once(lambda: services.match_play_bots(match_id=match.pk)) == []
    assert Result.objects.filter(match=match).count() == 1
