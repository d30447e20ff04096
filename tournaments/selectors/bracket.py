"""The knockout bracket page: every match of the bracket with the teams known so far, the
results the public may see, byes, and who advanced."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments.formats.base import PairingError
from tournaments.formats.knockout import Feed, bracket_teams
from tournaments.models import Match, Team, Tournament

from .matches import decided_by, with_details
from .rounds import knockout_winners, tournament_bracket
from .viewmodels import BracketCell, BracketRound, BracketSlot, BracketView
from .visibility import PUBLIC_ROUNDS, visible_result


def round_name(number: int, count: int) -> str:
    names = {count: _("Final"), count - 1: _("Semi-finals"), count - 2: _("Quarter-finals")}
    return str(names.get(number, _("Round %(number)d") % {"number": number}))


def tournament_bracket_view(tournament: Tournament) -> BracketView:
    """The knockout bracket with the teams known so far, results, byes and who advanced."""
    try:
        bracket = tournament_bracket(tournament)
        winners = knockout_winners(tournament, bracket)
        slots = bracket_teams(bracket, winners)
    except PairingError:
        return BracketView([], problem=_("The bracket is drawn once at least two teams have "
                                         "entered."))
    teams = Team.objects.in_bulk(bracket.seeds)
    matches = {(m.round.number, m.bracket_slot): m for m in with_details(
        Match.objects.filter(round__tournament=tournament, round__status__in=PUBLIC_ROUNDS,
                             bracket_slot__isnull=False))}
    numbers: dict[Any, int] = {}
    for bracket_match in bracket.matches():
        if not bracket_match.is_bye:
            numbers[bracket_match.key] = len(numbers) + 1

    def slot(source: Any, team_id: int | None, match: Match | None, won: bool) -> BracketSlot:
        if team_id is None:
            if not isinstance(source, Feed):
                return BracketSlot(None, None, _("bye"))
            text = (_("Winner of match %(number)d") if source.takes == "winner"
                    else _("Loser of match %(number)d"))
            return BracketSlot(None, None, text % {"number": numbers[source.match]})
        result = visible_result(match) if match is not None else None
        total = None
        if result is not None and match is not None:
            total = result.total_a if match.team_a_id == team_id else result.total_b
        return BracketSlot(teams.get(team_id), bracket.seed(team_id), "", total, won)

    def cell(bracket_match: Any) -> BracketCell:
        key = bracket_match.key
        top_id, bottom_id = slots[key]
        match = matches.get(key)
        result = visible_result(match) if match is not None else None
        winner = top_id if bracket_match.is_bye else winners.get(key)
        return BracketCell(
            numbers.get(key),
            slot(bracket_match.top, top_id, match, winner is not None and winner == top_id),
            slot(bracket_match.bottom, bottom_id, match,
                 winner is not None and winner == bottom_id),
            match, bracket_match.is_bye, decided_by(result))

    count = len(bracket.rounds)
    rounds = [BracketRound(number, round_name(number, count), [cell(m) for m in matches_])
              for number, matches_ in enumerate(bracket.rounds, start=1)]
    third = cell(bracket.third_place) if bracket.third_place is not None else None
    champion = winners.get(bracket.final.key)
    return BracketView(rounds, third, teams.get(champion) if champion is not None else None)
