"""Selectors: what the public pages read (HackSoft style: services write, selectors read).

Only published and complete rounds are public, and only confirmed results count; every
function here keeps to that, so a view cannot show a draft round or an unconfirmed score by
forgetting a filter. Functions return model instances and small dataclasses for templates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.formats.knockout import DECIDED_BY_LABELS
from tournaments.models import (
    Entry,
    Match,
    Player,
    RatingEntry,
    Result,
    Round,
    Seat,
    Standing,
    Team,
    Tournament,
)

PUBLIC = (Round.Status.PUBLISHED, Round.Status.COMPLETE)

# Tie-break keys (tournaments.standings.TIEBREAKS) as people read them: a column heading,
# a short heading for narrow tables, and the phrase used in "ties are broken by ...".
TIEBREAK_LABELS: dict[str, tuple[Any, Any]] = {
    "score_diff": (gettext_lazy("Game score difference"), gettext_lazy("Diff")),
    "fewest_penalty": (gettext_lazy("Fewest penalty points"), gettext_lazy("Pen")),
    "head_to_head": (gettext_lazy("Head to head"), gettext_lazy("H2H")),
    "buchholz": (gettext_lazy("Buchholz (opponents' points)"), gettext_lazy("Buch")),
    "sonneborn_berger": (gettext_lazy("Sonneborn-Berger"), gettext_lazy("SB")),
    "out_hands": (gettext_lazy("Hands won going out"), gettext_lazy("Outs")),
}
LOWER_IS_BETTER = {"fewest_penalty"}


def plain(value: Any) -> str:
    """A number as people write it: ``2`` rather than ``2.0``, ``2.5`` for a half."""
    if isinstance(value, Decimal | float):
        value = Decimal(str(value)).normalize()
        return f"{value:f}"
    return str(value)


# -- tournaments --------------------------------------------------------------


def tournaments_by_status() -> list[tuple[Any, list[Tournament]]]:
    """Running, upcoming and finished tournaments, each with ``entry_count``."""
    tournaments = list(Tournament.objects.annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn=False))).order_by("-id"))
    return [(label, [t for t in tournaments if t.status == status])
            for status, label in ((Tournament.Status.RUNNING, gettext_lazy("Running")),
                                  (Tournament.Status.UPCOMING, gettext_lazy("Upcoming")),
                                  (Tournament.Status.FINISHED, gettext_lazy("Finished")))]


def public_rounds(tournament: Tournament) -> QuerySet[Round]:
    return (tournament.rounds.filter(status__in=PUBLIC).order_by("number")
            .annotate(table_count=Count("matches", filter=Q(matches__is_bye=False))))


def public_round(tournament: Tournament, number: int) -> Round | None:
    return tournament.rounds.filter(number=number, status__in=PUBLIC).first()


def tournament_entries(tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.select_related("team__player_a", "team__player_b")


def tournament_is_live(tournament: Tournament) -> bool:
    """True while a round is being played: published, not yet complete."""
    return tournament.rounds.filter(status=Round.Status.PUBLISHED).exists()


def tiebreak_columns(tournament: Tournament) -> list[dict[str, Any]]:
    return [{"key": key, "label": TIEBREAK_LABELS.get(key, (key, key))[0],
             "short": TIEBREAK_LABELS.get(key, (key, key))[1],
             "lower_is_better": key in LOWER_IS_BETTER} for key in tournament.tiebreaks]


# -- rounds ---------------------------------------------------------------------


@dataclass
class SeatView:
    position: int
    player: Player | None
    bot_level: str
    substitute: bool
    substitute_for: Player | None

    @property
    def is_bot(self) -> bool:
        return self.player is None

    @property
    def name(self) -> str:
        if self.player is not None:
            return self.player.name
        return _("Bot (%(level)s)") % {"level": self.bot_level}


@dataclass
class Side:
    team: Team | None  # None: the house bot team
    seats: list[SeatView]
    total: int | None = None
    won: bool = False

    @property
    def name(self) -> str:
        return self.team.name if self.team is not None else str(_("House bots"))


@dataclass
class TableView:
    match: Match
    number: int | None
    sides: list[Side]
    result: Result | None
    decided_by: str = ""
    seats: list[SeatView] = field(default_factory=list)


def seat_views(match: Match) -> list[SeatView]:
    """The four seats in order; a substitute bot knows whose seat it took (positions 0 and 2
    are team A's first and second player, 1 and 3 team B's)."""
    owners = [match.team_a.player_a, match.team_b.player_a if match.team_b else None,
              match.team_a.player_b, match.team_b.player_b if match.team_b else None]
    levels = dict(Seat._meta.get_field("bot_level").choices or [])
    return [SeatView(seat.position, seat.player, str(levels.get(seat.bot_level, seat.bot_level)),
                     seat.substitute, owners[seat.position] if seat.substitute else None)
            for seat in sorted(match.seats.all(), key=lambda s: s.position)]


def confirmed_result(match: Match) -> Result | None:
    result = getattr(match, "result", None)
    return result if result is not None and result.confirmed else None


def table_view(match: Match) -> TableView:
    seats = seat_views(match)
    result = confirmed_result(match)
    sides = [Side(match.team_a, [s for s in seats if s.position % 2 == 0]),
             Side(match.team_b, [s for s in seats if s.position % 2 == 1])]
    decided_by = ""
    if result is not None:
        sides[0].total, sides[1].total = result.total_a, result.total_b
        sides[0].won, sides[1].won = result.winner == "a", result.winner == "b"
        if result.decided_by:
            decided_by = str(DECIDED_BY_LABELS.get(result.decided_by, result.decided_by))
    return TableView(match, match.table.number if match.table else None, sides, result,
                     decided_by, seats)


def _matches(queryset: QuerySet[Match]) -> QuerySet[Match]:
    return queryset.select_related(
        "table", "result", "round__tournament", "team_a__player_a", "team_a__player_b",
        "team_b__player_a", "team_b__player_b",
    ).prefetch_related(Prefetch("seats", Seat.objects.select_related("player")))


def round_tables(round: Round) -> tuple[list[TableView], list[Match]]:
    """The round's tables in table order, and its byes."""
    matches = list(_matches(round.matches.all()))
    tables = [table_view(m) for m in matches if not m.is_bye]
    return sorted(tables, key=lambda t: t.number or 0), [m for m in matches if m.is_bye]


