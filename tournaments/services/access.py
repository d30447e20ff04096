"""Who may do what: organisers change their own tournaments; players submit their matches."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from tournaments.models import Match, Tournament


def is_organiser(user: Any, tournament: Tournament) -> bool:
    """Superusers organise everything; others only the tournaments they are organisers of."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser or tournament.organisers.filter(pk=user.pk).exists())


def is_player_of(user: Any, match: Match) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return match.seats.filter(player__user=user).exists()


def require_organiser(user: Any, tournament: Tournament) -> None:
    if not is_organiser(user, tournament):
        raise PermissionDenied(_("only the organisers of %(tournament)s may do this")
                               % {"tournament": tournament})


def require_submitter(user: Any, match: Match) -> None:
    """Results come from the tournament's organisers or the match's own players."""
    if not (is_organiser(user, match.round.tournament) or is_player_of(user, match)):
        raise PermissionDenied(_("only this tournament's organisers and this match's players "
                                 "may submit its result"))
