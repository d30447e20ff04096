"""What the organiser's console shows: the tournament's latest round, its tables and the
facts its steps are decided on (``tournaments.console_steps``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from tournaments.console_steps import Facts, Step, console_steps, next_step
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

    @property
    def live(self) -> bool:
        """True while the round's bot matches are being played (the page follows them)."""
        return self.job is not None and self.job.status in RUNNING

    @property
    def results_in(self) -> int:
        return sum(1 for match in self.tables if match.status == Match.Status.DONE)


def tournament_console(tournament: Tournament) -> ConsoleView:
    round = tournament.rounds.order_by("-number").first()
    total, problem = _rounds_total(tournament)
    view = ConsoleView(tournament, round, total)
    facts = Facts(rounds_total=total, pairing_problem=problem)
    if round is not None:
        matches = list(with_details(round.matches.all()))
        view.tables = sorted((m for m in matches if not m.is_bye), key=attrgetter("table.number"))
        view.byes = [m for m in matches if m.is_bye]
        view.job = round_job(round)
        absent = Absence.objects.filter(tournament=tournament, round_number=round.number)
        facts = Facts(
            number=round.number, status=round.status, rounds_total=total,
            pairing_problem=problem,
            open_tables=sum(1 for m in view.tables if m.status != Match.Status.DONE),
            bot_tables_left=len(round_bot_match_ids(round)),
            absent_seated=Seat.objects.filter(
                round=round, match__result__isnull=True,
                player_id__in=absent.values("player_id")).count(),
            job_running=view.live)
    view.steps = console_steps(facts)
    view.next = next_step(view.steps)
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
