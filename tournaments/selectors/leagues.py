"""Leagues, their seasons and what their pages and the API show: each division's table with
who came up and down, a series' table of points per place, and a season's moves.

A draft season (drafted from the last, not yet confirmed) is seen by the league's organisers
only, like a draft round; everything else of a league is public, as its tournaments are."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from django.db.models import Q, QuerySet

from config.users import RequestUser
from tournaments.leagues import EventPlace, SeriesEvent, SeriesLine, series_table
from tournaments.leagues.series import EventScore
from tournaments.models import Division, Entry, League, Player, Season, Team, Tournament

from .home import Place, final_places_of
from .standings import tournament_standings
from .viewmodels import StandingLine


def organised_leagues(user: RequestUser | None) -> QuerySet[League]:
    if user is None or not user.is_authenticated:
        return League.objects.none()
    return League.objects.all() if user.is_superuser else League.objects.filter(organisers=user)


def is_league_organiser(user: RequestUser | None, league: League) -> bool:
    return organised_leagues(user).filter(pk=league.pk).exists()


def visible_seasons(user: RequestUser | None = None) -> QuerySet[Season]:
    """The seasons ``user`` may see: all but drafts, and the drafts of leagues they run."""
    return Season.objects.filter(
        ~Q(status=Season.Status.DRAFT) | Q(league__in=organised_leagues(user).values("pk"))
    ).select_related("league")


def league_seasons(league: League, user: RequestUser | None) -> QuerySet[Season]:
    return visible_seasons(user).filter(league=league).order_by("-number")


def season_levels(season: Season) -> dict[int, int]:
    """Each entered team's division level in ``season`` (withdrawn teams too)."""
    return dict(Entry.objects.filter(tournament__division__season=season)
                .values_list("team_id", "tournament__division__level"))


def neighbour_season(season: Season, step: Literal[-1, 1]) -> Season | None:
    """The season before (``-1``) or after (``1``) in its league, drafts left out."""
    seasons = (Season.objects.filter(league=season.league).exclude(status=Season.Status.DRAFT)
               .exclude(pk=season.pk))
    if step < 0:
        return seasons.filter(number__lt=season.number).order_by("-number").first()
    return seasons.filter(number__gt=season.number).order_by("number").first()


@dataclass
class SeasonMove:
    """A team's way between two seasons: ``before`` and ``after`` levels (None: not there)."""

    team: Team
    before: int | None
    after: int | None

    @property
    def kind(self) -> str:
        if self.before is None:
            return "new"
        if self.after is None:
            return "left"
        return "up" if self.after < self.before else "down" if self.after > self.before \
            else "stays"


def season_moves(before: Season, after: Season) -> list[SeasonMove]:
    """Every team of either season with its level in each, by level after, then before."""
    old, new = season_levels(before), season_levels(after)
    teams = Team.objects.in_bulk(set(old) | set(new))
    moves = [SeasonMove(teams[team], old.get(team), new.get(team)) for team in teams]
    return sorted(moves, key=lambda m: (m.after or 10**4, m.before or 10**4, m.team.name))


@dataclass
class DivisionRow:
    """A team's line in its division: its place (or rank while it is played), its points
    (none for a place from a bracket), and how it came (up, down, new) and goes (up, down,
    left) between this season and its neighbours ("" for staying, or not known yet)."""

    place: int
    shared: bool
    team: Team
    points: str | None
    came: str = ""
    goes: str = ""


@dataclass
class DivisionView:
    division: Division
    rows: list[DivisionRow]
    #: what the rows' order is: the final places, the standings, or (before any result) the
    #: seeds of its entries
    order: Literal["places", "standings", "seeds"]


