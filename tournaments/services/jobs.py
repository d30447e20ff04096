"""Long organiser actions run as Celery jobs; the admin shows their progress."""

from __future__ import annotations

from typing import Any

from tournaments.models import Job, Result, Round, Seat
from tournaments.selectors import round_bot_match_ids

from .access import require_organiser
from .errors import TournamentUserError


def job_play_round_bots(*, round: Round, user: Any = None) -> Job:
    """A job to play every all-bot match of a published round (the caller enqueues them)."""
    if user is not None:
        require_organiser(user, round.tournament)
    match_ids = round_bot_match_ids(round)
    if not match_ids:
        raise TournamentUserError(f"round {round.number} has no bot match left to play"
                                  + ("" if round.status == Round.Status.PUBLISHED
                                     else " (publish it first)"))
    return Job.objects.create(tournament=round.tournament, kind=f"play round {round.number}",
                              match_ids=match_ids, total=len(match_ids))


def job_refresh(*, job_id: int) -> Job | None:
    """Count the job's finished matches (played, or no longer all-bot: a person took a
    seat after the job started) and mark it done when all are."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or job.status == Job.Status.FAILED:
        return job
    played = set(Result.objects.filter(match_id__in=job.match_ids)
                 .values_list("match_id", flat=True))
    skipped = set(Seat.objects.filter(match_id__in=job.match_ids, player__isnull=False)
                  .values_list("match_id", flat=True)) - played
    done = len(played) + len(skipped)
    status = Job.Status.DONE if done >= job.total else Job.Status.RUNNING
    message = f"{len(skipped)} match(es) skipped: a player took a seat" if skipped else ""
    Job.objects.filter(pk=job_id).update(done=done, status=status, message=message)
    job.refresh_from_db()
    return job


def job_fail(*, job_id: int, message: str) -> None:
    """A task of the job failed for good: say so instead of showing it running forever."""
    Job.objects.filter(pk=job_id).update(status=Job.Status.FAILED, message=message[:2000])
