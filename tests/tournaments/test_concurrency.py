"""Two workers doing the same job at once must not both do it (PostgreSQL row locks)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connections

from tournaments import services
from tournaments.models import Job, Match, Result, Round, Standing, Tournament

from .factories import UserFactory, tournament_with_teams
from .test_admin import all_absent

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                                 reason="row locks are tested on PostgreSQL (set DATABASE_URL)")]


def twice_at_once(work: Callable[[], object]) -> list[BaseException]:
    return at_once(work, work)


def at_once(*works: Callable[[], object]) -> list[BaseException]:
    """Run each work in a thread of its own (a connection of its own), started together."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(works))

    def run(work: Callable[[], object]) -> None:
        try:
            barrier.wait()
            work()
        except BaseException as exc:  # noqa: BLE001 - collected and asserted on below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(work,)) for work in works]
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


SHEET = ([[0, 55], [40, 0], [0, 120], [35, 45], [90, 0]], [0, 1, 2, None, 3])


@pytest.mark.usefixtures("eager_tasks")  # the ratings update runs here, not on a broker
@pytest.mark.parametrize("withdraw_first", [True, False])
def test_withdrawing_a_result_while_its_round_completes_ends_in_a_legal_state(
        withdraw_first: bool) -> None:
    """Either the withdrawal lands (the round stays open, its match waits for a result) or
    the completion does (the result is final and the withdrawal is refused); never a
    complete round with a match left without a result."""
    organiser = UserFactory()
    outcomes = set()
    for _ in range(12):
        tournament = tournament_with_teams(2, rounds_planned=1, organisers=[organiser])
        round = services.round_pair_next(tournament=tournament)
        services.round_publish(round=round)
        match = round.matches.get()
        result = services.match_submit_score_sheet(match=match, hand_scores=SHEET[0],
                                                   out_seats=SHEET[1], user=organiser)

        def withdraw(result: Result = result) -> None:
            services.result_withdraw(result=result, user=organiser)

        def complete(round_id: int = round.pk) -> None:
            services.round_complete(round=Round.objects.get(pk=round_id), user=organiser)

        errors = at_once(*((withdraw, complete) if withdraw_first else (complete, withdraw)))
        assert len(errors) == 1 and isinstance(errors[0], services.TournamentUserError)
        round.refresh_from_db()
        tournament.refresh_from_db()
        match.refresh_from_db()
        has_result = Result.objects.filter(match=match).exists()
        if round.status == Round.Status.COMPLETE:
            outcomes.add("completed")
            assert has_result and match.status == Match.Status.DONE
            assert tournament.status == Tournament.Status.FINISHED
            with pytest.raises(services.TournamentUserError):  # final: nothing lands now
                services.result_withdraw(result=result, user=organiser)
        else:
            outcomes.add("withdrawn")
            assert not has_result and match.status == Match.Status.PENDING
            assert tournament.status == Tournament.Status.RUNNING
    assert outcomes  # each try ended in one of the two legal states


@pytest.mark.usefixtures("eager_tasks")
def test_a_result_for_a_complete_round_is_refused() -> None:
    """The state a race between completing a round and storing a result used to leave (a
    complete round, a match of it without a result): a result submitted then is refused
    and nothing is stored."""
    organiser = UserFactory()
    tournament = tournament_with_teams(2, rounds_planned=1, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.COMPLETE)
    match = round.matches.get()
    with pytest.raises(services.TournamentUserError, match="round 1 is complete"):
        services.match_submit_score_sheet(match=match, hand_scores=SHEET[0],
                                          out_seats=SHEET[1], user=organiser)
    assert not Result.objects.filter(match=match).exists()
