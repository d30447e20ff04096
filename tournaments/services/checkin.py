"""Check-in: who is present for a round. An organiser marks the whole roster of a round;
a player checks themselves in while the tournament's window is open. A player not present
is absent, and a bot plays in their seat (``services.rounds``), exactly as for an absence
marked in advance."""

from __future__ import annotations

import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.users import RequestUser
from tournaments.models import Absence, CheckIn, Player, Round, Tournament
from tournaments.selectors import round_player_problem, self_check_in_round, tournament_players

from .access import require_organiser
from .errors import TournamentUserError
from .rounds import round_fill_seats


def check_in_settings(*, tournament: Tournament, required: bool,
                      closes: datetime.datetime | None, user: RequestUser) -> None:
    """Whether players must check in, and until when they may do it themselves."""
    require_organiser(user, tournament)
    tournament.check_in_required = required
    tournament.check_in_closes = closes
    tournament.save(update_fields=["check_in_required", "check_in_closes"])


def check_in_roster(*, tournament: Tournament, number: int, present: set[int],
                    user: RequestUser) -> int:
    """Mark who is present for round ``number``: the players in ``present`` are checked in,
    every other player of the tournament's teams is absent. A round already paired has its
    absent players' seats filled with bots at once; returns how many seats changed."""
    require_organiser(user, tournament)
    players = list(tournament_players(tournament, withdrawn=False))
    if players:
        _valid(tournament, number, players[0])
    strangers = present - {player.pk for player in players}
    if strangers:
        raise TournamentUserError(_("Only the players of %(tournament)s can be checked in.")
                                  % {"tournament": tournament})
    with transaction.atomic():
        here = [p.pk for p in players if p.pk in present]
        away = [p.pk for p in players if p.pk not in present]
        rows = {"tournament": tournament, "round_number": number}
        Absence.objects.filter(**rows, player_id__in=here).delete()
        CheckIn.objects.filter(**rows, player_id__in=away).delete()
        known = set(CheckIn.objects.filter(**rows).values_list("player_id", flat=True))
        CheckIn.objects.bulk_create([CheckIn(**rows, player_id=pk)
                                     for pk in here if pk not in known])
        marked = set(Absence.objects.filter(**rows).values_list("player_id", flat=True))
        Absence.objects.bulk_create([Absence(**rows, player_id=pk)
                                     for pk in away if pk not in marked])
        round = Round.objects.filter(tournament=tournament, number=number).first()
        if round is None:
            return 0
        return round_fill_seats(round=round, user=user)


def check_in_self(*, tournament: Tournament, user: RequestUser) -> int:
    """The logged-in player checks in for the round the tournament's open window is for;
    returns its number. Repeating it changes nothing."""
    player = Player.objects.filter(user=user).first() if user.is_authenticated else None
    if player is None:
        raise PermissionDenied(_("Only a player's own login checks them in."))
    number = self_check_in_round(tournament)
    if number is None:
        raise TournamentUserError(_("Check-in for %(tournament)s is closed.")
                                  % {"tournament": tournament})
    if not tournament_players(tournament, withdrawn=False).filter(pk=player.pk).exists():
        raise TournamentUserError(_("%(player)s does not play in %(tournament)s.")
                                  % {"player": player, "tournament": tournament})
    with transaction.atomic():
        CheckIn.objects.get_or_create(tournament=tournament, round_number=number, player=player,
                                      defaults={"by_player": True})
        Absence.objects.filter(tournament=tournament, round_number=number,
                               player=player).delete()
    return number


def _valid(tournament: Tournament, number: int, player: Player) -> None:
    try:
        round_player_problem(tournament, number, player)
    except ValidationError as exc:
        raise TournamentUserError(" ".join(exc.message_dict.get("round_number", []))) from None
