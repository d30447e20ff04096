"""Players entering by themselves, with a partner: the ask, the partner's answer, the
organisers' approval, the waiting list and withdrawing before the start.

A player with a login names a partner by their player handle (the ``@name`` the site shows
beside every player). Nothing is entered until the partner accepts. Whether a player has
that handle never changes the answer: the request is stored and answered the same, and
only a real partner is told of it (a request naming nobody is simply never accepted).

Every step that can give a place locks the tournament's row first, then the request's:
two teams completing at once for the last place are served one after the other, and the
second finds the place taken (and waits, where there is a waiting list).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.users import RequestUser
from tournaments.models import Entry, EntryRequest, Notification, Player, Team, Tournament
from tournaments.selectors.entries import (
    active_request_of,
    entered_team_entry,
    entries_open_now,
    entry_counts,
    has_started,
    takes_entries,
    waiting_list,
    waiting_position,
)

from .access import require_organiser
from .errors import TournamentUserError
from .notices import notify

State = EntryRequest.State
_HANDLE = re.compile(r"[-a-zA-Z0-9_]{1,40}")


def own_player(user: RequestUser) -> Player:
    """The player linked to ``user``'s login; only a player enters, answers or withdraws."""
    player = Player.objects.filter(user_id=user.pk).first() if user.is_authenticated else None
    if player is None:
        raise PermissionDenied(_("Only a player's own login enters a team: your account is "
                                 "linked to no player (ask an organiser for an invite link)."))
    return player


def require_partner(request: EntryRequest, user: RequestUser) -> Player:
    """The player ``user`` is, when they are the partner ``request`` names; else refused."""
    player = Player.objects.filter(user_id=user.pk).first() if user.is_authenticated else None
    if player is None or request.asker_id == player.pk or not (
            request.partner_id == player.pk
            or (request.partner_id is None
                and request.partner_handle.lower() == player.handle.lower())):
        raise PermissionDenied(_("This request was not made to you: only the partner it "
                                 "names may answer it."))
    return player


def entry_ask(*, tournament: Tournament, partner_handle: str, user: RequestUser
              ) -> EntryRequest:
    """``user``'s player asks the player with ``partner_handle`` to enter ``tournament``
    with them. Refused, with nothing stored, outside the entry window, twice, with oneself,
    with a partner already in the tournament, or into a full tournament without a waiting
    list. A handle nobody has is answered as any other."""
    asker = own_player(user)
    handle = partner_handle.strip().removeprefix("@")
    if not _HANDLE.fullmatch(handle):
        raise TournamentUserError(_("Name your partner by their handle, as their player page "
                                    "shows it after the @: letters, digits, hyphens and "
                                    "underscores."))
    with transaction.atomic():
        tournament = _locked(tournament)
        _require_window(tournament)
        if handle.lower() == asker.handle.lower():
            raise TournamentUserError(_("You cannot enter with yourself: give your partner's "
                                        "handle."))
        _require_free(tournament, asker, own=True)
        partner = Player.objects.filter(handle__iexact=handle).first()
        if partner is not None:
            _require_free(tournament, partner, own=False)
        counts = entry_counts(tournament)
        if counts.full and not tournament.waiting_list:
            raise _full(tournament)
        request = EntryRequest.objects.create(tournament=tournament, asker=asker,
                                              partner_handle=handle)
        if partner is not None and partner.user_id is not None:
            notify([partner.user_id], Notification.Kind.PARTNER_ASKS,
                   f"entry-request:{request.pk}",
                   params={"tournament": tournament.name, "tournament_id": tournament.pk,
                           # "partner": the reader's would-be partner, as notice_words reads it
                           "asker": asker.name, "partner": asker.name,
                           "asker_handle": asker.handle},
                   link=reverse("tournaments:entry_request", args=[request.pk]))
    return request


def entry_answer(*, request: EntryRequest, accept: bool, user: RequestUser) -> EntryRequest:
    """The partner ``request`` names accepts it (the team enters, waits or awaits approval)
    or declines it; once. Refused, with nothing stored, for anyone else, a second time, once
    entries are closed, or when either player is in another team of the tournament."""
    partner = require_partner(request, user)
    with transaction.atomic():
        tournament = _locked(request.tournament)
        request = EntryRequest.objects.select_for_update().select_related("asker").get(
            pk=request.pk)
        if request.state != State.ASKED:
            raise TournamentUserError(_("This request has been answered or withdrawn already "
                                        "(it is now: %(state)s)."),
                                      {"state": request.get_state_display()})
        request.partner = partner
        request.answered = timezone.now()
        if not accept:
            request.state = State.DECLINED
            request.save(update_fields=["partner", "answered", "state"])
            _tell(request, "declined", [request.asker])
            return request
        _require_window(tournament)
        _require_free(tournament, request.asker, own=False, request=request)
        _require_free(tournament, partner, own=True, request=request)
        request.team = _team_of(request.asker, partner)
        request.number = _next_number(tournament)
        if tournament.entry_mode == Tournament.EntryMode.APPROVAL:
            request.state = State.AWAITING
        else:
            _place(tournament, request)
        request.save()
        _tell(request, request.state, [request.asker, partner])
    return request


