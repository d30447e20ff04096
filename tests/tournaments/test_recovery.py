"""Recovery of background work, in this process (tasks run eagerly): the outbox the services
write their tasks to, the sweep that sends again the bot matches whose play
stalled, and the Celery settings both rely on. The same with a real broker
and real workers, one of them killed: test_celery_e2e.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from config.celery import app
from tournaments import services, tasks
from tournaments.models import Job, Match, OutboxTask, Result

from .factories import tournament_with_teams
from .test_admin import all_absent

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def test_a_dead_worker_is_noticed_and_its_task_redelivered_before_an_hour() -> None:
    conf = app.conf
    assert conf.task_acks_late and conf.task_reject_on_worker_lost
    visibility = conf.broker_transport_options["visibility_timeout"]
    assert conf.task_time_limit < visibility <= conf.task_time_limit + 120
    assert settings.CELERY_BEAT_SCHEDULE["sweep"]["task"] == tasks.sweep.name


def test_a_task_is_written_down_with_the_write_and_deleted_once_sent(
        django_capture_on_commit_callbacks: Any) -> None:
    tournament = tournament_with_teams(2)
    with django_capture_on_commit_callbacks() as sent:
        services.standings_recalculate(tournament=tournament)
    assert list(OutboxTask.objects.values_list("task", "args", "kwargs")) == \
        [("recalculate_standings", [tournament.pk], {"full": True})]
    for send in sent:
        send()
    assert not OutboxTask.objects.exists()
    assert tasks.sweep() == {"sent": 0, "matches_sent_again": 0, "mails_sent": 0,
                             "webhooks_sent": 0, "idempotency_keys_forgotten": 0}


def test_the_sweep_sends_what_was_left_unsent() -> None:
    tournament = tournament_with_teams(2)
    OutboxTask.objects.create(task="recalculate_standings", args=[tournament.pk])
    assert tasks.sweep() == {"sent": 1, "matches_sent_again": 0, "mails_sent": 0,
                             "webhooks_sent": 0, "idempotency_keys_forgotten": 0}
    assert not OutboxTask.objects.exists()
    assert tournament.standings.filter(round_number=0).count() == 2


def bot_round_job(django_capture_on_commit_callbacks: Any) -> Job:
    """A published all-bot round whose job's tasks never reached a worker."""
    tournament = tournament_with_teams(4)
    all_absent(tournament)
    round = services.round_pair_next(tournament=tournament)
    with django_capture_on_commit_callbacks():  # not sent: as if lost with their worker
        job = services.round_publish(round=round)
    assert job is not None
    OutboxTask.objects.all().delete()
    return job


def test_the_sweep_sends_again_a_match_whose_worker_died_mid_game(
        django_capture_on_commit_callbacks: Any) -> None:
    job = bot_round_job(django_capture_on_commit_callbacks)
    dead, waiting = job.match_ids
    Match.objects.filter(pk=dead).update(status=Match.Status.PLAYING)  # as its worker left it

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep() == {"sent": 0, "matches_sent_again": 1, "mails_sent": 0,
                             "webhooks_sent": 0, "idempotency_keys_forgotten": 0}
    assert Result.objects.filter(match_id=dead).count() == 1
    assert not Result.objects.filter(match_id=waiting).exists()  # still queued: not stalled
    job.refresh_from_db()
    assert (job.done, job.status) == (1, Job.Status.RUNNING)


def test_the_sweep_sends_again_every_match_of_a_job_that_stopped_moving(
        django_capture_on_commit_callbacks: Any) -> None:
    job = bot_round_job(django_capture_on_commit_callbacks)
    Job.objects.filter(pk=job.pk).update(updated=timezone.now() - timedelta(minutes=7))
    assert list(services.jobs_stalled()) == [job]

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep() == {"sent": 0, "matches_sent_again": 2, "mails_sent": 0,
                             "webhooks_sent": 0, "idempotency_keys_forgotten": 0}
    assert Result.objects.filter(match_id__in=job.match_ids).count() == 2
    job.refresh_from_db()
    assert (job.done, job.status) == (2, Job.Status.DONE)
    assert not services.jobs_stalled().exists()
