"""The scheduler's reads: what is due, and the facts about a tournament's rounds that the
pure schedule (``tournaments.schedule``) decides its next step from."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Max, QuerySet

from tournaments.formats.base import PairingError
from tournaments.models import Entry, Match, Player, Result, Round, Schedule, Team, Tournament
from tournaments.schedule import Facts, Plan, round_start

from .rounds import rounds_total


def tournament_schedule(tournament: Tournament) -> Schedule | None:
    """The tournament's schedule (None: it runs by hand)."""
    return Schedule.objects.filter(tournament=tournament).first()


def schedule_plan(schedule: Schedule) -> Plan:
    """The schedule's rule as the pure core reads it."""
    return Plan(
        starts_at=schedule.starts_at,
        times={int(number): datetime.fromisoformat(at)
               for number, at in (schedule.round_times or {}).items()},
        interval=_minutes(schedule.interval_minutes),
        check_in_opens=_minutes(schedule.check_in_opens_minutes),
        check_in_closes=timedelta(minutes=schedule.check_in_closes_minutes),
        round_length=_minutes(schedule.round_minutes))


def _minutes(value: int | None) -> timedelta | None:
    return None if value is None else timedelta(minutes=value)


def schedule_facts(tournament: Tournament, schedule: Schedule) -> Facts:
    """Where the tournament's rounds stand (a few queries, however many rounds)."""
    latest = tournament.rounds.order_by("-number").first()
    try:
        total: int | None = rounds_total(tournament)
    except PairingError:
        total = None
    if latest is None:
        return Facts(rounds_total=total, check_in_round=schedule.check_in_round,
                     check_in_required=tournament.check_in_required,
                     settled_round=schedule.settled_round)
    finished_round = latest.number if latest.status == Round.Status.COMPLETE \
        else latest.number - 1
    return Facts(
        number=latest.number, status=latest.status, rounds_total=total,
        published_at=schedule.published_at,
        open_tables=(_open_matches(latest).count()
                     if latest.status == Round.Status.PUBLISHED else 0),
        previous_finished=_finished_at(tournament, finished_round),
        check_in_round=schedule.check_in_round, check_in_required=tournament.check_in_required,
        settled_round=schedule.settled_round)


def _open_matches(round: Round) -> QuerySet[Match]:
    return round.matches.filter(is_bye=False).exclude(status=Match.Status.DONE)


def _finished_at(tournament: Tournament, number: int) -> datetime | None:
    """When round ``number``'s last table finished: its latest result (None: no round)."""
    if number < 1:
        return None
    last: datetime | None = Result.objects.filter(
        match__round__tournament=tournament, match__round__number=number).aggregate(
        last=Max("created"))["last"]
    return last


def player_logins(tournament: Tournament) -> list[tuple[int, int]]:
    """``(login, player)`` of each player with a login of the tournament's teams still in it,
    by login. Three lookups by
    primary key or the tournament's index: one query joining them took PostgreSQL longer to
    plan (some 10 ms) than the three to run (``manage.py bench_schedule``)."""
    teams = list(Entry.objects.filter(tournament=tournament, withdrawn=False).order_by()
                 .values_list("team_id", flat=True))
    players = {player for pair in Team.objects.filter(pk__in=teams).order_by()
               .values_list("player_a_id", "player_b_id") for player in pair}
    return sorted((user, player) for player, user in
                  Player.objects.filter(pk__in=players, user__isnull=False).order_by()
                  .values_list("pk", "user_id") if user is not None)


def unsettled_tables(round: Round) -> list[tuple[Match, int]]:
    """The round's matches still being played at a live table, with the table."""
    return [(match, match.live_table_id) for match in
            _open_matches(round).filter(live_table__isnull=False, result__isnull=True)
            .select_related("round__tournament").order_by("pk")
            if match.live_table_id is not None]


def upcoming_round(tournament: Tournament) -> tuple[Schedule, int, datetime | None] | None:
    """A scheduled tournament's next round to start and when (None: not known yet, or
    every round is played); None for a tournament without a schedule, or a paused one."""
    schedule = Schedule.objects.filter(tournament=tournament).first()
    if schedule is None or schedule.paused or schedule.next_step not in ("check_in", "start"):
        return None
    facts = schedule_facts(tournament, schedule)
    return schedule, schedule.next_round, round_start(schedule_plan(schedule),
                                                      schedule.next_round,
                                                      facts.previous_finished)
