"""Celery tasks: thin, repeatable wrappers that re-fetch by id and call one service.

Enqueue them with ``transaction.on_commit(lambda: task.delay(pk))`` so a worker never
looks for a row the web request has not committed yet.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction

from tournaments import services
from tournaments.models import Result, Round, Tournament

log = logging.getLogger(__name__)


@shared_task
def pair_next_round(tournament_id: int) -> int | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    try:
        return services.round_pair_next(tournament=tournament).pk
    except services.TournamentUserError as exc:
        log.info("pairing %s: %s", tournament, exc)
        return None


@shared_task
def fill_seats(round_id: int) -> int:
    round = Round.objects.filter(pk=round_id).select_related("tournament").first()
    if round is None:
        return 0
    try:
        return services.round_fill_seats(round=round)
    except services.TournamentUserError as exc:  # e.g. the round completed meanwhile
        log.info("filling seats of %s: %s", round, exc)
        return 0


@shared_task
def play_bot_match(match_id: int, job_id: int | None = None) -> bool:
    """Play one all-bot match; then refresh its job and the tournament's standings."""
    try:
        result = services.match_play_bots(match_id=match_id)
    except Exception as exc:
        if job_id is not None:
            services.job_fail(job_id=job_id, message=f"match {match_id}: {exc!r}")
        raise
    if job_id is not None:
        services.job_refresh(job_id=job_id)
    if result is not None:
        recalculate_standings.delay(result.match.round.tournament_id)
    return result is not None


@shared_task
def recalculate_standings(tournament_id: int, full: bool = False) -> int:
    """Update the standings after new results (``full``: recompute every stored table)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    return len(services.standings_rebuild(tournament=tournament, full=full))


@shared_task
def recalculate_ratings() -> int:
    return services.ratings_rebuild()


def standings_after_result(result: Result) -> None:
    """Keep the current standings current: once the transaction that stored a confirmed
    result commits, recalculate them (used by every way a result arrives or goes)."""
    if result.confirmed:
        tournament_id = result.match.round.tournament_id
        transaction.on_commit(lambda: recalculate_standings.delay(tournament_id))
