"""Who is present for a round: absences, check-ins, and when players may check themselves in.

A player misses round ``n`` when an organiser marked them absent from it, or, in a tournament
whose players must check in (``check_in_required``), when they have not checked in for it
when it is paired. Either way a bot plays in their seat (``services.rounds``).
"""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.formats import PairingError
from tournaments.models import Absence, CheckIn, Entry, Player, Round, Team, Tournament

from .rounds import rounds_total


def tournament_players(tournament: Tournament, *, withdrawn: bool = True) -> QuerySet[Player]:
    """The players of the teams entered in ``tournament`` (not of withdrawn teams, unless
    ``withdrawn``), by name."""
    entries = Entry.objects.filter(tournament=tournament)
    if not withdrawn:
        entries = entries.filter(withdrawn=False)
    teams = Team.objects.filter(pk__in=entries.values("team"))
    return (Player.objects.filter(Q(pk__in=teams.values("player_a"))
                                  | Q(pk__in=teams.values("player_b")))
            .order_by("name", "handle"))


def check_round_player(row: Absence | CheckIn) -> None:
    """A new or changed absence or check-in must name a round the tournament has and has not
    completed, and a player of one of its teams (:func:`round_player_problem`); a stored row left
    as it is stays valid when its round completes."""
    if not row.tournament_id or not row.player_id:  # not chosen yet (the stubs type an id int)
        return
    if not row._state.adding and type(row).objects.filter(
            pk=row.pk, tournament_id=row.tournament_id, round_number=row.round_number,
            player_id=row.player_id).exists():
        return
    round_player_problem(row.tournament, row.round_number, row.player)


def round_player_problem(tournament: Tournament, number: int | None, player: Player) -> None:
    """ValidationError (on ``round_number`` or ``player``) unless ``player`` may be marked
    absent from or checked in for round ``number`` of ``tournament``: the round must be one
    the tournament has and not yet complete, and the player in one of its teams."""
    errors: dict[str, str] = {}
    try:
        total = rounds_total(tournament)
    except PairingError:  # a bracket without two teams is not drawn, so has no rounds
        total = 0
    if number is None:
        pass  # the form says the round is missing
    elif not 1 <= number <= total:
        errors["round_number"] = (
            _("Round %(number)s does not exist: %(tournament)s has rounds 1 to %(total)d.")
            % {"number": number, "tournament": tournament, "total": total} if total else
            _("%(tournament)s has no rounds yet: enter at least two teams first.")
            % {"tournament": tournament})
    elif Round.objects.filter(tournament=tournament, number=number,
                              status=Round.Status.COMPLETE).exists():
        errors["round_number"] = _("Round %(number)d of %(tournament)s is already complete.") % {
            "number": number, "tournament": tournament}
    if not tournament_players(tournament).filter(pk=player.pk).exists():
        errors["player"] = _("%(player)s does not play in %(tournament)s: no team of theirs "
                             "is entered in it.") % {"player": player, "tournament": tournament}
    if errors:
        raise ValidationError(errors)


def marked_absent_ids(tournament: Tournament, number: int) -> set[int]:
    """The players marked absent from round ``number`` (by an organiser, or by the roster)."""
    return set(Absence.objects.filter(tournament=tournament, round_number=number)
               .values_list("player_id", flat=True))


def absent_player_ids(tournament: Tournament, number: int) -> set[int]:
    """The players a bot substitutes for when round ``number`` is paired: those marked
    absent, and where players must check in, those who have not. (A round already paired
    seats bots only for players marked absent: turning check-in on while a round is played
    replaces nobody.)"""
    absent = marked_absent_ids(tournament, number)
    if tournament.check_in_required:
        present = CheckIn.objects.filter(tournament=tournament, round_number=number)
        absent |= set(tournament_players(tournament).exclude(
            pk__in=present.values("player")).values_list("pk", flat=True))
    return absent


def next_round_number(tournament: Tournament) -> int | None:
    """The round players check in for: the next one to be paired (None when every round is
    paired, or the latest is not complete yet)."""
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.COMPLETE:
        return None
    number = last.number + 1 if last else 1
    try:
        return number if number <= rounds_total(tournament) else None
    except PairingError:
        return None


def check_in_round_number(tournament: Tournament) -> int | None:
    """The round an organiser's check-in page opens at: the latest round while it is not
    complete (a draft, or a round being played, whose absent players get their bots at
    once), else the next one to be paired."""
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.COMPLETE:
        return last.number
    return next_round_number(tournament)


def self_check_in_round(tournament: Tournament,
                        now: datetime.datetime | None = None) -> int | None:
    """The round players may check themselves in for now, or None while self check-in is
    closed (no window, its end passed, or no round waiting to be paired)."""
    closes = tournament.check_in_closes
    if closes is None or closes <= (now or timezone.now()):
        return None
    return next_round_number(tournament)


def open_check_ins(player: Player) -> list[tuple[Tournament, int, bool]]:
    """The player's tournaments open for self check-in now: (tournament, round, whether the
    player has checked in)."""
    found = []
    tournaments = Tournament.objects.filter(
        check_in_closes__gt=timezone.now(), status__in=[Tournament.Status.UPCOMING,
                                                        Tournament.Status.RUNNING])
    for tournament in tournaments:
        number = self_check_in_round(tournament)
        if number is None or not tournament_players(tournament, withdrawn=False).filter(
                pk=player.pk).exists():
            continue
        done = CheckIn.objects.filter(tournament=tournament, round_number=number,
                                      player=player).exists()
        found.append((tournament, number, done))
    return found


def player_team_names(tournament: Tournament) -> dict[int, str]:
    """Each player of ``tournament``'s teams and their team's name, for the roster."""
    names: dict[int, str] = {}
    for entry in Entry.objects.filter(tournament=tournament).select_related("team"):
        names[entry.team.player_a_id] = entry.team.name
        names[entry.team.player_b_id] = entry.team.name
    return names
