"""Long organiser actions run as Celery jobs; the admin shows their progress."""

from __future__ import annotations

from typing import Any

from tournaments.models import Job, Result, Round

from .access import require_organiser
from .errors import TournamentUserError
from .rounds import round_bot_match_ids


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
    """Count the job's finished matches and mark it done when all are."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        return None
    done = Result.objects.filter(match_id__in=job.match_ids).count()
    status = Job.Status.DONE if done >= job.total else Job.Status.RUNNING
    Job.objects.filter(pk=job_id).update(done=done, status=status)
    job.refresh_from_db()
    return job
