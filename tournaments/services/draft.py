"""Changing a draft round's draw by hand before it is published: swap two teams between
tables, swap the two seats of a team, move a table. The edits themselves are the pure
functions of ``tournaments.formats.draft``; this module loads the draw, checks the result
(a player once a round, no team twice), stores it in one transaction and adds a line to the
round's ``draw_note``, so the draw says it was changed by hand. An edit that brings
together two teams that met before, or two the organiser asked to keep apart (a pairing to
avoid, or two teams of a club kept apart), is made, with a warning. A round robin keeps its
promise that every pair meets exactly once a cycle: an edit that changes who meets whom
re-plans the rounds still to come (the note says which changed), and one after which no
plan can keep the promise is refused, saying why."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.users import RequestUser
from tournaments.formats import TournamentData, TournamentFormat, draft
from tournaments.formats.base import Pairing, PairingError
from tournaments.formats.round_robin_plan import ScheduleError, meeting
from tournaments.models import Match, Round, Seat, Table, Tournament
from tournaments.selectors import kept_apart_pairs, tournament_format

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
        warnings, replanned = _schedule(tournament, locked, before, after)
        _store(locked, before, after)
        edit = DraftEdit("; ".join(filter(None, [describe(before, after), replanned])),
                         warnings)
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


def _schedule(tournament: Tournament, round: Round, before: draft.Draw,
              after: draft.Draw) -> tuple[list[str], str]:
    """The edit's warnings (pairs it brings together that met in an earlier round or that
    the organiser asked to keep apart) and, when it re-plans a round robin's rounds still
    to come, a sentence saying which changed. TournamentUserError when no plan of them
    meets every pair once a cycle."""
    if draft.meetings(after) == draft.meetings(before):
        return [], ""  # seats or table order: who meets whom is the same
    met: dict[draft.Meeting, list[int]] = {}
    for team_a, team_b, number in (Match.objects
                                   .filter(round__tournament=tournament,
                                           round__number__lt=round.number, team_b__isnull=False)
                                   .values_list("team_a_id", "team_b_id", "round__number")):
        met.setdefault(frozenset((team_a, team_b)), []).append(number)
    apart = draft.kept_apart_warnings(before, after, kept_apart_pairs(tournament))
    spec, data = tournament_format(tournament)
    so_far = list(data.rounds())
    try:
        planned = spec.replanned(data, so_far)
    except PairingError:
        planned = None  # the field changed since the schedule was drawn: no plan to keep
    if planned is None:
        return [*draft.rematch_warnings(before, after, met, _due(spec, data, round)),
                *apart], ""
    try:
        replanned = spec.replanned(data, [*so_far[:-1], _pairings(after, so_far[-1])])
    except ScheduleError as exc:
        raise TournamentUserError(_refusal(exc, after, met)) from None
    assert replanned is not None  # a format that plans ahead plans after any round
    changed = [round.number + 1 + index
               for index, (old, new) in enumerate(zip(planned, replanned, strict=True))
               if {meeting(p) for p in old} != {meeting(p) for p in new}]
    note = ngettext("the schedule is re-planned so that every pair of teams still meets "
                    "once: round %(rounds)s changed",
                    "the schedule is re-planned so that every pair of teams still meets "
                    "once: rounds %(rounds)s changed", len(changed)) % {
        "rounds": ", ".join(map(str, changed))} if changed else ""
    return [*draft.rematch_warnings(before, after, met), *apart], note


def _pairings(draw: draft.Draw, stored: list[Pairing]) -> list[Pairing]:
    """The round as ``draw`` pairs it, with the stored round's byes (they have no table)."""
    tables = []
    for table in draw:
        home, away = (side.team for side in table.sides)
        if home is None or away is None:  # the house bot team's side
            team = home if away is None else away
            assert team is not None  # the house bot team never plays itself
            tables.append(Pairing(team, against_bot=True))
        else:
            tables.append(Pairing(home, away))
    return [*tables, *(p for p in stored if p.is_bye)]


def _refusal(exc: ScheduleError, after: draft.Draw, met: dict[draft.Meeting, list[int]]) -> str:
    names = {side.team: side.name for table in after for side in table.sides}
    pair = frozenset(team for team in exc.rematch or () if team is not None)
    if pair in met:  # two teams (a second bye is the generic case below)
        first, second = sorted(names[team] for team in pair)
        return _("%(first)s and %(second)s already met in round %(rounds)s: in a round robin "
                 "every pair of teams meets exactly once a cycle, so they cannot be paired "
                 "again") % {"first": first, "second": second,
                             "rounds": ", ".join(map(str, sorted(met[pair])))}
    return _("this change would leave no schedule in which every pair of teams meets exactly "
             "once a cycle (%(reason)s); the draw is unchanged") % {"reason": str(exc)}


def _due(spec: TournamentFormat, data: TournamentData,
         round: Round) -> dict[draft.Meeting, list[int]]:
    """The pairs due to meet in each later round of the format's schedule, when it has one
    it no longer keeps (a team withdrew since it was drawn)."""
    due: dict[draft.Meeting, list[int]] = {}
    try:
        for number in range(round.number + 1, spec.rounds_total(data) + 1):
            for pairing in spec.scheduled(data, number):
                if pairing.away is not None:
                    due.setdefault(frozenset(pairing.teams), []).append(number)
    except PairingError:
        return {}
    return due