def entry_withdraw(*, tournament: Tournament, user: RequestUser) -> None:
    """``user``'s player withdraws their team (or their request) from ``tournament`` before
    its first round; a place freed goes to the first team waiting."""
    player = own_player(user)
    with transaction.atomic():
        tournament = _locked(tournament)
        if has_started(tournament):
            raise TournamentUserError(_("%(tournament)s has started: only its organisers can "
                                        "withdraw a team now."), {"tournament": tournament.name})
        request = active_request_of(tournament, player)
        entry = entered_team_entry(tournament, player)
        if request is None and entry is None:
            raise TournamentUserError(_("You have no entry or request in %(tournament)s to "
                                        "withdraw."), {"tournament": tournament.name})
        if entry is not None:
            # before the first round nothing refers to an entry: it goes, as if never made
            entry.delete()
        if request is not None:
            request = EntryRequest.objects.select_for_update().get(pk=request.pk)
            request.state = State.WITHDRAWN
            request.save(update_fields=["state"])
            others = [p for p in (request.asker, request.partner) if p and p.pk != player.pk]
            _tell(request, "withdrawn", others)
        if entry is not None:
            _move_up(tournament)


def entry_approve(*, request: EntryRequest, user: RequestUser) -> EntryRequest:
    """An organiser approves a team awaiting approval: it gets a place, or waits where the
    tournament is full and has a waiting list (refused, changing nothing, where it has
    none)."""
    require_organiser(user, request.tournament)
    with transaction.atomic():
        tournament = _locked(request.tournament)
        request = EntryRequest.objects.select_for_update().get(pk=request.pk)
        if request.state != State.AWAITING:
            raise TournamentUserError(_("%(request)s is not awaiting approval (it is: "
                                        "%(state)s)."), {"request": str(request),
                                                        "state": request.get_state_display()})
        _place(tournament, request)
        request.save(update_fields=["state"])
        _tell(request, request.state, [request.asker, request.partner])
    return request


def entry_refuse(*, request: EntryRequest, user: RequestUser) -> EntryRequest:
    """An organiser refuses a team awaiting approval or waiting for a place."""
    require_organiser(user, request.tournament)
    with transaction.atomic():
        _locked(request.tournament)
        request = EntryRequest.objects.select_for_update().get(pk=request.pk)
        if request.state not in (State.AWAITING, State.WAITING):
            raise TournamentUserError(_("%(request)s is neither awaiting approval nor waiting "
                                        "(it is: %(state)s): withdraw an entered team in its "
                                        "tournament's entries."),
                                      {"request": str(request),
                                       "state": request.get_state_display()})
        request.state = State.REFUSED
        request.save(update_fields=["state"])
        _tell(request, "refused", [request.asker, request.partner])
    return request


