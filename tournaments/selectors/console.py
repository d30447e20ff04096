"""What the organiser's console shows: the tournament's latest round, its tables and the
facts its steps are decided on (``tournaments.console_steps``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from django.db.models import Count, Q

from games.live.models import LiveTable
from tournaments.console_steps import Facts, Step, console_steps, next_step, over, over_text
from tournaments.formats.base import PairingError, too_few_teams
from tournaments.models import Absence, Job, Match, Round, Seat, Tournament

from .matches import with_details
from .rounds import round_bot_match_ids, round_job, rounds_total, seeded_team_ids

RUNNING = (Job.Status.QUEUED, Job.Status.RUNNING)


@dataclass
class ConsoleView:
    tournament: Tournament
    round: Round | None
    rounds_total: int | None
    tables: list[Match] = field(default_factory=list)  # in table order
    byes: list[Match] = field(default_factory=list)
    job: Job | None = None
    steps: list[Step] = field(default_factory=list)
    next: Step | None = None
    live_tables: LiveTables | None = None  # the round's, when it is played online
    over: str = ""  # once every round is complete: saying so (and no step is left)

    @property
    def round_done(self) -> bool:
        """Every live table of the published round is done, and so is every other table:
        the round can be completed."""
        return (self.live_tables is not None and self.live_tables.all_done
                and self.next is not None and self.next.key == "complete")

    @property
    def live(self) -> bool:
        """True while the round's bot matches are being played (the page follows them)."""
        return self.job is not None and self.job.status in RUNNING

    @property
    def follows(self) -> bool:
        """True while the page follows the round by itself: its bot matches or its live
        tables are being played."""
        return self.live or (self.live_tables is not None and self.live_tables.playing > 0)

    @property
    def results_in(self) -> int:
        return sum(1 for match in self.tables if match.status == Match.Status.DONE)


@dataclass(frozen=True)
class LiveTables:
    """A round's live tables: how many, how many are being played, and how many are done
    (the game finished and its result reported, or the table ended by an organiser). The
    rest finished a moment ago and their results are being stored."""

    total: int
    playing: int
    done: int

    @property
    def all_done(self) -> bool:
        return self.done == self.total


def live_tables_by_round(tournament: Tournament) -> dict[int, LiveTables]:
    """Each round's live tables, by round number (rounds played at none are left out), in
    one query."""
    status = "live_table__status"
    rows = (Match.objects.filter(round__tournament=tournament, live_table__isnull=False)
            .values("round__number").order_by("round__number")
            .annotate(total=Count("pk"),
                      playing=Count("pk", filter=Q(**{status: LiveTable.Status.PLAYING})),
                      done=Count("pk", filter=Q(**{f"{status}__in": [
                                     LiveTable.Status.ABANDONED, LiveTable.Status.ENDED]})
                                 | Q(**{status: LiveTable.Status.FINISHED},
                                     live_table__reported=True))))
    return {row["round__number"]: LiveTables(row["total"], row["playing"], row["done"])
            for row in rows}


def tournament_console(tournament: Tournament) -> ConsoleView:
    round = tournament.rounds.order_by("-number").first()
    total, problem = _rounds_total(tournament)
    view = ConsoleView(tournament, round, total)
    facts = Facts(rounds_total=total, pairing_problem=problem)
    if round is not None:
        matches = list(with_details(round.matches.select_related("live_table")))
        view.tables = sorted((m for m in matches if not m.is_bye), key=attrgetter("table.number"))
        view.byes = [m for m in matches if m.is_bye]
        view.job = round_job(round)
        view.live_tables = live_tables_by_round(tournament).get(round.number)
        absent = Absence.objects.filter(tournament=tournament, round_number=round.number)
        facts = Facts(
            number=round.number, status=round.status, rounds_total=total,
            pairing_problem=problem,
            open_tables=sum(1 for m in view.tables if m.status != Match.Status.DONE),
            bot_tables_left=len(round_bot_match_ids(round)),
            absent_seated=Seat.objects.filter(
                round=round, match__result__isnull=True,
                player_id__in=absent.values("player_id")).count(),
            job_running=view.live,
            live_playing=view.live_tables.playing if view.live_tables else 0)
    view.steps = console_steps(facts)
    view.next = next_step(view.steps)
    view.over = over_text(facts) if over(facts) else ""
    return view


def _rounds_total(tournament: Tournament) -> tuple[int | None, str]:
    """How many rounds the tournament has, or None and why no round can be paired."""
    teams = len(seeded_team_ids(tournament))
    try:
        if teams < 2:
            raise too_few_teams(2, teams)
        return rounds_total(tournament), ""
    except PairingError as exc:
        return None, str(exc)
