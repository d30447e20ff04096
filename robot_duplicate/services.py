"""Robot duplicate events (``models``): an entrant starts their table within the event's
window, plays it live against the bots, and the finished game is stored on their entry; the
ranking is read from the entries (``selectors``).

A pairs entrant invites their partner, who accepts (the table is dealt then) or refuses.

Locks: entering, answering and withdrawing take the event's row first (so two entries of one
event, one person entering twice at once, or partners accepting each other's invitations at
once, come one after the other), then the entry, then open its live table; the
finished-table handler holds the table's lock (``games.live.kinds``) and then the entry's.
No path takes them the other way round.
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
from tournaments.services.errors import TournamentUserError
from tournaments.services.results import verdict_record_json

from .models import ROBOT_TABLE_KIND, RobotEntry, RobotEvent
from .selectors import robot_results_hidden

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

log = logging.getLogger(__name__)


def robot_enter(*, event: RobotEvent, user: User, partner: User | None = None,
                now: datetime | None = None) -> RobotEntry:
    """Start ``user``'s table of an individual ``event``, or invite ``partner`` to play a
    pairs event with them (no table until the partner accepts, ``robot_answer``).
    ``TournamentUserError`` saying why for an event not open, a missing or needless partner,
    an organiser of the event (who may see every table), or anyone who has already played it
    or has an invitation out; one neutral sentence for a partner who cannot be invited,
    whatever the reason, so that the answer does not tell who has an account."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = RobotEvent.objects.select_for_update().get(pk=event.pk)
        _check_entry(locked, user, partner, now)
        try:
            with transaction.atomic():
                entry = RobotEntry.objects.create(event=locked, player=user, partner=partner,
                                                  awaiting_partner=partner is not None)
        except IntegrityError:  # a second entry raced past the check: the constraint held
            raise TournamentUserError(_("you have already played %(event)s: its boards are "
                                        "played once") % {"event": locked}) from None
        if partner is None:
            _deal(locked, entry)
    return entry


def robot_answer(*, entry: RobotEntry, user: User, accept: bool,
                 now: datetime | None = None) -> RobotEntry | None:
    """The invited partner's answer: accepting deals the pair's table (and drops every other
    invitation either of them had, out or in, since each plays the event once); refusing
    removes the invitation. Returns the entry, or ``None`` once refused."""
    now = now or timezone.now()
    with transaction.atomic():
        event = RobotEvent.objects.select_for_update().get(pk=entry.event_id)
        locked = RobotEntry.objects.select_for_update().filter(
            pk=entry.pk, partner_id=user.pk, awaiting_partner=True).first()
        if locked is None:
            raise TournamentUserError(_("this invitation is no longer open: the player "
                                        "withdrew it or one of you has played %(event)s")
                                      % {"event": event})
        if not accept:
            locked.delete()
            return None
        _check_open(event, now)
        _check_not_played(event, [locked.player, user], exclude=locked.pk)
        locked.awaiting_partner = False
        locked.save(update_fields=["awaiting_partner"])
        people = [locked.player_id, user.pk]
        (RobotEntry.objects.filter(event=event, awaiting_partner=True)
         .filter(Q(player_id__in=people) | Q(partner_id__in=people)).exclude(pk=locked.pk)
         .delete())
        _deal(event, locked)
    return locked


def robot_withdraw(*, entry: RobotEntry, user: User) -> None:
    """The player takes back an invitation the partner has not accepted."""
    with transaction.atomic():
        RobotEvent.objects.select_for_update().get(pk=entry.event_id)
        deleted, _rows = RobotEntry.objects.filter(pk=entry.pk, player_id=user.pk,
                                                   awaiting_partner=True).delete()
    if not deleted:
        raise TournamentUserError(_("this invitation is no longer open: your partner has "
                                    "answered it"))


