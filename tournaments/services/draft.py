"""Changing a draft round's draw by hand before it is published: swap two teams between
tables, swap the two seats of a team, move a table. The edits themselves are the pure
functions of ``tournaments.formats.draft``; this module loads the draw, checks the result
(a player once a round, no team twice), stores it in one transaction and adds a line to the
round's ``draw_note``, so the draw says it was changed by hand. An edit that brings
together two teams that met before (or, in a round robin, are due to meet later) is made,
with a warning."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from config.users import RequestUser
from tournaments.formats import draft
from tournaments.formats.base import PairingError
from tournaments.models import Match, Round, Seat, Table, Tournament
from tournaments.selectors import tournament_format

from .access import require_organiser
from .errors import TournamentUserError

# Tables are renumbered through numbers no table has, as each row is checked on its own.
RENUMBER_OFFSET = 10_000


@dataclass(frozen=True)
class DraftEdit:
    """What an edit did, as written in the round's note, and its warnings."""

    description: str
    warnings: list[str] = field(default_factory=list)


def draft_swap_teams(*, round: Round, team_1: int, team_2: int,
                     user: RequestUser | None = None) -> DraftEdit:
    """The two teams exchange their places (table, side and seats) in the draft."""
    if not round.tournament.format_spec.draft_swaps_teams:
        raise TournamentUserError(_("a bracket round follows its bracket: its teams cannot "
                                    "be swapped (seats and table order can be changed)"))

    def describe(before: draft.Draw, after: draft.Draw) -> str:
        names = {side.team: side.name for table in before for side in table.sides}
        where = {side.team: table.number for table in before for side in table.sides}
        return _("swapped %(first)s (table %(first_table)d) and %(second)s (table "
                 "%(second_table)d)") % {"first": names[team_1], "second": names[team_2],
                                         "first_table": where[team_1],
                                         "second_table": where[team_2]}
    return _edit(round, user, lambda d: draft.swap_teams(d, team_1, team_2), describe)


def draft_swap_seats(*, round: Round, match_id: int, side: int,
                     user: RequestUser | None = None) -> DraftEdit:
    """The two players of a team (``side`` 0: team A, 1: team B) exchange their seats."""
    def describe(before: draft.Draw, after: draft.Draw) -> str:
        table = next(t for t in after if t.match == match_id)
        return _("swapped the seats of %(team)s at table %(table)d") % {
            "team": table.sides[side].name, "table": table.number}
    return _edit(round, user, lambda d: draft.swap_partners(d, match_id, side), describe)


def draft_move_table(*, round: Round, match_id: int, number: int,
                     user: RequestUser | None = None) -> DraftEdit:
    """The match moves to table ``number``; the tables between shift by one."""
    def describe(before: draft.Draw, after: draft.Draw) -> str:
        table = next(t for t in before if t.match == match_id)
        return _("moved table %(old)d (%(teams)s) to table %(new)d") % {
            "old": table.number, "new": number,
            "teams": " – ".join(side.name for side in table.sides)}
    return _edit(round, user, lambda d: draft.move_table(d, match_id, number), describe)


def _edit(round: Round, user: RequestUser | None, change: Callable[[draft.Draw], draft.Draw],
          describe: Callable[[draft.Draw, draft.Draw], str]) -> DraftEdit:
    tournament = round.tournament
    if user is not None:
        require_organiser(user, tournament)
    with transaction.atomic():
        # Round, then its matches: the lock order of every service that changes a round.
        locked = Round.objects.select_for_update(of=("self",)).get(pk=round.pk)
        if locked.status != Round.Status.DRAFT:
            raise TournamentUserError(_("round %(number)d is %(status)s: only a draft's draw "
                                        "can be changed") % {
                "number": locked.number, "status": locked.get_status_display()})
        list(Match.objects.select_for_update(of=("self",)).filter(round=locked)
             .order_by("pk").values_list("pk", flat=True))
        before = load_draw(locked)
        try:
            after = change(before)
            draft.check_draw(after)
        except PairingError as exc:
            raise TournamentUserError(str(exc)) from None
        warnings = _rematches(tournament, locked, before, after)
        _store(locked, before, after)
        edit = DraftEdit(describe(before, after), warnings)
        line = _("%(when)s, %(who)s: %(what)s") % {
            "when": timezone.localtime().strftime("%Y-%m-%d %H:%M"),
            "who": getattr(user, "username", "") or _("the platform"),
            "what": "; ".join([edit.description, *warnings])}
        locked.draw_note = f"{locked.draw_note}\n{line}".strip()
        locked.save(update_fields=["draw_note"])
    round.refresh_from_db()
    return edit