def division_rows(tournament: Tournament, came: dict[int, str], goes: dict[int, str]
                  ) -> tuple[list[DivisionRow], Literal["places", "standings", "seeds"]]:
    """A division's final places once finished, else its standings, else its entries by
    seed; each with the team's moves."""
    places: list[Place] = final_places_of(tournament)
    if places:
        return [DivisionRow(p.first, p.shared, p.team, None, came.get(p.team.pk, ""),
                            goes.get(p.team.pk, "")) for p in places], "places"
    lines: list[StandingLine] = tournament_standings(tournament)
    if lines:
        return [DivisionRow(line.rank, line.shared, line.team, line.points,
                            came.get(line.team.pk, ""), goes.get(line.team.pk, ""))
                for line in lines], "standings"
    entries = tournament.entries.select_related("team").order_by("seed", "pk")
    return [DivisionRow(number, False, entry.team, None, came.get(entry.team_id, ""),
                        goes.get(entry.team_id, ""))
            for number, entry in enumerate(entries, start=1)], "seeds"


@dataclass
class SeriesRow:
    rank: int
    key: int
    name: str
    points: Decimal
    played: int
    cells: list[EventScore | None]  # one an event, in order; None where not played


@dataclass
class SeriesTable:
    events: list[Tournament]
    lines: list[SeriesLine]
    names: dict[int, str]  # the key of each line -> its team's or player's name

    @property
    def cells(self) -> list[SeriesRow]:
        """The table's rows with a cell for every event, played or not."""
        rows = []
        for line in self.lines:
            scores = {score.event: score for score in line.scores}
            rows.append(SeriesRow(line.rank, line.key, self.names.get(line.key, ""),
                                  line.points, line.played,
                                  [scores.get(event.pk) for event in self.events]))
        return rows


@dataclass
class SeasonView:
    season: Season
    previous: Season | None
    next: Season | None
    divisions: list[DivisionView]
    teams: SeriesTable | None
    players: SeriesTable | None


def season_view(season: Season) -> SeasonView:
    previous, following = neighbour_season(season, -1), neighbour_season(season, 1)
    came = {m.team.pk: m.kind for m in season_moves(previous, season)
            if m.kind != "stays"} if previous else {}
    goes = {m.team.pk: m.kind for m in season_moves(season, following)
            if m.kind != "stays"} if following else {}
    divisions = [DivisionView(d, *division_rows(d.tournament, came, goes))
                 for d in season.divisions.select_related("tournament").order_by("level")]
    teams = players = None
    if season.kind == Season.Kind.SERIES:
        teams, players = season_series_table(season, "team"), season_series_table(season,
                                                                                   "player")
    return SeasonView(season, previous, following, divisions, teams, players)


def series_events(season: Season) -> tuple[list[Tournament], list[SeriesEvent]]:
    """The series' events (each tournament, finished or not) and the finished ones' places."""
    tournaments = [event.tournament for event in season.events.select_related("tournament")]
    events = []
    for tournament in tournaments:
        places = final_places_of(tournament)
        if places:
            events.append(SeriesEvent(tournament.pk, tuple(
                EventPlace(p.team.pk, (p.team.player_a_id, p.team.player_b_id), p.first, p.last)
                for p in places)))
    return tournaments, events


def season_series_table(season: Season, by: Literal["team", "player"]) -> SeriesTable:
    tournaments, events = series_events(season)
    points = [Decimal(str(p)) for p in season.place_points]
    lines = series_table(events, points, season.best_of, by=by)
    model = Team if by == "team" else Player
    found = model.objects.in_bulk([line.key for line in lines])
    names = {pk: item.name for pk, item in found.items()}
    return SeriesTable(tournaments, lines, names)


def division_ranking(division: Division) -> list[int]:
    """A finished division's teams still in, best first: by its final places (a bracket's
    from the bracket), teams sharing a place in the order their format lists them."""
    withdrawn = set(division.tournament.entries.filter(withdrawn=True)
                    .values_list("team_id", flat=True))
    return [p.team.pk for p in final_places_of(division.tournament) if p.team.pk not in withdrawn]
