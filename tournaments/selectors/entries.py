"""Players entering by themselves: whether a tournament takes entries now, how many places
are taken and how many teams wait, where a player stands, the requests a player is asked
to answer and those a tournament's organisers answer (``services.entries`` writes them)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils import timezone

from config.users import RequestUser
from tournaments.models import Entry, EntryRequest, Player, Round, Tournament

from .visibility import organised_tournaments

State = EntryRequest.State


@dataclass(frozen=True)
class EntryCounts:
    """A tournament's places: taken (its entries not withdrawn), the limit (None: none) and
    the teams waiting for one."""

    taken: int
    capacity: int | None
    waiting: int

    @property
    def full(self) -> bool:
        return self.capacity is not None and self.taken >= self.capacity


@dataclass(frozen=True)
class PlayerEntryState:
    """Where a player stands in a tournament: their active request (None for a team the
    organisers entered), its state, the team's place on the waiting list (1 is next), and
    whether they may still withdraw it themselves."""

    state: str
    request: EntryRequest | None
    position: int | None
    may_withdraw: bool


def takes_entries(tournament: Tournament) -> bool:
    """Whether players may enter themselves (the tournament is not invite only)."""
    return tournament.entry_mode != Tournament.EntryMode.INVITE


def entries_open_now(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    """Whether the entry window is open at ``now`` (default: now) and no round is paired."""
    now = now or timezone.now()
    return (takes_entries(tournament) and tournament.entries_open is not None
            and tournament.entries_close is not None
            and tournament.entries_open <= now < tournament.entries_close
            and not has_started(tournament))


def has_started(tournament: Tournament) -> bool:
    """A tournament starts with its first round (a draft counts: its entries are paired)."""
    return Round.objects.filter(tournament=tournament).exists()


def entry_counts(tournament: Tournament) -> EntryCounts:
    return EntryCounts(
        taken=Entry.objects.filter(tournament=tournament, withdrawn=False).count(),
        capacity=tournament.capacity,
        waiting=EntryRequest.objects.filter(tournament=tournament, state=State.WAITING).count())


def organised_entry_requests(tournament: Tournament,
                             user: RequestUser | None) -> QuerySet[EntryRequest] | None:
    """The tournament's entry requests, in the order of arrival (the newest asked last), for
    its organisers; None for anyone else (the requests are its organisers' to answer)."""
    if not organised_tournaments(user).filter(pk=tournament.pk).exists():
        return None
    return (EntryRequest.objects.filter(tournament=tournament)
            .select_related("asker", "partner", "team").order_by("number", "created", "id"))


def waiting_list(tournament: Tournament) -> QuerySet[EntryRequest]:
    """The teams waiting for a place, the first to move up first."""
    return (EntryRequest.objects.filter(tournament=tournament, state=State.WAITING)
            .order_by("number", "id"))


def entered_team_entry(tournament: Tournament, player: Player) -> Entry | None:
    """The player's team's entry in ``tournament`` (not withdrawn), however it was made."""
    return (Entry.objects.filter(tournament=tournament, withdrawn=False)
            .filter(Q(team__player_a=player) | Q(team__player_b=player))
            .select_related("team").first())


def active_request_of(tournament: Tournament, player: Player) -> EntryRequest | None:
    """The request that holds ``player`` in ``tournament``: one they made and have not
    given up, or one they accepted (a partner's ask they have not answered holds nobody)."""
    return (EntryRequest.objects.filter(tournament=tournament, state__in=EntryRequest.ACTIVE)
            .filter(Q(asker=player) | Q(partner=player))
            .select_related("team", "asker", "partner").order_by("-id").first())


def player_entry_state(tournament: Tournament, player: Player | None) -> PlayerEntryState | None:
    """Where ``player`` stands in ``tournament``, or None when nowhere."""
    if player is None:
        return None
    request = active_request_of(tournament, player)
    started = has_started(tournament)
    if request is None:
        entry = entered_team_entry(tournament, player)
        if entry is None:
            return None
        return PlayerEntryState(state=State.ENTERED, request=None, position=None,
                                may_withdraw=not started)
    return PlayerEntryState(state=request.state, request=request,
                            position=waiting_position(request), may_withdraw=not started)


def requests_to_answer(player: Player) -> QuerySet[EntryRequest]:
    """The asks naming ``player``'s handle that they may still answer (their tournament
    takes entries now)."""
    now = timezone.now()
    return (EntryRequest.objects.filter(state=State.ASKED, partner_handle__iexact=player.handle,
                                        tournament__entries_open__lte=now,
                                        tournament__entries_close__gt=now)
            .exclude(tournament__entry_mode=Tournament.EntryMode.INVITE)
            .exclude(asker=player).select_related("tournament", "asker").order_by("created"))


def player_pending_requests(player: Player) -> QuerySet[EntryRequest]:
    """The player's requests still on their way to a place: asked, awaiting approval,
    waiting (theirs or their partner's)."""
    return (EntryRequest.objects
            .filter(state__in=[State.ASKED, State.AWAITING, State.WAITING])
            .filter(Q(asker=player) | Q(partner=player))
            .select_related("tournament", "asker", "partner", "team").order_by("created"))


def waiting_position(request: EntryRequest) -> int | None:
    """A waiting team's place on its tournament's waiting list (1 is next), else None."""
    if request.state != State.WAITING:
        return None
    return waiting_list(request.tournament).filter(number__lt=request.number).count() + 1
