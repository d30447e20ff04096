"""Celery tasks: thin, repeatable wrappers that re-fetch by id and call one service.

The services enqueue them (``services/followups.py``), after their transaction commits,
so a worker never looks for a row that is not committed yet.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task

from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.services import accounts, keys, mail, oauth_apps, webhook_delivery

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
    """Play one all-bot match of a job (the service counts it and updates the standings)."""
    return services.job_play_match(match_id=match_id, job_id=job_id)


@shared_task
def recalculate_standings(tournament_id: int, full: bool = False) -> int:
    """Update the standings after new results (``full``: recompute every stored table)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    return services.standings_rebuild(tournament=tournament, full=full)


@shared_task
def recalculate_ratings() -> int:
    return services.ratings_rebuild()



@shared_task
def sweep() -> dict[str, int]:
    """Celery beat runs this every minute (settings.CELERY_BEAT_SCHEDULE): send the tasks the
    broker did not take when they were due, the bot matches whose play stalled, and the
    mails still due (a send that failed, a task that was lost), and the webhook deliveries
    whose next attempt is due; and forget the answers kept for writes with an idempotency
    key once a day old."""
    return {"sent": services.send_outbox(), "matches_sent_again": services.jobs_recover_stalled(),
            "mails_sent": mail.mail_send_due(),
            "webhooks_sent": webhook_delivery.webhooks_send_due(),
            "idempotency_keys_forgotten": keys.idempotency_expire()}


@shared_task
def schedule_tick() -> int:
    """Celery beat runs this often (settings.CELERY_BEAT_SCHEDULE): take the scheduled
    tournaments' steps that are due (services.schedule); safe in several processes at once."""
    return services.schedule_tick()


@shared_task
def take_scheduled_step(tournament_id: int, now: str) -> bool:
    """Take the scheduled step a tick at ``now`` (ISO 8601) handed out; safe to run twice."""
    return services.schedule_take_step(tournament_id=tournament_id,
                                       now=datetime.fromisoformat(now))


@shared_task
def oauth_tokens_clear() -> None:
    """Celery beat runs this daily (settings.CELERY_BEAT_SCHEDULE): the apps' tokens and
    codes past their life are deleted (services.oauth_apps)."""
    oauth_apps.tokens_clear()


@shared_task
def send_password_reset(email: str, domain: str, use_https: bool, language: str) -> None:
    accounts.send_password_reset(email, domain=domain, use_https=use_https, language=language)


@shared_task
def send_notice_mails(due: list[tuple[str, list[int]]]) -> int:
    """Mail the notifications due: of each key, to those users; each once
    (``services.mail``)."""
    return sum(mail.send_notice_mails(key=key, user_ids=users) for key, users in due)


@shared_task
def send_confirmation_mail(address_id: int, token: str) -> bool:
    return mail.send_confirmation_mail(address_id, token)


@shared_task
def dispatch_webhooks(delivery_ids: list[int]) -> int:
    """Give each of an event's deliveries a task of its own (``deliver_webhook``)."""
    return webhook_delivery.webhooks_dispatch(delivery_ids)


@shared_task
def deliver_webhook(delivery_id: int) -> str | None:
    """Attempt one webhook delivery, if it is still due (a repeated task sends nothing)."""
    return webhook_delivery.webhook_deliver(delivery_id)