def _deal(event: RobotEvent, entry: RobotEntry) -> None:
    """Open the entry's live table: the event's boards, bots of its level in the seats no
    person holds (and as the substitute of a person who leaves)."""
    level = event.bot_level
    plans = [SeatPlan(user=entry.player, substitute=level), SeatPlan(bot=level),
             SeatPlan(user=entry.partner, substitute=level) if entry.partner is not None
             else SeatPlan(bot=level),
             SeatPlan(bot=level)]
    try:
        entry.live_table = create_table(
            plans, seed=event.seed, reports_to=ROBOT_TABLE_KIND, result_ref=str(entry.pk),
            move_seconds=event.turn_seconds, grace_seconds=event.grace_seconds, awaiting=True)
    except TableError as exc:
        raise TournamentUserError(str(exc)) from None
    entry.save(update_fields=["live_table"])


def _check_open(event: RobotEvent, now: datetime) -> None:
    if now < event.opens:
        raise TournamentUserError(_("%(event)s opens at %(time)s") % {
            "event": event, "time": timezone.localtime(event.opens).strftime("%Y-%m-%d %H:%M")})
    if now >= event.closes:
        raise TournamentUserError(_("%(event)s has closed") % {"event": event})


def _check_entry(event: RobotEvent, user: User, partner: User | None, now: datetime) -> None:
    _check_open(event, now)
    pairs = event.kind == RobotEvent.Kind.PAIRS
    if pairs and partner is None:
        raise TournamentUserError(_("a pairs event is played with a partner: name yours"))
    if not pairs and partner is not None:
        raise TournamentUserError(_("an individual event is played alone, with three bots"))
    if partner is not None and partner.pk == user.pk:
        raise TournamentUserError(_("your partner is another person"))
    if _organises(event, user):
        raise TournamentUserError(_("an organiser of %(event)s sees every table, so does not "
                                    "play it") % {"event": event})
    if RobotEntry.objects.filter(event=event, player=user, awaiting_partner=True).exists():
        raise TournamentUserError(_("your invitation to play %(event)s is still open: "
                                    "withdraw it before you invite another partner")
                                  % {"event": event})
    _check_not_played(event, [user])
    if partner is not None:
        # every check for every partner, so that each refusal takes as long
        refused = [not partner.is_active, _organises(event, partner),
                   _has_played(event, partner), partner.pk == NOBODY]
        if any(refused):
            raise TournamentUserError(cannot_invite(partner.get_username(), event))


#: The id of no account: the stand-in for a name nobody has (``partner_named``).
NOBODY = 0


def partner_named(name: str) -> User:
    """The account called ``name``; for a name nobody has, a stand-in of no account that
    ``robot_enter`` refuses with the sentence it gives a person who may not play, after the
    same checks (the same queries, in the same transaction): neither the answer nor the
    time it takes tells who has an account."""
    found = User.objects.filter(username=name).first()
    return found if found is not None else User(pk=NOBODY, username=name)


def cannot_invite(name: str, event: RobotEvent) -> str:
    """The one answer for a partner who does not exist, may not play or has played."""
    return _("No invitation was sent: “%(name)s” is not someone who may play %(event)s "
             "with you.") % {"name": name, "event": event}


def _organises(event: RobotEvent, person: User) -> bool:
    organiser = event.organisers.filter(pk=person.pk).exists()  # asked of a superuser too
    return person.is_superuser or organiser


def _has_played(event: RobotEvent, person: User, exclude: int | None = None) -> bool:
    """Whether ``person`` holds a seat at one of the event's tables (an invitation still
    waiting for its partner is not a seat)."""
    entries = RobotEntry.objects.filter(event=event, awaiting_partner=False)
    if exclude is not None:
        entries = entries.exclude(pk=exclude)
    return entries.filter(Q(player=person) | Q(partner=person)).exists()


def _check_not_played(event: RobotEvent, people: list[User], exclude: int | None = None) -> None:
    for person in people:
        if _has_played(event, person, exclude):
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
    only once the results are shown (``selectors``), in play or finished."""
    entry = RobotEntry.objects.filter(live_table=table).select_related("event").first()
    if entry is None:
        return True
    organiser = user is not None and user.is_authenticated and (
        getattr(user, "is_superuser", False)
        or entry.event.organisers.filter(pk=user.pk).exists())
    return organiser or not robot_results_hidden(entry.event)
