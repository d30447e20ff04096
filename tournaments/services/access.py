"""Who may do what: organisers change their own tournaments and the players and teams of the
register that play only in them; players submit their matches."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext

from config.users import RequestUser
from tournaments.models import Club, Match, Player, Result, Team, Tournament
from tournaments.selectors.people import register_tournaments
from tournaments.selectors.reporting import side_in
from tournaments.selectors.visibility import boards_hidden_from, may_see_game

from .errors import TournamentUserError


def is_organiser(user: RequestUser | None, tournament: Tournament) -> bool:
    """Superusers organise everything; others only the tournaments they are organisers of."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_superuser or tournament.organisers.filter(pk=user.pk).exists())


def is_player_of(user: RequestUser, match: Match) -> bool:
    return side_of(user, match) is not None


def require_organiser(user: RequestUser, tournament: Tournament) -> None:
    if not is_organiser(user, tournament):
        raise PermissionDenied(gettext("only the organisers of %(tournament)s may do this")
                               % {"tournament": tournament})


def require_submitter(user: RequestUser, match: Match) -> None:
    """Results come from the tournament's organisers or the match's own players; an
    organiser who plays in a secret duplicate round enters none of its other tables' (the
    admin shows them none), and is answered as anyone else who may not."""
    player = is_player_of(user, match)
    if not (player or (is_organiser(user, match.round.tournament)
                       and not boards_hidden_from(match.round, user))):
        raise PermissionDenied(gettext("only this tournament's organisers and this match's "
                                       "players may submit its result"))


def result_to_answer(user: RequestUser, match: Match) -> Result | None:
    """The match's result for ``user`` to confirm or dispute, or None, as if it had none,
    where it is a secret duplicate round's game they may not see (``may_see_game``) at a
    table they do not play at: which tables have finished is the round's secret."""
    result = Result.objects.filter(match=match).select_related("match__round").first()
    if result is not None and not may_see_game(match, user) and not is_player_of(user, match):
        return None
    return result


def side_of(user: RequestUser, match: Match) -> int | None:
    """The side ``user`` plays on in ``match``: 0 for team A (seats 0 and 2), 1 for team B
    (seats 1 and 3), ``None`` when they have no seat there."""
    return side_in(user, match)


def require_confirmer(user: RequestUser, result: Result) -> None:
    """An unconfirmed result is confirmed by someone other than its submitter's side: a
    player of the other team when a player of the match entered it, or an organiser who
    neither entered it nor plays in the match."""
    match = result.match
    submitter_side = side_of(result.entered_by, match) if result.entered_by else None
    side = side_of(user, match)
    if side is not None:
        if submitter_side is None or side == submitter_side:
            raise PermissionDenied(gettext(
                "a player of the match confirms only a result the other team entered"))
        return
    require_organiser(user, match.round.tournament)
    if result.entered_by_id == user.pk:
        raise TournamentUserError(gettext(
            "a result is confirmed by another organiser than the one who entered it (or, "
            "when a player entered it, by a player of the other team)"))


def require_disputer(user: RequestUser, result: Result) -> None:
    """Only a player of the other team disputes a result a player entered (an organiser who
    doubts one corrects or withdraws it)."""
    if side_of(user, result.match) is None:
        raise PermissionDenied(gettext(
            "only a player of the other team may dispute this result"))
    require_confirmer(user, result)


def may_edit_register(user: RequestUser, item: Player | Team | Club) -> bool:
    """Players, teams and clubs are a shared register, and every tournament one takes part
    in shows its name: a superuser changes or deletes any; an organiser one that takes part
    in no tournament but theirs (``selectors.people.register_tournaments``)."""
    if not user.is_authenticated:  # the admin's users are signed in: this one edits nothing
        return False
    return (bool(user.is_superuser)
            or not register_tournaments(item).exclude(organisers=user).exists())
