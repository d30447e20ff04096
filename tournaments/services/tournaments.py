"""An organiser sets up a tournament: creates and changes it, and enters teams with their
seeds and withdraws them. The admin's pages and the API call these, so both check the same
things (the model's own checks, named by field: ``errors.FieldsInvalid``), with the same
permission rule (any staff account creates a tournament and organises it; a tournament is
changed by its organisers only) and the same follow-ups.

A tournament starts with its first round (a draft counts: its entries are paired). From
then on no team enters (a Swiss would pair a late team as if it had lost every round
before, a round robin's plan and a bracket are fixed), and a team that withdraws keeps its
entry, marked withdrawn, since its matches refer to it; before, withdrawing deletes the
entry, as if never made, and the first team on the waiting list takes the place.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from config.users import RequestUser
from tournaments.formats.base import PairingError
from tournaments.formats.registry import unread_settings
from tournaments.models import Entry, Team, Tournament
from tournaments.selectors.entries import has_started

from .access import require_organiser
from .derived import ratings_recalculate, standings_recalculate
from .entries import entries_move_up
from .errors import TournamentUserError, checked

#: The settings an organiser gives (the API's body; the admin's form has them too): a
#: tournament's organisers and status are its steps', not settings.
SETTINGS = ("name", "format", "starts_on", "ends_on", "rounds_planned", "points_win",
            "points_draw", "points_loss", "points_bye", "tiebreaks", "bye_policy",
            "bot_level", "knockout_tie_rule", "third_place_match", "play", "spectators",
            "turn_seconds", "reserve_seconds", "grace_seconds", "wait_for_players",
            "bot_share_limit", "dealing", "confirm_score_sheets", "duplicate",
            "check_in_required", "check_in_closes", "entry_mode", "entries_open",
            "entries_close", "capacity", "waiting_list")


@dataclass(frozen=True)
class TournamentSaved:
    """A saved tournament and what its change set going: the teams moved up from the
    waiting list, and whether the standings and ratings are being recalculated."""

    tournament: Tournament
    moved_up: int = 0
    recalculating: bool = False


def require_staff(user: RequestUser) -> None:
    """Organisers are staff accounts (the admin's users): only they create tournaments and
    register players and teams."""
    if not (user.is_authenticated and user.is_active and user.is_staff):
        raise PermissionDenied(_("only organisers (staff accounts) may do this"))


def tournament_save(*, tournament: Tournament, user: RequestUser,
                    changed: Collection[str] = ()) -> TournamentSaved:
    """Store ``tournament`` as set (a new one, or one whose ``changed`` settings were set),
    checked; whoever creates it organises it. A changed number of places gives the free
    ones to the waiting list; a changed bot-share limit recalculates the standings and the
    ratings (which games count changed)."""
    new = tournament.pk is None
    if new:
        require_staff(user)
    else:
        require_organiser(user, tournament)
    checked(tournament)
    with transaction.atomic():
        tournament.save()
        if new:
            assert user.is_authenticated  # require_staff lets no one else by
            tournament.organisers.add(user)
    moved = (entries_move_up(tournament=tournament, user=user)
             if not new and {"capacity", "waiting_list"} & set(changed) else 0)
    recalculating = not new and "bot_share_limit" in changed
    if recalculating:
        standings_recalculate(tournament=tournament, user=user)
        ratings_recalculate(tournament=tournament, user=user)
    return TournamentSaved(tournament, moved, recalculating)


def _settings_set(tournament: Tournament, values: Mapping[str, Any]) -> list[str]:
    """Set ``values`` on ``tournament``, refusing a setting it does not have and one its
    format (the one given, or its own) does not read; returns the names set."""
    unknown = sorted(set(values) - set(SETTINGS))
    if unknown:
        raise TournamentUserError(_("%(fields)s: not a tournament setting"),
                                  {"fields": ", ".join(unknown)})
    chosen = values.get("format", tournament.format)
    try:
        unread = unread_settings(chosen)
    except PairingError:  # not a registered format: the model's check names it
        unread = frozenset()
    ignored = sorted(unread & set(values))
    if ignored:
        raise TournamentUserError(_("%(fields)s: a %(format)s tournament does not read "
                                    "this setting; leave it out"),
                                  {"fields": ", ".join(ignored), "format": chosen})
    for name, value in values.items():
        setattr(tournament, name, value)
    return list(values)


def tournament_create(*, values: Mapping[str, Any], user: RequestUser) -> Tournament:
    """A new tournament with ``values`` (``SETTINGS``; the others keep their defaults),
    organised by ``user``."""
    tournament = Tournament()
    _settings_set(tournament, values)
    return tournament_save(tournament=tournament, user=user).tournament


def tournament_change(*, tournament: Tournament, values: Mapping[str, Any],
                      user: RequestUser) -> TournamentSaved:
    """``tournament`` with ``values`` changed (the others as they are)."""
    require_organiser(user, tournament)
    changed = _settings_set(tournament, values)
    return tournament_save(tournament=tournament, user=user, changed=changed)


def entry_save(*, entry: Entry, user: RequestUser) -> Entry:
    """Store ``entry`` as set (a team entered with its seed, a seed changed, a team marked
    withdrawn), checked, for the tournament's organisers; a team enters only before the
    tournament starts."""
    require_organiser(user, entry.tournament)
    if entry._state.adding and has_started(entry.tournament):
        raise TournamentUserError(_("%(tournament)s has started: teams enter before its "
                                    "first round is paired"),
                                  {"tournament": entry.tournament.name})
    checked(entry)
    entry.save()
    return entry


def entry_add(*, tournament: Tournament, team: Team, seed: int | None,
              user: RequestUser) -> Entry:
    """``team`` enters ``tournament`` with ``seed`` (1 the best; None: unseeded)."""
    return entry_save(entry=Entry(tournament=tournament, team=team, seed=seed), user=user)


def entry_remove(*, tournament: Tournament, team: Team, user: RequestUser) -> Entry | None:
    """``team`` withdraws from ``tournament``: before the start its entry goes (and the
    first team waiting takes the place; returns None), after it the entry stays, marked
    withdrawn (no later round pairs it; returns it)."""
    require_organiser(user, tournament)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entry = Entry.objects.filter(tournament=locked, team=team).first()
        if entry is None:
            raise TournamentUserError(_("%(team)s is not entered in %(tournament)s"),
                                      {"team": team.name, "tournament": locked.name})
        if has_started(locked):
            entry.withdrawn = True
            entry.save(update_fields=["withdrawn"])
            return entry
        entry.delete()
        entries_move_up(tournament=locked, user=user)
    return None