# -- standings ------------------------------------------------------------------


@dataclass
class StandingLine:
    rank: int
    shared: bool
    team: Team
    points: str
    row: Standing
    values: list[dict[str, Any]]


def tournament_standings(tournament: Tournament, round_number: int = 0) -> list[StandingLine]:
    """The stored standings (after ``round_number``; 0 = now), best first; ranks are shared
    by teams level on points and every tie-break."""
    rows = list(Standing.objects.filter(tournament=tournament, round_number=round_number)
                .select_related("team").order_by("rank", "team__name"))
    counts: dict[int, int] = {}
    for row in rows:
        counts[row.rank] = counts.get(row.rank, 0) + 1
    keys = list(tournament.tiebreaks)
    return [StandingLine(row.rank, counts[row.rank] > 1, row.team, plain(row.points), row,
                         [{"key": key, "value": row.values.get(key),
                           "sort": row.values.get(key, 0)} for key in keys])
            for row in rows]


def standings_rounds(tournament: Tournament) -> list[int]:
    """Rounds with stored standings after them (completed rounds)."""
    return sorted(set(Standing.objects.filter(tournament=tournament, round_number__gt=0)
                      .values_list("round_number", flat=True)))


# -- matches ---------------------------------------------------------------------


def public_match(match_id: int) -> Match | None:
    """A played or playable match of a public round (byes have no match page)."""
    return _matches(Match.objects.filter(pk=match_id, round__status__in=PUBLIC,
                                         is_bye=False)).first()


def match_is_live(match: Match) -> bool:
    return match.round.status == Round.Status.PUBLISHED and confirmed_result(match) is None


@dataclass
class HandLine:
    number: int
    scores: tuple[int, int]
    out_seat: int | None
    out_name: str


