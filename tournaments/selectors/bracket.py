"""The bracket page of a format that has one: every match with the teams known so far, the
results the public may see, byes, and who advanced. The format draws the bracket
(``TournamentFormat.bracket``); this adds the teams, the stored matches and their results."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.formats.base import PairingError
from tournaments.formats.registry import DrawnMatch
from tournaments.models import Match, Team, Tournament

from .matches import decided_by
from .rounds import tournament_format
from .viewmodels import BracketCell, BracketRound, BracketSection, BracketSlot, BracketView
from .visibility import PUBLIC_ROUNDS, visible_result


def tournament_bracket_view(tournament: Tournament) -> BracketView:
    """The bracket with the teams known so far, results, byes and who advanced."""
    spec, data = tournament_format(tournament)
    try:
        drawn = spec.bracket(data)
    except PairingError:
        drawn = None
    if drawn is None:
        return BracketView([], problem=_("The bracket is drawn once at least two teams have "
                                         "entered."))
    seeds = {team: seed for seed, team in enumerate(drawn.seeds, start=1)}
    teams = Team.objects.in_bulk(drawn.seeds)
    # a cell shows its match's status and result, not its seats or players
    matches = {(m.round.number, m.bracket_slot): m for m in Match.objects.filter(
        round__tournament=tournament, round__status__in=PUBLIC_ROUNDS,
        bracket_slot__isnull=False).select_related("result", "round__tournament")}

    def cell(spot: DrawnMatch) -> BracketCell:
        match = matches.get(spot.position)
        result = visible_result(match) if match is not None else None

        def slot(team_id: int | None, note: str) -> BracketSlot:
            if team_id is None:
                return BracketSlot(None, None, note)
            total = None
            if result is not None and match is not None:
                total = result.total_a if match.team_a_id == team_id else result.total_b
            return BracketSlot(teams.get(team_id), seeds.get(team_id), "", total,
                               spot.winner is not None and spot.winner == team_id)

        return BracketCell(spot.number, slot(spot.top, spot.notes[0]),
                           slot(spot.bottom, spot.notes[1]), match, spot.is_bye,
                           decided_by(result))

    sections = []
    for index, section in enumerate(drawn.sections, start=1):
        counts = [len(drawn_round.matches) for drawn_round in section.rounds] + [0]
        sections.append(BracketSection(section.title, [
            BracketRound(f"{index}-{number}", drawn_round.name,
                         [cell(spot) for spot in drawn_round.matches],
                         straight=counts[number] == counts[number - 1])
            for number, drawn_round in enumerate(section.rounds, start=1)]))
    champion = teams.get(drawn.champion) if drawn.champion is not None else None
    return BracketView(sections, champion)
