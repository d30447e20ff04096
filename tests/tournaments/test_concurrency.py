"""Two workers doing the same job at once must not both do it (PostgreSQL row locks)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connections

from tournaments import services
from tournaments.models import Job, Result, Round, Standing

from .factories import tournament_with_teams
from .test_admin import all_absent

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


@pytest.mark.usefixtures("eager_tasks")  # the standings update runs here, not on a broker
def test_a_bot_match_played_by_two_workers_at_once_gets_one_result() -> None:
    tournament = tournament_with_teams(2)
    round = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round)  # people at the table: nothing is played yet
    all_absent(tournament)
    services.round_fill_seats(round=round)
    match = round.matches.get()
    assert twice_at_once(lambda: services.match_play_bots(match_id=match.pk)) == []
    assert Result.objects.filter(match=match).count() == 1


@pytest.mark.usefixtures("eager_tasks")  # the matches are played here, not on a broker
def test_a_round_published_twice_at_once_starts_one_job() -> None:
    tournament = tournament_with_teams(4)
    all_absent(tournament)
    round = services.round_pair_next(tournament=tournament)
    jobs: list[Job | None] = []

    def publish() -> None:
        jobs.append(services.round_publish(round=Round.objects.get(pk=round.pk)))

    for _ in range(3):
        assert twice_at_once(publish) == []
    job = Job.objects.get(tournament=tournament)
    assert [j.pk if j else None for j in jobs] == [job.pk] * 6
    assert Result.objects.filter(match__round=round).count() == 2