def load_draw(round: Round) -> draft.Draw:
    """The round's tables (byes have none) as the pure module sees them."""
    matches = (Match.objects.filter(round=round, table__isnull=False)
               .select_related("table", "team_a", "team_b")
               .prefetch_related("seats__player").order_by("table__number"))
    tables = []
    for match in matches:
        seats = {seat.position: draft.SeatSpec(seat.player_id, seat.bot_level, seat.substitute,
                                               str(seat.player or ""))
                 for seat in match.seats.all()}
        bot = draft.SeatSpec(None, round.tournament.bot_level)
        sides = tuple(
            draft.Side(team.pk if team else None, str(team or _("the bot team")),
                       (seats.get(side, bot), seats.get(side + 2, bot)))
            for side, team in enumerate((match.team_a, match.team_b)))
        assert match.table is not None  # the query takes only the matches at tables
        tables.append(draft.DrawTable(match.pk, match.table.number, (sides[0], sides[1])))
    return tuple(tables)


def _store(round: Round, before: draft.Draw, after: draft.Draw) -> None:
    old = {table.match: table for table in before}
    seats: dict[tuple[int, int], draft.SeatSpec] = {}
    for table in after:
        if table.sides == old[table.match].sides:
            continue
        team_a, team_b = (side.team for side in table.sides)
        Match.objects.filter(pk=table.match).update(team_a_id=team_a, team_b_id=team_b)
        for side, held in enumerate(table.sides):
            for index, spec in enumerate(held.seats):
                if spec != old[table.match].sides[side].seats[index]:
                    seats[(table.match, draft.seat_position(side, index))] = spec
    # A player changing seats would briefly sit twice in the round: first make every
    # changed seat a bot, then seat each one's new occupant.
    changed = Seat.objects.filter(round=round, match_id__in={match for match, _pos in seats})
    for (match, position) in seats:
        changed.filter(match_id=match, position=position).update(player=None, bot_level="random")
    for (match, position), spec in seats.items():
        changed.filter(match_id=match, position=position).update(
            player_id=spec.player, bot_level=spec.bot_level, substitute=spec.substitute)
    if [t.match for t in before] != [t.match for t in after]:
        tables = Table.objects.filter(round=round)
        tables.update(number=F("number") + RENUMBER_OFFSET)
        for table in after:
            tables.filter(match__pk=table.match).update(number=table.number)


def _rematches(tournament: Tournament, round: Round, before: draft.Draw,
               after: draft.Draw) -> list[str]:
    """Warnings for the pairs the edit brings together that met in an earlier round or, in
    a round robin, are due to meet in a later one."""
    met: dict[draft.Meeting, list[int]] = {}
    for team_a, team_b, number in (Match.objects
                                   .filter(round__tournament=tournament,
                                           round__number__lt=round.number, team_b__isnull=False)
                                   .values_list("team_a_id", "team_b_id", "round__number")):
        met.setdefault(frozenset((team_a, team_b)), []).append(number)
    due: dict[draft.Meeting, list[int]] = {}
    spec, data = tournament_format(tournament)
    try:
        for number in range(round.number + 1, spec.rounds_total(data) + 1):
            for pairing in spec.scheduled(data, number):
                if pairing.away is not None:
                    due.setdefault(frozenset(pairing.teams), []).append(number)
    except PairingError:
        due = {}  # the field changed since the schedule was drawn: no schedule to compare
    return draft.rematch_warnings(before, after, met, due)
