"""Rounds on a schedule: Celery beat ticks (``tasks.schedule_tick``) and :func:`schedule_tick`
hands every step that is due to a worker, which takes it (:func:`schedule_take_step`): open a
round's check-in window (telling its players), pair and publish a round (opening its live
tables), settle the tables still played at a round's hard deadline, complete a round whose
tables are done; after the last round the tournament is finished by ``round_complete``, as
by hand.

The tick is small whatever the steps weigh: one transaction takes the due schedules' rows
(``SKIP LOCKED``: a row another tick or a step holds is left for the next tick), marks each
step under way (``Schedule.under_way_since``; due again after ``LEASE``) and writes one
outbox task a step (``followups.schedule_steps_later``), sent to the workers once it commits.
So ticks never wait on one tournament's heavy step, and the steps spread over the workers.

Each step is one transaction in its worker that holds the tournament's row lock, then the
schedule's; the facts are read again under the lock, the step is taken only if it is still
handed out and due, and the next step and its time are written (clearing the mark) in the
same commit. So two schedulers at once, a tick repeated, a task run twice, or a worker
killed mid-step (nothing of it commits; the step is handed out again once its lease is up)
never take a step twice, and a step that failed is due again (after ``RETRY``). The rule of
what comes next is the pure ``tournaments.schedule``.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from config.users import RequestUser
from games.live import director
from games.live.errors import TableError
from games.live.models import LiveSeat
from tournaments.models import Round, Schedule, Tournament
from tournaments.schedule import Next, Step, check_in_window, next_step
from tournaments.selectors import (
    player_logins,
    schedule_facts,
    schedule_plan,
    unsettled_tables,
)

from .access import require_organiser
from .errors import TournamentUserError
from .followups import schedule_steps_later
from .notices import Notice, notify_each
from .results import match_adjudicate_live_table
from .rounds import round_complete, round_pair_next, round_publish

log = logging.getLogger(__name__)

#: How many tournaments one tick hands steps out for (the rest are handed out by the next).
TICK_LIMIT = 200
#: A step handed to a worker and not taken this long after is handed out again (its worker
#: died, or its task was lost); should both tasks run, the second finds it taken.
LEASE = timedelta(minutes=2)
#: A step that failed is tried again this long after.
RETRY = timedelta(minutes=1)


def schedule_tick(*, now: datetime | None = None, limit: int = TICK_LIMIT) -> int:
    """Hand every step due by ``now`` (the clock when None) to the workers; how many were
    handed out. Safe to run in several processes at once and to repeat: each due step is
    handed out once until its lease is up."""
    now = now or timezone.now()
    due = Schedule.objects.filter(next_step_at__lte=now)
    # nothing due, the usual answer, is one indexed read (``schedule_due``)
    waiting = list(due.order_by("next_step_at").values_list("tournament_id", flat=True)[:limit])
    if not waiting:
        return 0
    with transaction.atomic():
        # read again under the rows' locks: another tick may have handed them out meanwhile
        mine = list(due.filter(tournament_id__in=waiting).select_for_update(skip_locked=True)
                    .values_list("tournament_id", flat=True))
        if not mine:
            return 0
        Schedule.objects.filter(tournament_id__in=mine).update(
            under_way_since=now, next_step_at=now + LEASE)
        schedule_steps_later(mine, now)
    return len(mine)


def schedule_take_step(*, tournament_id: int, now: datetime) -> bool:
    """A worker takes the step a tick at ``now`` handed out, if it is still handed out (not
    taken by a twin of this task, nor planned again by the organiser since) and due; whether
    it was taken. A failed step is logged, said on the schedule and handed out again later."""
    try:
        with transaction.atomic():
            locked = _lock(tournament_id)
            if locked is None:
                return False
            tournament, schedule = locked
            if schedule.under_way_since is None:
                return False
            planned = _plan(tournament, schedule, now)
            if schedule.paused or planned.step is None or planned.at is None \
                    or planned.at > now:
                _save_next(schedule, planned)
                return False
            _take(tournament, schedule, planned, now)
            return True
    except Exception as exc:  # noqa: BLE001 - said on the schedule; it is tried again
        if not isinstance(exc, TournamentUserError):
            log.exception("the scheduled step of tournament %s failed", tournament_id)
        Schedule.objects.filter(tournament_id=tournament_id).update(
            last_error=str(exc)[:2000], next_step_at=now + RETRY, under_way_since=None)
        return False


def _lock(tournament_id: int) -> tuple[Tournament, Schedule] | None:
    """The tournament and its schedule, both locked, waiting for them (None: no such
    tournament, or it has no schedule). The schedule's lock is taken before the facts are
    read, so a result's nudge (``followups.schedule_nudge_later``) is never overwritten by a
    plan made without it."""
    tournament = (Tournament.objects.select_for_update(of=("self",))
                  .filter(pk=tournament_id).first())
    if tournament is None:
        return None
    schedule = Schedule.objects.select_for_update().filter(tournament=tournament).first()
    if schedule is None:
        return None
    return tournament, schedule


def _lock_scheduled(tournament: Tournament) -> tuple[Tournament, Schedule]:
    """:func:`_lock`; :class:`TournamentUserError` without a schedule."""
    locked = _lock(tournament.pk)
    if locked is None:
        raise TournamentUserError(gettext("%(tournament)s has no schedule") % {
            "tournament": tournament})
    return locked


def _plan(tournament: Tournament, schedule: Schedule, now: datetime) -> Next:
    """The next step from the facts read now. A round an organiser published by hand has its
    deadline counted from when the schedule first saw it played."""
    facts = schedule_facts(tournament, schedule)
    if facts.status == Round.Status.PUBLISHED and schedule.published_at is None:
        schedule.published_at = now
        facts = schedule_facts(tournament, schedule)
    return next_step(schedule_plan(schedule), facts, now)


def _save_next(schedule: Schedule, planned: Next, error: str = "") -> None:
    schedule.next_step = planned.step.value if planned.step else ""
    schedule.next_round = planned.number
    schedule.next_step_at = None if schedule.paused else planned.at
    schedule.last_error = error
    schedule.under_way_since = None
    schedule.save(update_fields=["next_step", "next_round", "next_step_at", "last_error",
                                 "check_in_round", "settled_round", "published_at",
                                 "under_way_since"])


def _take(tournament: Tournament, schedule: Schedule, planned: Next, now: datetime,
          user: RequestUser | None = None) -> None:
    """Take ``planned`` (its facts read under the lock just now), then plan the next step."""
    number = planned.number
    if planned.step == Step.CHECK_IN:
        _open_check_in(tournament, schedule, planned, now)
    elif planned.step == Step.START:
        _start(tournament, schedule, number, now, user)
    elif planned.step == Step.SETTLE:
        _settle(tournament, schedule, number)
    elif planned.step == Step.COMPLETE:
        round = Round.objects.get(tournament=tournament, number=number)
        round_complete(round=round, user=user)
        schedule.published_at = None
    _save_next(schedule, _plan(tournament, schedule, now))


def _open_check_in(tournament: Tournament, schedule: Schedule, planned: Next,
                   now: datetime) -> None:
    """Open round ``planned.number``'s self check-in until its window closes, and tell its
    players (once: the notification's key names the tournament and the round)."""
    number = planned.number
    plan = schedule_plan(schedule)
    # the step is due at the window's opening, so the round starts that much later
    start = (planned.at or now) + (plan.check_in_opens or timedelta(0))
    window = check_in_window(plan, start)
    closes = window[1] if window else start
    tournament.check_in_closes = closes
    tournament.save(update_fields=["check_in_closes"])
    schedule.check_in_round = number
    params = {"tournament": tournament.name, "tournament_id": tournament.pk, "round": number,
              "closes": closes.isoformat(), "starts": start.isoformat(),
              "time_zone": schedule.time_zone}
    # each to the check-in on their own player's page
    notify_each([Notice(user, "check_in", f"check_in:{tournament.pk}:{number}", params,
                        reverse("tournaments:player_detail", args=[player]) + "#check-in")
                 for user, player in player_logins(tournament)])


def _start(tournament: Tournament, schedule: Schedule, number: int, now: datetime,
           user: RequestUser | None) -> None:
    """Pair round ``number`` (or take the draft an organiser paired), publish it and open its
    tables; a check-in window still open closes (who has not checked in has a bot)."""
    round = tournament.rounds.filter(number=number).first()
    if round is None:
        round = round_pair_next(tournament=tournament, user=user)
    if tournament.check_in_closes is not None and tournament.check_in_closes > now:
        tournament.check_in_closes = now
        tournament.save(update_fields=["check_in_closes"])
    round_publish(round=round, user=user)
    schedule.published_at = now


def _settle(tournament: Tournament, schedule: Schedule, number: int) -> None:
    """Round ``number``'s hard deadline passed: every table still played is settled by the
    schedule's rule, bots for every person's seat (they play on at full speed:
    ``games.live.pacing``) or the table ended with its finished hands counted."""
    round = Round.objects.get(tournament=tournament, number=number)
    reason = gettext("not finished by round %(number)d's deadline") % {"number": number}
    for match, table_id in unsettled_tables(round):
        if schedule.at_deadline == Schedule.AtDeadline.ADJUDICATE:
            match_adjudicate_live_table(match=match, reason=reason)
            continue
        for seat in LiveSeat.objects.filter(table_id=table_id, user__isnull=False) \
                .values_list("seat", flat=True):
            try:
                director.pin(table_id, seat)
            except TableError as exc:  # its game ended meanwhile: its result comes by itself
                log.info("live table %s, seat %s: not settled (%s)", table_id, seat, exc)
    schedule.settled_round = number


# -- the organiser's hand on the schedule ------------------------------------------------


def schedule_save(*, schedule: Schedule, user: RequestUser) -> Schedule:
    """Store the schedule an organiser set (or changed) and plan its next step from it."""
    tournament = schedule.tournament
    require_organiser(user, tournament)
    if tournament.play != Tournament.Play.ONLINE:
        raise TournamentUserError(gettext(
            "%(tournament)s is played at the venue: only an online tournament runs on a "
            "schedule") % {"tournament": tournament})
    with transaction.atomic():
        Tournament.objects.select_for_update(of=("self",)).filter(pk=tournament.pk).first()
        schedule.save()
        return schedule_replan(tournament=tournament)


def schedule_replan(*, tournament: Tournament, now: datetime | None = None) -> Schedule:
    """Plan the schedule's next step again from what is stored (under the tournament's
    lock): after it was set, paused or resumed, a round moved, or an organiser took a round
    step by hand."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament, schedule = _lock_scheduled(tournament)
        _save_next(schedule, _plan(tournament, schedule, now), schedule.last_error)
    return schedule


def schedule_pause(*, tournament: Tournament, paused: bool, user: RequestUser,
                   now: datetime | None = None) -> Schedule:
    """Pause the schedule (nothing runs by itself; rounds being played go on) or resume it
    (what fell due meanwhile is taken at the next tick)."""
    require_organiser(user, tournament)
    Schedule.objects.filter(tournament=tournament).update(paused=paused)
    return schedule_replan(tournament=tournament, now=now)


def schedule_move_round(*, tournament: Tournament, number: int, at: datetime,
                        user: RequestUser, now: datetime | None = None) -> Schedule:
    """Give round ``number`` (not started yet) its own start time ``at`` (aware; stored in
    UTC); its check-in window moves with it."""
    require_organiser(user, tournament)
    if timezone.is_naive(at):
        raise TournamentUserError(gettext("say in which time zone the new time is"))
    started = tournament.rounds.filter(number=number).exclude(
        status=Round.Status.DRAFT).exists()
    if started:
        raise TournamentUserError(gettext(
            "round %(number)d has started already: only a round still to come can be moved")
            % {"number": number})
    with transaction.atomic():
        _tournament, schedule = _lock_scheduled(tournament)
        schedule.round_times = {**(schedule.round_times or {}),
                                str(number): at.astimezone(UTC).isoformat()}
        schedule.save(update_fields=["round_times"])
    return schedule_replan(tournament=tournament, now=now)


def schedule_run_now(*, tournament: Tournament, user: RequestUser,
                     now: datetime | None = None) -> str:
    """Take the schedule's next step now, by hand, whatever its time (waiting for the
    tournament's lock rather than skipping it); what was done, in words. A step that cannot
    be taken (a round with tables still played) is refused with its reason, changing
    nothing."""
    require_organiser(user, tournament)
    now = now or timezone.now()
    with transaction.atomic():
        tournament, schedule = _lock_scheduled(tournament)
        planned = _plan(tournament, schedule, now)
        if planned.step is None:
            raise TournamentUserError(gettext("every round of %(tournament)s is played") % {
                "tournament": tournament})
        _take(tournament, schedule, planned, now, user)
    label = Schedule.NextStep(planned.step.value).label
    return gettext("Round %(number)d: %(step)s, done.") % {"number": planned.number,
                                                          "step": label}