def match_hands(match: Match, seats: list[SeatView]) -> list[HandLine]:
    result = confirmed_result(match)
    if result is None:
        return []
    names = {s.position: s.name for s in seats}
    outs = list(result.out_seats) + [None] * (len(result.hand_scores) - len(result.out_seats))
    return [HandLine(i, (scores[0], scores[1]), out, names.get(out, "") if out is not None else "")
            for i, (scores, out) in enumerate(zip(result.hand_scores, outs, strict=False),
                                              start=1)]


# -- teams and players ------------------------------------------------------------


@dataclass
class ResultLine:
    match: Match
    tournament: Tournament
    round_number: int
    opponent: str
    own: int | None
    other: int | None
    outcome: str  # "win", "draw", "loss", or "" while not played
    partner: Player | None = None
    bot: bool = False
    opponent_team: Team | None = None


def _outcome(result: Result | None, side: int) -> str:
    if result is None:
        return ""
    if result.winner == "d":
        return "draw"
    return "win" if result.winner == "ab"[side] else "loss"


def _line(match: Match, side: int) -> ResultLine:
    result = confirmed_result(match)
    other = match.team_b if side == 0 else match.team_a
    totals = (result.total_a, result.total_b) if result else (None, None)
    return ResultLine(match, match.round.tournament, match.round.number,
                      other.name if other is not None else str(_("House bots")),
                      totals[side], totals[1 - side], _outcome(result, side),
                      opponent_team=other)


def team_results(team: Team) -> list[ResultLine]:
    """Every public match of ``team``, newest tournament first, in round order."""
    matches = _matches(Match.objects.filter(Q(team_a=team) | Q(team_b=team), is_bye=False,
                                            round__status__in=PUBLIC)
                       .order_by("-round__tournament_id", "round__number"))
    return [_line(m, 0 if m.team_a_id == team.pk else 1) for m in matches]


def team_tournaments(team: Team) -> list[tuple[Entry, Standing | None]]:
    entries = list(Entry.objects.filter(team=team).select_related("tournament")
                   .order_by("-tournament_id"))
    standings = {s.tournament_id: s for s in Standing.objects.filter(
        team=team, round_number=0, tournament__in=[e.tournament_id for e in entries])}
    return [(entry, standings.get(entry.tournament_id)) for entry in entries]


def player_teams(player: Player) -> QuerySet[Team]:
    return Team.objects.filter(Q(player_a=player) | Q(player_b=player))


def player_results(player: Player) -> list[ResultLine]:
    """Every public match ``player`` sat in, with their partner that day."""
    matches = _matches(Match.objects.filter(seats__player=player, round__status__in=PUBLIC)
                       .order_by("-round__tournament_id", "round__number"))
    lines = []
    for match in matches:
        seats = {s.position: s for s in match.seats.all()}
        mine = next(p for p, s in seats.items() if s.player_id == player.pk)
        line = _line(match, mine % 2)
        partner = seats.get((mine + 2) % 4)
        line.partner = partner.player if partner else None
        line.bot = partner is not None and partner.player is None
        lines.append(line)
    return lines


def player_rating_history(player: Player) -> list[RatingEntry]:
    """The player's rating after each rated match, oldest first."""
    return list(RatingEntry.objects.filter(player=player)
                .select_related("match__round__tournament").order_by("id"))


# -- bracket and cross-table ----------------------------------------------------------


@dataclass
class BracketSlot:
    team: Team | None
    seed: int | None
    note: str = ""  # for an empty slot: a bye, or where its team will come from
    total: int | None = None
    won: bool = False


@dataclass
class BracketCell:
    number: int | None  # matches are numbered for "winner of match 3"; byes are not
    top: BracketSlot
    bottom: BracketSlot
    match: Match | None
    is_bye: bool
    decided_by: str = ""

    @property
    def slots(self) -> list[BracketSlot]:
        return [self.top, self.bottom]


@dataclass
class BracketRound:
    number: int
    name: str
    cells: list[BracketCell]


@dataclass
class BracketView:
    rounds: list[BracketRound]
    third_place: BracketCell | None = None
    champion: Team | None = None
    problem: str = ""