def entries_move_up(*, tournament: Tournament, user: RequestUser) -> int:
    """Give the free places (after the organisers raised the number of places) to the
    teams waiting, first come first served, until the first round; returns how many moved
    up."""
    require_organiser(user, tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        return 0 if has_started(tournament) else _move_up(tournament)


# ---------------------------------------------------------------- the steps


def _locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked: every step that gives or frees a place takes it first."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _require_window(tournament: Tournament) -> None:
    if not takes_entries(tournament):
        raise TournamentUserError(_("%(tournament)s takes no entries from players: its "
                                    "organisers enter the teams."),
                                  {"tournament": tournament.name})
    if has_started(tournament):
        raise TournamentUserError(_("%(tournament)s has started: entries are closed."),
                                  {"tournament": tournament.name})
    if not entries_open_now(tournament):
        assert tournament.entries_open is not None and tournament.entries_close is not None
        before = timezone.now() < tournament.entries_open
        when = timezone.localtime(tournament.entries_open if before
                                  else tournament.entries_close)
        raise TournamentUserError(
            _("Entries to %(tournament)s open at %(when)s.") if before else
            _("Entries to %(tournament)s closed at %(when)s."),
            {"tournament": tournament.name, "when": when.strftime("%Y-%m-%d %H:%M")})


def _require_free(tournament: Tournament, player: Player, *, own: bool,
                  request: EntryRequest | None = None) -> None:
    """``player`` is in no team of ``tournament`` (other than ``request``'s): not entered,
    not waiting or awaiting approval, and asking nobody. ``own``: the player acting."""
    params = {"tournament": tournament.name, "player": player.name}
    if entered_team_entry(tournament, player) is not None:
        raise TournamentUserError(
            _("You are already entered in %(tournament)s.") if own else
            _("%(player)s is already entered in %(tournament)s."), params)
    held = (EntryRequest.objects.filter(tournament=tournament, state__in=EntryRequest.ACTIVE)
            .filter(Q(asker=player) | Q(partner=player)))
    if request is not None:
        held = held.exclude(pk=request.pk)
    other = held.first()
    if other is None:
        return
    if other.state == State.ASKED:
        raise TournamentUserError(
            _("You have already asked @%(handle)s to enter %(tournament)s with you: withdraw "
              "that request first.") if own else
            _("%(player)s has already asked someone else to enter %(tournament)s."),
            {**params, "handle": other.partner_handle})
    raise TournamentUserError(
        _("You are already in a team of %(tournament)s (%(state)s).") if own else
        _("%(player)s is already in a team of %(tournament)s."),
        {**params, "state": other.get_state_display()})


def _full(tournament: Tournament) -> TournamentUserError:
    return TournamentUserError(_("%(tournament)s is full (%(capacity)d teams) and has no "
                                 "waiting list."),
                               {"tournament": tournament.name, "capacity": tournament.capacity})


def _place(tournament: Tournament, request: EntryRequest) -> None:
    """Give ``request``'s team a place, or a place on the waiting list (the caller holds the
    tournament's lock and saves the request)."""
    assert request.team is not None
    if Entry.objects.filter(tournament=tournament, team=request.team).exists():
        raise TournamentUserError(_("%(team)s is already entered in %(tournament)s."),
                                  {"team": request.team.name, "tournament": tournament.name})
    if not entry_counts(tournament).full:
        Entry.objects.create(tournament=tournament, team=request.team)
        request.state = State.ENTERED
    elif tournament.waiting_list:
        request.state = State.WAITING
    else:
        raise _full(tournament)


def _move_up(tournament: Tournament) -> int:
    """While a place is free, the first team waiting takes it (under the tournament's lock)."""
    moved = 0
    for request in waiting_list(tournament).select_related("team", "asker", "partner"):
        if entry_counts(tournament).full:
            break
        assert request.team is not None
        if Entry.objects.filter(tournament=tournament, team=request.team).exists():
            continue  # the organisers entered it by hand meanwhile
        Entry.objects.create(tournament=tournament, team=request.team)
        request.state = State.ENTERED
        request.save(update_fields=["state"])
        _tell(request, "moved_up", [request.asker, request.partner])
        moved += 1
    return moved


def _next_number(tournament: Tournament) -> int:
    last = (EntryRequest.objects.filter(tournament=tournament)
            .aggregate(last=Max("number"))["last"])
    return (last or 0) + 1


def _team_of(a: Player, b: Player) -> Team:
    """The two players' team: the first of theirs in the register, else a new one named
    after them (numbered where the name is taken, as team names are unique)."""
    team = (Team.objects.filter(Q(player_a=a, player_b=b) | Q(player_a=b, player_b=a))
            .order_by("id").first())
    if team is not None:
        return team
    stem = f"{a.name} & {b.name}"[:90]
    for number in itertools.count(1):
        name = stem if number == 1 else f"{stem} ({number})"
        if Team.objects.filter(name=name).exists():
            continue
        try:
            with transaction.atomic():  # a savepoint: another team may take the name first
                return Team.objects.create(name=name, player_a=a, player_b=b)
        except IntegrityError:
            continue
    raise AssertionError("unreachable")  # pragma: no cover


#: What became of an entry, as the notification's words (``notice_words``) say it.
_STATUS = {State.ENTERED: "accepted", "moved_up": "accepted", State.WAITING: "waiting",
           State.REFUSED: "refused", "declined": "declined", State.WITHDRAWN: "withdrawn",
           State.AWAITING: "awaiting"}


def _tell(request: EntryRequest, what: str, players: Sequence[Player | None]) -> None:
    """Tell ``players`` (those with a login) what became of their entry: ``what`` is
    entered, waiting, awaiting, moved_up, refused, declined or withdrawn."""
    users = [p.user_id for p in players if p is not None and p.user_id is not None]
    tournament = request.tournament
    params: dict[str, Any] = {
        "tournament": tournament.name, "tournament_id": tournament.pk, "state": what,
        "asker": request.asker.name, "partner_handle": request.partner_handle,
        "team": request.team.name if request.team else ""}
    if what in _STATUS:
        params["status"] = _STATUS[what]  # the sentence notice_words says of it
    if what == State.WAITING:
        params["position"] = waiting_position(request)
    notify(users, Notification.Kind.ENTRY, f"entry-request:{request.pk}:{what}", params=params,
           link=reverse("tournaments:tournament_detail", args=[tournament.pk]))
