"""The standings (one read for the pages and the API) and the crosstable.

Standings are the stored ``Standing`` rows, derived from confirmed results only (see
:mod:`.visibility`); the tie-breaks' names, abbreviations and directions come from the metric
registry in ``tournaments.standings``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Max, QuerySet

from tournaments.models import Entry, Match, Round, Standing, Tournament
from tournaments.standings import TIEBREAKS, Metric

from .counted import counts_q
from .matches import with_details
from .tournaments import tournament_entries
from .viewmodels import CrossRow, StandingLine, outcome, plain
from .visibility import PUBLIC_ROUNDS, hidden_rounds, visible_result


def tournament_metrics(tournament: Tournament) -> list[Metric]:
    """A duplicate tournament's main ranking, then the tie-breaks in its order, as the
    registry's metrics (each with its ``key``, ``name``, ``abbreviation`` and
    ``higher_is_better``): the columns of its table. The model only accepts
    registered keys; one whose metric has since left the code is left out, not a crash."""
    keys = [tournament.duplicate, *tournament.tiebreaks] if tournament.duplicate \
        else tournament.tiebreaks
    return [TIEBREAKS[key]() for key in keys if key in TIEBREAKS]


def standing_rows(tournament: Tournament, round_number: int = 0) -> QuerySet[Standing]:
    """The stored table after ``round_number`` (0: the current one), best first."""
    return (Standing.objects.filter(tournament=tournament, round_number=round_number)
            .select_related("team").order_by("rank", "team__name", "team_id"))


def withdrawn_team_ids(tournament: Tournament) -> set[int]:
    return set(Entry.objects.filter(tournament=tournament, withdrawn=True)
               .values_list("team_id", flat=True))


def provisional_team_ids(tournament: Tournament) -> set[int]:
    """The teams whose current standing counts a result of a round still being played: it
    stands, but may still be withdrawn or corrected until the round is complete. A secret
    duplicate round's results count nowhere yet, and which of its tables have one is its
    secret (``visibility.hidden_rounds``)."""
    sides = (Match.objects.filter(counts_q("result__", "round__tournament__"),
                                  round__tournament=tournament,
                                  round__status=Round.Status.PUBLISHED, result__confirmed=True)
             .exclude(round__in=hidden_rounds().values("pk"))
             .values_list("team_a_id", "team_b_id"))
    return {team for pair in sides for team in pair if team is not None}


def tournament_standings(tournament: Tournament, round_number: int = 0) -> list[StandingLine]:
    """The standings as the page shows them; ranks are shared by teams level on points and
    every tie-break. Withdrawn teams are marked, and in the current table (round 0) so are
    the teams whose line counts a provisional result."""
    rows = list(standing_rows(tournament, round_number))
    withdrawn = withdrawn_team_ids(tournament)
    provisional = provisional_team_ids(tournament) if round_number == 0 else set()
    counts: dict[int, int] = {}
    for row in rows:
        counts[row.rank] = counts.get(row.rank, 0) + 1
    keys = [metric.key for metric in tournament_metrics(tournament)]
    return [StandingLine(row.rank, counts[row.rank] > 1, row.team, plain(row.points), row,
                         [{"key": key, "value": row.values.get(key),
                           "sort": row.values.get(key, 0)} for key in keys],
                         withdrawn=row.team_id in withdrawn,
                         provisional=row.team_id in provisional)
            for row in rows]


def standings_versions(tournament: Tournament) -> dict[int, int]:
    """Each stored table's version by the round it follows (0: the current table): the id
    of its newest row. A rebuild writes a table's rows anew, so the version changes whenever
    the table may have, and the page caches a table under it. Rounds other than 0 are the
    completed rounds; one query for all."""
    return dict(Standing.objects.filter(tournament=tournament).order_by()
                .values_list("round_number").annotate(Max("id")))


def tournament_crosstable(tournament: Tournament) -> list[CrossRow]:
    """Every team against every other: the games between them from the row team's side,
    and the matches paired but not yet played. The house bot team gets a row and a column
    when it played."""
    standings = {s.team_id: s for s in standing_rows(tournament)}
    entries = sorted(tournament_entries(tournament),
                     key=lambda e: (standings[e.team_id].rank if e.team_id in standings
                                    else 10**6, e.seed or 10**6, e.team.name))
    matches = list(with_details(Match.objects.filter(round__tournament=tournament,
                                                     round__status__in=PUBLIC_ROUNDS,
                                                     is_bye=False)
                                .order_by("round__number")))
    ids: list[int | None] = [e.team_id for e in entries]
    if any(m.bot_opponent for m in matches):
        ids.append(None)
    cells: dict[tuple[int | None, int | None], list[dict[str, Any]]] = {}
    for match in matches:
        result = visible_result(match)
        for side, (own, other) in enumerate(((match.team_a_id, match.team_b_id),
                                             (match.team_b_id, match.team_a_id))):
            totals = (result.total_a, result.total_b) if result else None
            cells.setdefault((own, other), []).append({
                "match": match, "round": match.round.number,
                "outcome": outcome(result, side),
                "own": totals[side] if totals else None,
                "other": totals[1 - side] if totals else None})
    teams = {e.team_id: e.team for e in entries}
    return [CrossRow(teams.get(row) if row is not None else None,
                     standings[row].rank if row in standings else None,
                     plain(standings[row].points) if row in standings else "",
                     [None if row == col else cells.get((row, col), []) for col in ids])
            for row in ids]