def _round_name(number: int, count: int) -> str:
    names = {count: _("Final"), count - 1: _("Semi-finals"), count - 2: _("Quarter-finals")}
    return str(names.get(number, _("Round %(number)d") % {"number": number}))


def tournament_bracket_view(tournament: Tournament) -> BracketView:
    """The knockout bracket with the teams known so far, results, byes and who advanced."""
    from tournaments.formats.base import PairingError
    from tournaments.formats.knockout import Feed, bracket_teams
    from tournaments.services.rounds import knockout_winners, tournament_bracket

    try:
        bracket = tournament_bracket(tournament)
        winners = knockout_winners(tournament, bracket)
        slots = bracket_teams(bracket, winners)
    except PairingError:
        return BracketView([], problem=_("The bracket is drawn once at least two teams have "
                                         "entered."))
    teams = Team.objects.in_bulk(bracket.seeds)
    matches = {(m.round.number, m.bracket_slot): m for m in _matches(
        Match.objects.filter(round__tournament=tournament, round__status__in=PUBLIC,
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
        result = confirmed_result(match) if match is not None else None
        total = None
        if result is not None and match is not None:
            total = result.total_a if match.team_a_id == team_id else result.total_b
        return BracketSlot(teams.get(team_id), bracket.seed(team_id), "", total, won)

    def cell(bracket_match: Any) -> BracketCell:
        key = bracket_match.key
        top_id, bottom_id = slots[key]
        match = matches.get(key)
        result = confirmed_result(match) if match is not None else None
        winner = top_id if bracket_match.is_bye else winners.get(key)
        decided_by = result.decided_by if result is not None else ""
        return BracketCell(
            numbers.get(key),
            slot(bracket_match.top, top_id, match, winner is not None and winner == top_id),
            slot(bracket_match.bottom, bottom_id, match,
                 winner is not None and winner == bottom_id),
            match, bracket_match.is_bye, str(DECIDED_BY_LABELS.get(decided_by, decided_by)))

    count = len(bracket.rounds)
    rounds = [BracketRound(number, _round_name(number, count), [cell(m) for m in matches_])
              for number, matches_ in enumerate(bracket.rounds, start=1)]
    third = cell(bracket.third_place) if bracket.third_place is not None else None
    champion = winners.get(bracket.final.key)
    return BracketView(rounds, third, teams.get(champion) if champion is not None else None)


@dataclass
class CrossRow:
    team: Team | None  # None: the house bot team
    rank: int | None
    points: str
    cells: list[list[dict[str, Any]] | None]  # None on the diagonal


def tournament_cross_table(tournament: Tournament) -> list[CrossRow]:
    """Every team against every other: the games between them from the row team's side,
    and the matches paired but not yet played. The house bot team gets a row and a column
    when it played."""
    standings = {s.team_id: s for s in Standing.objects.filter(tournament=tournament,
                                                                round_number=0)}
    entries = sorted(tournament_entries(tournament),
                     key=lambda e: (standings[e.team_id].rank if e.team_id in standings
                                    else 10**6, e.seed or 10**6, e.team.name))
    matches = list(_matches(Match.objects.filter(round__tournament=tournament,
                                                 round__status__in=PUBLIC, is_bye=False)
                            .order_by("round__number")))
    ids: list[int | None] = [e.team_id for e in entries]
    if any(m.bot_opponent for m in matches):
        ids.append(None)
    cells: dict[tuple[int | None, int | None], list[dict[str, Any]]] = {}
    for match in matches:
        result = confirmed_result(match)
        for side, (own, other) in enumerate(((match.team_a_id, match.team_b_id),
                                             (match.team_b_id, match.team_a_id))):
            totals = (result.total_a, result.total_b) if result else None
            cells.setdefault((own, other), []).append({
                "match": match, "round": match.round.number,
                "outcome": _outcome(result, side),
                "own": totals[side] if totals else None,
                "other": totals[1 - side] if totals else None})
    teams = {e.team_id: e.team for e in entries}
    return [CrossRow(teams.get(row) if row is not None else None,
                     standings[row].rank if row in standings else None,
                     plain(standings[row].points) if row in standings else "",
                     [None if row == col else cells.get((row, col), []) for col in ids])
            for row in ids]
