"""Long organiser actions run as Celery jobs; the admin shows their progress."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from config.users import RequestUser
from tournaments.models import Job, Match, Result, Round, Seat
from tournaments.selectors import round_bot_match_ids, round_job_kind

from .access import require_organiser
from .errors import TournamentUserError
from .followups import bot_matches_later
from .results import match_play_bots

UNFINISHED = (Job.Status.QUEUED, Job.Status.RUNNING)
# A job that has not moved for longer than one task may run has lost work.
STALLED_AFTER = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)


def job_play_round_bots(*, round: Round, user: RequestUser | None = None) -> Job:
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
    job = Job.objects.create(tournament=round.tournament, kind=round_job_kind(round),
                             match_ids=match_ids, total=len(match_ids))
    bot_matches_later(job)
    return job


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
    moved = {"updated": timezone.now()} if (done, status) != (job.done, job.status) else {}
    Job.objects.filter(pk=job_id).update(done=done, status=status, message=message, **moved)
    job.refresh_from_db()
    return job


def jobs_stalled() -> QuerySet[Job]:
    """Unfinished jobs that have not moved for longer than one task may run."""
    return Job.objects.filter(status__in=UNFINISHED, updated__lt=timezone.now() - STALLED_AFTER)


def jobs_recover_stalled() -> int:
    """Count every unfinished job again (a worker may have died between storing a result
    and counting it), and send again the bot matches whose play stalled: a match marked
    being played that no worker holds locked (its worker died mid-game), and every match a
    stalled job still waits for (their tasks were lost). Row locks decide who plays a
    match, so one sent twice is played once. Returns how many matches were sent again."""
    quiet = set(jobs_stalled().values_list("pk", flat=True))
    sent = 0
    for job_id in list(Job.objects.filter(status__in=UNFINISHED).values_list("pk", flat=True)):
        job = job_refresh(job_id=job_id)
        if job is None or job.status not in UNFINISHED:
            continue
        with transaction.atomic():
            waiting = Match.objects.select_for_update(of=("self",), skip_locked=True).filter(
                pk__in=job.match_ids, status__in=[Match.Status.PENDING, Match.Status.PLAYING])
            if job.pk not in quiet:
                waiting = waiting.filter(status=Match.Status.PLAYING)
            match_ids = list(waiting.values_list("pk", flat=True))
            if match_ids:  # back in the queue; the job's clock starts again
                Match.objects.filter(pk__in=match_ids).update(status=Match.Status.PENDING)
                Job.objects.filter(pk=job.pk).update(updated=timezone.now())
                bot_matches_later(job, match_ids)
        sent += len(match_ids)
    return sent


def job_fail(*, job_id: int, message: str) -> None:
    """A task of the job failed for good: say so instead of showing it running forever."""
    Job.objects.filter(pk=job_id).update(status=Job.Status.FAILED, message=message[:2000])
