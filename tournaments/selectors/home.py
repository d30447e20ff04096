"""The home page and a finished tournament's final places: what is running (its current round
and leader), what is coming (with dates), the latest results, and who won what.

A bracket format's places come from its bracket (the champion, the finalist...), never from
its points table, where a team knocked out early can stand level with a finalist. Other
formats' places are their final standings; the format says which (``final_places``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Q

from tournaments.formats.base import PairingError
from tournaments.models import Match, Round, Team, Tournament

from .matches import table_view, with_details
from .rounds import tournament_format
from .standings import standing_rows
from .viewmodels import TableView
from .visibility import PUBLIC_ROUNDS, hidden_rounds

RECENT_RESULTS = 8
FINISHED_SHOWN = 3
PLACES_SHOWN = 8  # a finished tournament's top places on the home page; the rest on its page


@dataclass
class Place:
    team: Team
    first: int
    last: int  # first == last unless teams share the place

    @property
    def shared(self) -> bool:
        return self.first != self.last


def final_places_of(tournament: Tournament) -> list[Place]:
    """A finished tournament's places, best first (``[]`` for one not finished): from its
    bracket, or from its final standings (shared ranks shared), as its format says."""
    if tournament.status != Tournament.Status.FINISHED:
        return []
    spec, data = tournament_format(tournament)
    try:
        placings = spec.final_places(data)
    except PairingError:  # fewer than two teams: no bracket, no places
        return []
    if placings is not None:
        teams = Team.objects.in_bulk([p.team for p in placings])
        return [Place(teams[p.team], p.first, p.last) for p in placings]
    rows = list(standing_rows(tournament))
    last = {row.rank: row.rank + sum(r.rank == row.rank for r in rows) - 1 for row in rows}
    return [Place(row.team, row.rank, last[row.rank]) for row in rows]


@dataclass
class RunningTournament:
    tournament: Tournament
    round: Round | None  # the latest public round
    round_label: str
    rounds_total: int | None
    leaders: list[Team]  # first in the current standings (several when level); a bracket: none


@dataclass
class FinishedTournament:
    tournament: Tournament
    places: list[Place]  # the top ones

    @property
    def champions(self) -> list[Team]:
        return [place.team for place in self.places if place.first == 1]


@dataclass
class HomeView:
    running: list[RunningTournament]
    upcoming: list[Tournament]
    results: list[TableView]
    finished: list[FinishedTournament]


def _running(tournament: Tournament) -> RunningTournament:
    round = tournament.rounds.filter(status__in=PUBLIC_ROUNDS).order_by("-number").first()
    spec, data = tournament_format(tournament)
    try:
        total: int | None = spec.rounds_total(data)
        label = spec.round_name(round.number, data) if round is not None else ""
    except PairingError:
        total, label = None, ""
    leaders = []
    if not spec.has_bracket:
        leaders = [row.team for row in standing_rows(tournament).filter(rank=1)]
    return RunningTournament(tournament, round, label, total, leaders)


def recent_results(count: int = RECENT_RESULTS) -> list[TableView]:
    """The newest results the public may see (confirmed, of public rounds, not of a duplicate
    round still being played: even that a table has finished is its secret), newest first."""
    matches = with_details(Match.objects.filter(
        round__status__in=PUBLIC_ROUNDS, is_bye=False, result__confirmed=True)
        .exclude(round__in=hidden_rounds().values("pk"))
        .order_by("-result__created", "-result__id"))[:count]
    return [table_view(match) for match in matches]


def home_view() -> HomeView:
    tournaments = list(Tournament.objects.annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn=False))).order_by("-id"))
    by_status: dict[str, list[Tournament]] = {}
    for tournament in tournaments:
        by_status.setdefault(tournament.status, []).append(tournament)
    upcoming = sorted(by_status.get(Tournament.Status.UPCOMING, []),
                      key=lambda t: (t.starts_on is None, t.starts_on, -t.pk))
    finished = sorted(by_status.get(Tournament.Status.FINISHED, []), reverse=True,
                      key=lambda t: (t.ends_on is not None, t.ends_on or date.min, t.pk))
    return HomeView(
        running=[_running(t) for t in by_status.get(Tournament.Status.RUNNING, [])],
        upcoming=upcoming,
        results=recent_results(),
        finished=[FinishedTournament(t, [p for p in final_places_of(t) if p.first <= PLACES_SHOWN])
                  for t in finished[:FINISHED_SHOWN]])
