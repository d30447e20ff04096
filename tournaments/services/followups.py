"""The work a service leaves to a Celery worker, sent once the service's transaction commits.

The services call these, never their callers, so every way in (admin, API, management
commands, tasks, live tables) gets the same follow-up without asking for it. Sending after
the commit means a worker never looks for a row that is not committed yet, and a write that
rolls back sends nothing. The tasks call the services, so ``tasks`` is imported only when
the work is sent.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Job


def standings_later(tournament_id: int, *, full: bool = False) -> None:
    """Recompute the tournament's current standings (``full``: every stored table)."""
    def send() -> None:
        from tournaments import tasks

        tasks.recalculate_standings.delay(tournament_id, full=full)
    transaction.on_commit(send)


def ratings_later() -> None:
    """Rebuild every player's rating from the results."""
    def send() -> None:
        from tournaments import tasks

        tasks.recalculate_ratings.delay()
    transaction.on_commit(send)


def bot_matches_later(job: Job) -> None:
    """Play each of the job's matches, one task per match, so workers share them."""
    job_id, match_ids = job.pk, list(job.match_ids)

    def send() -> None:
        from tournaments import tasks

        for match_id in match_ids:
            tasks.play_bot_match.delay(match_id, job_id)
    transaction.on_commit(send)
