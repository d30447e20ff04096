"""Robot duplicate events (``models.robot``): an entrant starts their table within the
event's window, plays it live against the bots, and the finished game is stored on their
entry; the ranking is read from the entries (``selectors.robot``).

Locks: entering takes the event's row first (so two entries of one event, or one person
entering twice at once, come one after the other), then writes the entry and opens its live
table; the finished-table handler holds the table's lock (``games.live.kinds``) and then
the entry's. No path takes them the other way round.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import verify
from games.live.errors import TableError
from games.live.models import LiveTable
from games.live.service import SeatPlan, create_table
from tournaments.bot_share import hands_finished_by_bots
from tournaments.models import ROBOT_TABLE_KIND, RobotEntry, RobotEvent
from tournaments.selectors.robot import robot_results_hidden

from .errors import TournamentUserError
from .results import verdict_record_json

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

log = logging.getLogger(__name__)


def robot_enter(*, event: RobotEvent, user: User, partner: User | None = None,
                now: datetime | None = None) -> RobotEntry:
    """Start ``user``'s table of ``event`` (with ``partner`` in seat 2 of a pairs event):
    the event's boards, bots of its level in the other seats. ``TournamentUserError``
    saying why for an event not open, a missing or needless partner, an organiser of the
    event (who may see every table), or anyone who has already played it."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = RobotEvent.objects.select_for_update().get(pk=event.pk)
        _check_entry(locked, user, partner, now)
        try:
            with transaction.atomic():
                entry = RobotEntry.objects.create(event=locked, player=user, partner=partner)
        except IntegrityError:  # a second entry raced past the check: the constraint held
            raise TournamentUserError(_("you have already played %(event)s: its boards are "
                                        "played once") % {"event": locked}) from None
        plans = [SeatPlan(user=user, substitute=locked.bot_level),
                 SeatPlan(bot=locked.bot_level),
                 SeatPlan(user=partner, substitute=locked.bot_level) if partner is not None
                 else SeatPlan(bot=locked.bot_level),
                 SeatPlan(bot=locked.bot_level)]
        try:
            entry.live_table = create_table(
                plans, seed=locked.seed, reports_to=ROBOT_TABLE_KIND, result_ref=str(entry.pk),
                move_seconds=locked.turn_seconds, grace_seconds=locked.grace_seconds,
                awaiting=True)
        except TableError as exc:
            raise TournamentUserError(str(exc)) from None
        entry.save(update_fields=["live_table"])
    return entry


def _check_entry(event: RobotEvent, user: User, partner: User | None, now: datetime) -> None:
    if now < event.opens:
        raise TournamentUserError(_("%(event)s opens at %(time)s") % {
            "event": event, "time": timezone.localtime(event.opens).strftime("%Y-%m-%d %H:%M")})
    if now >= event.closes:
        raise TournamentUserError(_("%(event)s has closed") % {"event": event})
    pairs = event.kind == RobotEvent.Kind.PAIRS
    if pairs and partner is None:
        raise TournamentUserError(_("a pairs event is played with a partner: name yours"))
    if not pairs and partner is not None:
        raise TournamentUserError(_("an individual event is played alone, with three bots"))
    if partner is not None and partner.pk == user.pk:
        raise TournamentUserError(_("your partner is another person"))
    people = [user] if partner is None else [user, partner]
    organisers = event.organisers.filter(pk__in=[p.pk for p in people])
    if user.is_superuser or organisers.exists():
        raise TournamentUserError(_("an organiser of %(event)s sees every table, so does not "
                                    "play it") % {"event": event})
    for person in people:
        if RobotEntry.objects.filter(Q(player=person) | Q(partner=person), event=event).exists():
            raise TournamentUserError(_("%(name)s has already played %(event)s: its boards "
                                        "are played once") % {"name": person.get_username(),
                                                              "event": event})


def record_robot_result(table: LiveTable) -> None:
    """The handler of a finished robot duplicate table (under the table's lock): its game
    becomes the entry's, with the boards a bot finished for a person marked."""
    with transaction.atomic():
        entry = (RobotEntry.objects.select_for_update().filter(pk=int(table.result_ref))
                 .first())
        if entry is None:
            log.warning("%s finished, but its entry %s was removed", table, table.result_ref)
            return
        if entry.finished is not None:
            return
        record = verdict_record_json(table.record)
        entry.record = record
        # the engine replays the game for its hand scores (R9.1), as for any stored record
        entry.hand_scores = [list(hand.scores) for hand in verify(record).hands]
        entry.bot_hands = hands_finished_by_bots(record)
        entry.finished = timezone.now()
        entry.save(update_fields=["record", "hand_scores", "bot_hands", "finished"])



def may_watch_robot_table(table: LiveTable, user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """The watch policy of robot duplicate tables: the event's organisers always; anyone else
    only once the results are shown (``selectors.robot``), in play or finished."""
    entry = RobotEntry.objects.filter(live_table=table).select_related("event").first()
    if entry is None:
        return True
    organiser = user is not None and user.is_authenticated and (
        getattr(user, "is_superuser", False)
        or entry.event.organisers.filter(pk=user.pk).exists())
    return organiser or not robot_results_hidden(entry.event)
