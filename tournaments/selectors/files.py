"""What the deal file and the TRF report of ``tournaments.exports`` are written from, read
through the visibility rule: a round's deal file only once its boards are no longer secret
to the reader, a team's results only as ``visible_result`` shows them."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from config.errors import PlatformError
from config.users import RequestUser
from tournaments.exports.deal_file import deal_file
from tournaments.exports.trf import Game, Outcome, Side, TeamLine, trf_report
from tournaments.models import Entry, Match, Round, Tournament

from .boards import round_boards
from .standings import standing_rows
from .visibility import PUBLIC_ROUNDS, boards_hidden_from, visible_result


class NoDealFile(PlatformError):
    """A round with no deal file the reader may have: not a duplicate round, or its boards
    still secret (the same answer whether or not a table has finished)."""

    code = "not_found"
    status = 404


def round_deal_file(round: Round, user: RequestUser | None) -> str:
    """``round``'s deal file (``push-deals/1``), once ``user`` may see its boards."""
    boards = round_boards(round)
    if not boards:
        raise NoDealFile(_("round %(number)d of %(tournament)s is not a duplicate round: each "
                           "of its matches has its own deals, and there is no deal file"),
                         {"number": round.number, "tournament": round.tournament.name})
    if round.status not in PUBLIC_ROUNDS or boards_hidden_from(round, user):
        raise NoDealFile(_("the boards of round %(number)d of %(tournament)s are secret "
                           "until every table has finished or an organiser releases them"),
                         {"number": round.number, "tournament": round.tournament.name})
    return deal_file(event=round.tournament.name, round_number=round.number, boards=boards)


def trf_report_of(tournament: Tournament, user: RequestUser | None) -> str:
    """The tournament's TRF-style report as ``user`` may see it: the public rounds whose
    boards are not secret to them, the current standings' points and ranks."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team")
                   .order_by("seed", "pk"))
    numbers = {entry.team_id: index for index, entry in enumerate(entries, start=1)}
    standing = {row.team_id: row for row in standing_rows(tournament)}
    games: dict[int, dict[int, Game]] = {team: {} for team in numbers}
    rounds = [round for round in tournament.rounds.filter(status__in=PUBLIC_ROUNDS)
              if not boards_hidden_from(round, user)]
    for match in (Match.objects.filter(round__in=rounds)
                  .select_related("round__tournament", "result")):
        sides: tuple[tuple[int | None, Side, int | None], ...] = (
            (match.team_a_id, "a", match.team_b_id), (match.team_b_id, "b", match.team_a_id))
        for team, side, opponent in sides:
            if team not in games:
                continue
            game = (Game(0, "-", "U") if match.is_bye else
                    Game(numbers.get(opponent or 0, 0), side, _outcome(match, side, user)))
            games[team][match.round.number] = game
    lines = [TeamLine(numbers[entry.team_id], entry.team.name,
                      float(standing[entry.team_id].points) if entry.team_id in standing else 0,
                      standing[entry.team_id].rank if entry.team_id in standing else None,
                      games[entry.team_id]) for entry in entries]
    return trf_report(event=tournament.name,
                      starts_on=tournament.starts_on.isoformat() if tournament.starts_on else "",
                      ends_on=tournament.ends_on.isoformat() if tournament.ends_on else "",
                      rounds_planned=tournament.rounds_planned, teams=lines)


def _outcome(match: Match, side: str, user: RequestUser | None) -> Outcome:
    result = visible_result(match, user)
    if result is None:
        return " "
    if result.winner == "d":
        return "="
    return "1" if result.winner == side else "0"
