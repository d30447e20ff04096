"""The services start their own follow-up work: standings after a result that
counts, bot play after publishing, ratings after a round is complete. Every way in (the
services themselves, a task, the admin, the demo command; the API in tests/api) gets it
without asking: the callers here call one thing and then only look.

``eager_tasks`` runs the enqueued tasks in this process, and
``django_capture_on_commit_callbacks(execute=True)`` runs what the services send after their
commit (inside a test's transaction nothing commits)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from celery.signals import task_prerun
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile

from tournaments import services, tasks
from tournaments.demo import DEMO_NAME, PLAYED_ROUNDS, demo_setup
from tournaments.models import Absence, Job, Match, RatingEntry, Result, Round, Standing, Tournament

from .factories import UserFactory, tournament_with_teams
from .test_admin import act, all_absent, bot_record, logged_in, published_round, said, url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

SHEET = ([[0, 55], [40, 0], [0, 120], [35, 45], [90, 0]], [0, 1, 2, None, 3])  # A 165, B 220


def played(tournament: Tournament) -> dict[int, int]:
    """Games played by each team in the stored current standings."""
    return dict(Standing.objects.filter(tournament=tournament, round_number=0)
                .values_list("team_id", "played"))


def enter_sheet(match: Match, user: Any) -> Result:
    return services.match_submit_score_sheet(match=match, hand_scores=SHEET[0],
                                             out_seats=SHEET[1], user=user)


@pytest.fixture
def bot_matches_played() -> Iterator[list[int]]:
    """The match ids of every play_bot_match task run meanwhile, in order."""
    ran: list[int] = []

    def seen(task: Any = None, args: Any = (), **_: Any) -> None:
        if task.name == tasks.play_bot_match.name:
            ran.append(args[0])

    task_prerun.connect(seen, weak=False)
    yield ran
    task_prerun.disconnect(seen)


@pytest.mark.parametrize("source", ["record", "sheet", "bots"])
def test_a_stored_result_updates_the_standings_by_itself(
        source: str, django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    if source == "bots":
        all_absent(tournament)
    match = published_round(tournament).matches.get()  # its own sending is not run here
    assert played(tournament) == {}

    with django_capture_on_commit_callbacks(execute=True) as sent:
        if source == "record":
            services.match_submit_record(match=match, record=bot_record(match.seed), user=organiser)
        elif source == "sheet":
            enter_sheet(match, organiser)
        else:
            services.match_play_bots(match_id=match.pk)

    assert len(sent) == 1
    assert played(tournament) == {match.team_a_id: 1, match.team_b_id: 1}


def test_confirming_and_withdrawing_a_result_update_the_standings_by_themselves(
        django_capture_on_commit_callbacks: Any) -> None:
    first, second = UserFactory(), UserFactory()
    tournament = tournament_with_teams(2, organisers=[first, second], confirm_score_sheets=True)
    match = published_round(tournament).matches.get()
    teams = (match.team_a_id, match.team_b_id)

    with django_capture_on_commit_callbacks(execute=True) as sent:
        result = enter_sheet(match, first)
    assert sent == [] and played(tournament) == {}  # waiting: it does not count yet

    with django_capture_on_commit_callbacks(execute=True) as sent:
        services.result_confirm(result=result, user=second)
    assert len(sent) == 1 and played(tournament) == dict.fromkeys(teams, 1)

    with django_capture_on_commit_callbacks(execute=True) as sent:
        services.result_withdraw(result=result, user=first)
    assert len(sent) == 1 and played(tournament) == dict.fromkeys(teams, 0)

    unconfirmed = enter_sheet(match, first)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        services.result_withdraw(result=unconfirmed, user=first)
    assert sent == []  # it never counted, so the standings have nothing to follow


def test_publishing_plays_the_all_bot_matches_once_however_often_it_is_repeated(
        django_capture_on_commit_callbacks: Any, bot_matches_played: list[int]) -> None:
    tournament = tournament_with_teams(4)
    all_absent(tournament)
    round = services.round_pair_next(tournament=tournament)

    with django_capture_on_commit_callbacks(execute=True) as sent:
        jobs = [services.round_publish(round=round) for _ in range(7)]  # seven clicks

    job = Job.objects.get(tournament=tournament)  # one job
    assert all(j is not None and j.pk == job.pk for j in jobs)
    match_ids = sorted(round.matches.values_list("pk", flat=True))
    assert sorted(bot_matches_played) == match_ids  # each match enqueued once
    # one send of the job's matches, then one standings update per match played
    assert len(sent) == 1 + len(match_ids)
    job.refresh_from_db()
    assert (job.done, job.total, job.status) == (2, 2, Job.Status.DONE)
    assert round.status == Round.Status.PUBLISHED
    assert set(played(tournament).values()) == {1}


def test_publishing_a_round_where_people_play_starts_no_job() -> None:
    round = services.round_pair_next(tournament=tournament_with_teams(4))
    assert services.round_publish(round=round) is None
    assert round.status == Round.Status.PUBLISHED and not Job.objects.exists()


def test_completing_a_round_rebuilds_the_ratings_by_itself(
        django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    round = published_round(tournament)
    match = round.matches.get()
    enter_sheet(match, organiser)
    assert not RatingEntry.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        services.round_complete(round=round, user=organiser)

    assert RatingEntry.objects.filter(match=match).count() == 4  # four players, no bots


def test_recalculation_requests_are_services_that_check_who_asks(
        django_capture_on_commit_callbacks: Any) -> None:
    organiser, outsider = UserFactory(), UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    round = published_round(tournament)
    match = round.matches.get()
    enter_sheet(match, organiser)
    services.round_complete(round=round)  # its ratings sending is not run here

    with django_capture_on_commit_callbacks(execute=True) as sent:
        for request in (services.standings_recalculate, services.ratings_recalculate):
            with pytest.raises(PermissionDenied):
                request(tournament=tournament, user=outsider)
    assert sent == []

    Standing.objects.filter(tournament=tournament).delete()
    with django_capture_on_commit_callbacks(execute=True) as sent:
        services.standings_recalculate(tournament=tournament, user=organiser)
        services.ratings_recalculate(tournament=tournament, user=organiser)
    assert len(sent) == 2
    assert set(Standing.objects.filter(tournament=tournament)
               .values_list("round_number", flat=True)) == {0, 1}  # full: after round 1 too
    assert RatingEntry.objects.filter(match=match).count() == 4


def test_the_play_bot_match_task_counts_its_job_and_the_standings_follow(
        django_capture_on_commit_callbacks: Any) -> None:
    tournament = tournament_with_teams(2)
    all_absent(tournament)
    round = services.round_pair_next(tournament=tournament)
    job = services.round_publish(round=round)  # its sending is not run here
    assert job is not None

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.play_bot_match.delay(job.match_ids[0], job.pk).get() is True

    job.refresh_from_db()
    assert job.status == Job.Status.DONE and set(played(tournament).values()) == {1}


# the admin: each page or action calls one service


def test_an_uploaded_record_and_a_confirmation_in_the_admin_update_the_standings(
        django_capture_on_commit_callbacks: Any) -> None:
    first, second = UserFactory(), UserFactory()
    tournament = tournament_with_teams(4, organisers=[first, second])
    match, other = published_round(tournament).matches.all()
    upload = SimpleUploadedFile("game.json", json.dumps(bot_record(match.seed)).encode())
    with django_capture_on_commit_callbacks(execute=True):
        logged_in(first).post(url("match_record", match.pk), {"file": upload})
    assert played(tournament)[match.team_a_id] == 1

    Tournament.objects.filter(pk=tournament.pk).update(confirm_score_sheets=True)
    result = enter_sheet(other, first)
    with django_capture_on_commit_callbacks(execute=True):
        assert "is confirmed" in said(act(logged_in(second), "result", "confirm", result))
    assert set(played(tournament).values()) == {1}


def test_play_bot_matches_and_complete_round_in_the_admin_start_their_follow_ups(
        django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    round = published_round(tournament)
    bots, people = round.matches.all()
    for seat in bots.seats.all():  # everyone at one table is marked absent after pairing
        Absence.objects.create(tournament=tournament, round_number=1, player=seat.player)
    services.round_fill_seats(round=round)
    client = logged_in(organiser)

    with django_capture_on_commit_callbacks(execute=True):
        said(act(client, "round", "play_bot_matches", round))
    assert Result.objects.filter(match=bots).exists()
    assert played(tournament)[bots.team_a_id] == 1

    enter_sheet(people, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        assert "is complete" in said(act(client, "round", "complete", round))
    assert RatingEntry.objects.filter(match=people).count() == 4
    assert not RatingEntry.objects.filter(match=bots).exists()  # bot seats are not kept


# the demo league of ``make run`` (``manage.py setup_demo``)


def test_the_demo_gets_its_ratings_from_the_services_alone(
        django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        demo_setup()

    tournament = Tournament.objects.get(name=DEMO_NAME)
    rated = set(RatingEntry.objects.filter(match__round__tournament=tournament)
                .values_list("match__round__number", flat=True))
    assert rated == set(range(1, PLAYED_ROUNDS + 1))
    assert set(played(tournament).values()) == {PLAYED_ROUNDS}
