"""Every table's results on a duplicate round's boards, scored, as the board page (its
traveller and frequency table), a team's page and the API's boards export show them.

Only rounds ``user`` may see the boards of are read (``visibility.boards_hidden_from``):
while a round is played, nothing of it comes out of here but to its organisers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from config.users import RequestUser
from tournaments.duplicate import Board, BoardScore, score_boards, table_results
from tournaments.models import Match, Round, Team, Tournament

from .boards import BOT_TEAM, hidden_round_numbers, round_boards, tables_expected
from .counted import counted_results
from .visibility import PUBLIC_ROUNDS, boards_hidden_from, organised_tournaments


@dataclass(frozen=True)
class BoardLine:
    """One team's scored result on one board (``score``, whose ``team`` is 0 for the house
    bots), with the table it was played at: the match, the team's own hand score and its
    opponents', whether the table has a game record to replay (``recorded``), and its
    ``rank`` among the board's results in its direction on matchpoints (competition
    ranking: 1, 2, 2, 4)."""

    round_number: int
    match: Match
    team: Team | None
    opponent: Team | None
    own: int
    theirs: int
    recorded: bool
    score: BoardScore
    rank: int


@dataclass(frozen=True)
class Frequency:
    """One line of a board's frequency table in one direction: a score difference, how many
    teams scored it, and the matchpoints (and percentage) each of them earned."""

    result: int
    count: int
    matchpoints: Fraction
    percentage: Fraction


def released_rounds(tournament: Tournament, user: RequestUser | None) -> list[Round]:
    """The tournament's duplicate rounds whose boards ``user`` (None: the public) may see:
    public rounds no longer secret, and for its organisers every round, secret or not, but
    those they play in (``visibility.boards_hidden_from``)."""
    if not tournament.duplicate:
        return []
    rounds = tournament.rounds.filter(seed__isnull=False, status__in=PUBLIC_ROUNDS)
    if organised_tournaments(user).filter(pk=tournament.pk).exists():
        return [round for round in rounds.order_by("number")
                if not boards_hidden_from(round, user)]
    return list(rounds.exclude(number__in=hidden_round_numbers(tournament)).order_by("number"))


def round_board_lines(round: Round) -> list[BoardLine]:
    """Every counted result on ``round``'s boards, scored against the round's other tables
    (Neuberg for a board a table did not finish), by board, direction and rank. The caller
    has checked that its reader may see the round (``released_rounds``)."""
    boards = round_boards(round)
    numbers = [board.number for board in boards]
    played: dict[tuple[int, int], tuple[Match, int, int, bool]] = {}
    results = []
    for result in (counted_results(round.tournament).filter(match__round=round)
                   .select_related("match__table", "match__team_a", "match__team_b",
                                   "match__round__tournament")):
        match = result.match
        teams = (match.team_a_id, match.team_b_id or BOT_TEAM)
        hands = [(own_a, own_b) for own_a, own_b in result.hand_scores]
        results.extend(table_results(numbers, teams, hands))
        for number, (own_a, own_b) in zip(numbers, hands, strict=False):
            played[(number, teams[0])] = (match, own_a, own_b, bool(result.record))
            played[(number, teams[1])] = (match, own_b, own_a, bool(result.record))
    scores = score_boards(results, tables_expected(round))
    lines = []
    for score in scores:
        match, own, theirs, recorded = played[(score.board, score.team)]
        team, opponent = ((match.team_a, match.team_b) if score.direction == 0
                          else (match.team_b, match.team_a))
        lines.append(BoardLine(round.number, match, team, opponent, own, theirs, recorded, score,
                               _rank(score, scores)))
    return sorted(lines, key=lambda line: (line.score.board, line.score.direction,
                                           line.rank, line.score.team))


def _rank(score: BoardScore, scores: list[BoardScore]) -> int:
    return 1 + sum(1 for other in scores if other.board == score.board
                   and other.direction == score.direction
                   and other.matchpoints > score.matchpoints)


def tournament_board_lines(tournament: Tournament,
                           user: RequestUser | None) -> list[BoardLine]:
    """Every scored result of the rounds whose boards ``user`` may see, in board order."""
    return [line for round in released_rounds(tournament, user)
            for line in round_board_lines(round)]


def board_frequencies(lines: Iterable[BoardLine]) -> dict[int, list[Frequency]]:
    """A board's frequency table per direction, from its lines: each score difference once,
    best first, with how many teams scored it and what it earned (the same for each)."""
    counts: dict[tuple[int, int], list[BoardScore]] = defaultdict(list)
    for line in lines:
        counts[(line.score.direction, line.score.result)].append(line.score)
    table: dict[int, list[Frequency]] = {0: [], 1: []}
    for (direction, result), same in sorted(counts.items(), key=lambda kv: (kv[0][0],
                                                                           -kv[0][1])):
        table[direction].append(Frequency(result, len(same), same[0].matchpoints,
                                          same[0].percentage))
    return table


def board_of(round: Round, number: int) -> Board | None:
    """Board ``number`` of ``round``, or None when the round does not play it."""
    return next((board for board in round_boards(round) if board.number == number), None)


def team_board_lines(team: Team, user: RequestUser | None) -> list[BoardLine]:
    """``team``'s scored result on every board ``user`` may see, of every duplicate
    tournament it entered, newest tournament first, in board order."""
    tournaments = Tournament.objects.filter(entries__team=team).exclude(duplicate="") \
        .order_by("-pk").distinct()
    return [line for tournament in tournaments
            for line in tournament_board_lines(tournament, user)
            if line.team is not None and line.team.pk == team.pk]
