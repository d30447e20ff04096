"""Reads the round services build on: how many rounds a tournament has, its knockout bracket
and who advanced, and the matches bots play alone. The services pair and close rounds with
these; the pages and the API show them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from tournaments.formats.knockout import (
    Bracket,
    MatchDecision,
    MatchKey,
    TieRule,
    decide_match,
    knockout_bracket,
)
from tournaments.formats.round_robin import round_robin_round_count
from tournaments.models import Entry, Job, Match, Round, Tournament

CYCLES = {Tournament.Format.ROUND_ROBIN: 1, Tournament.Format.DOUBLE_ROUND_ROBIN: 2}


def seeded_team_ids(tournament: Tournament) -> list[int]:
    """The teams still in the tournament, best seed first."""
    entries = Entry.objects.filter(tournament=tournament, withdrawn=False)
    return [e.team_id for e in entries.order_by("seed", "id")]


def rounds_total(tournament: Tournament) -> int:
    """How many rounds the tournament has: its setting for Swiss, else what the format needs.
    ValueError (a ``PairingError``) for a knockout of fewer than two teams."""
    if tournament.format in CYCLES:
        return round_robin_round_count(len(seeded_team_ids(tournament)),
                                       cycles=CYCLES[tournament.format])
    if tournament.format == Tournament.Format.KNOCKOUT:
        return len(tournament_bracket(tournament).rounds)
    return tournament.rounds_planned


def tournament_bracket(tournament: Tournament) -> Bracket:
    return knockout_bracket(seeded_team_ids(tournament),
                            third_place=tournament.third_place_match)


@dataclass(frozen=True)
class _Side:
    team: int
    seed: int
    hand_scores: tuple[int, ...]


def knockout_decision(match: Match, bracket: Bracket) -> MatchDecision:
    """Who advances: the lower game score, or for a drawn game the tournament's tie rule
    and its fallbacks, ending with the better seed."""
    result = match.result
    assert match.team_b_id is not None
    sides = [_Side(team, bracket.seed(team), tuple(s[i] for s in result.hand_scores))
             for i, team in enumerate((match.team_a_id, match.team_b_id))]
    rule = cast(TieRule, match.round.tournament.knockout_tie_rule)  # a field choice
    return decide_match(sides[0], sides[1], rule=rule)


def knockout_winners(tournament: Tournament, bracket: Bracket) -> dict[MatchKey, int]:
    """Who won each decided knockout match, by bracket position (confirmed results only)."""
    matches = (Match.objects.filter(round__tournament=tournament, is_bye=False,
                                    result__confirmed=True)
               .select_related("round", "result"))
    return {(m.round.number, m.bracket_slot or 0): knockout_decision(m, bracket).winner
            for m in matches}


def round_bot_match_ids(round: Round) -> list[int]:
    """The matches of a published round with bots in every seat and no result yet."""
    if round.status != Round.Status.PUBLISHED:
        return []
    return list(Match.objects.filter(round=round, is_bye=False, result__isnull=True)
                .exclude(seats__player__isnull=False).values_list("pk", flat=True))


def round_job_kind(round: Round) -> str:
    """The kind of the job that plays a round's bot matches (one kind a round)."""
    return f"play round {round.number}"


def round_job(round: Round) -> Job | None:
    """The newest job that plays the round's bot matches."""
    return (Job.objects.filter(tournament_id=round.tournament_id, kind=round_job_kind(round))
            .first())
