"""Long organiser actions run as Celery jobs; the admin shows their progress."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import Job, Result, Round, Seat
from tournaments.selectors import round_bot_match_ids

from .access import require_organiser
from .errors import TournamentUserError
from .followups import bot_matches_later
from .results import match_play_bots


def job_play_round_bots(*, round: Round, user: Any = None) -> Job:
    """Play every all-bot match of a published round that has no result yet, in the
    background: a job to follow, and its matches sent to the workers once it is stored."""
    if user is not None:
        require_organiser(user, round.tournament)
    job = job_start_round_bots(round)
    if job is None:
        raise TournamentUserError(
            (_("round %(number)d has no bot match left to play")
             if round.status == Round.Status.PUBLISHED
             else _("round %(number)d has no bot match left to play (publish it first)"))
            % {"number": round.number})
    return job


def job_start_round_bots(round: Round) -> Job | None:
    """The job of :func:`job_play_round_bots`, or None when no match is left to play (the
    round is not published, or a person sits at every table)."""
    match_ids = round_bot_match_ids(round)
    if not match_ids:
        return None
    job = Job.objects.create(tournament=round.tournament, kind=_kind(round),
                             match_ids=match_ids, total=len(match_ids))
    bot_matches_later(job)
    return job


def job_of_round(round: Round) -> Job | None:
    """The newest job that plays matches of the round."""
    return Job.objects.filter(tournament_id=round.tournament_id, kind=_kind(round)).first()


def _kind(round: Round) -> str:
    return f"play round {round.number}"


def job_play_match(*, match_id: int, job_id: int | None = None) -> bool:
    """Play one all-bot match of a job (see :func:`match_play_bots`) and count it done;
    a failure marks the job failed, so it is not shown running forever. True if this call
    stored the result."""
    try:
        result = match_play_bots(match_id=match_id)
    except Exception as exc:
        if job_id is not None:
            job_fail(job_id=job_id, message=f"match {match_id}: {exc!r}")
        raise
    if job_id is not None:
        job_refresh(job_id=job_id)
    return result is not None


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
