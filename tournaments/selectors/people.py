"""Teams, players and clubs: their public matches, tournaments and rating history."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from tournaments.models import (
    Absence,
    Club,
    Entry,
    Match,
    Player,
    RatingEntry,
    Seat,
    Standing,
    Team,
    Tournament,
)
from tournaments.ratings import Rating, default_rating

from .matches import with_details
from .viewmodels import RatingPoint, ResultLine, outcome
from .visibility import PUBLIC_ROUNDS, shown_status, visible_result


def teams() -> QuerySet[Team]:
    return Team.objects.select_related("player_a", "player_b")


def players() -> QuerySet[Player]:
    return Player.objects.order_by("name", "id")  # names repeat; pages must not


def _line(match: Match, side: int) -> ResultLine:
    result = visible_result(match)
    other = match.team_b if side == 0 else match.team_a
    totals = (result.total_a, result.total_b) if result else (None, None)
    return ResultLine(match, match.round.tournament, match.round.number,
                      other.name if other is not None else str(_("House bots")),
                      totals[side], totals[1 - side], outcome(result, side),
                      opponent_team=other, status=str(Match.Status(shown_status(match)).label))


def team_results(team: Team) -> list[ResultLine]:
    """Every public match of ``team``, newest tournament first, in round order."""
    matches = with_details(Match.objects.filter(Q(team_a=team) | Q(team_b=team), is_bye=False,
                                                round__status__in=PUBLIC_ROUNDS)
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
    matches = with_details(Match.objects.filter(seats__player=player,
                                                round__status__in=PUBLIC_ROUNDS)
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


def _rating_entries(players: list[int]) -> list[RatingEntry]:
    return list(RatingEntry.objects.filter(player__in=players)
                .select_related("match__round__tournament", "match__result").order_by("id"))


def _point(match: Match, rating: int, deviation: int) -> RatingPoint:
    result = getattr(match, "result", None)
    return RatingPoint(match, match.round.tournament, match.round.number,
                       result.created.date() if result is not None else None, rating, deviation)


def player_rating_history(player: Player) -> list[RatingPoint]:
    """The player's rating after each rated match, oldest first, on the familiar scale."""
    return [_point(entry.match, Rating(entry.mu, entry.sigma).scaled,
                   Rating(entry.mu, entry.sigma).deviation)
            for entry in _rating_entries([player.pk])]


def team_rating(team: Team) -> int:
    """The team's rating: the mean of its two players' ratings (familiar scale)."""
    players = (team.player_a, team.player_b)
    return round(sum(Rating(p.rating_mu, p.rating_sigma).scaled for p in players) / 2)


def team_rating_history(team: Team) -> list[RatingPoint]:
    """The team's rating (the mean of its players') after each of its rated matches, oldest
    first. A player's games for another team move the mean too, and show at the team's
    next match."""
    current = {team.player_a_id: default_rating(), team.player_b_id: default_rating()}
    points: list[RatingPoint] = []
    entries = _rating_entries(list(current))
    for i, entry in enumerate(entries):
        current[entry.player_id] = Rating(entry.mu, entry.sigma)
        match = entry.match
        last_of_match = i + 1 == len(entries) or entries[i + 1].match_id != entry.match_id
        if last_of_match and team.pk in (match.team_a_id, match.team_b_id):
            ratings = list(current.values())
            points.append(_point(match, round(sum(r.scaled for r in ratings) / 2),
                                 round(sum(r.deviation for r in ratings) / 2)))
    return points


def register_tournaments(item: Player | Team | Club) -> QuerySet[Tournament]:
    """The tournaments a team, player or club of the register takes part in: a team those
    it is entered in or has a match in; a player those of every team they are in, and those
    they sat in or are marked absent from; a club those of its players and teams, and those
    that keep its teams apart."""
    if isinstance(item, Team):
        return _tournaments_of(Team.objects.filter(pk=item.pk), Player.objects.none())
    if isinstance(item, Player):
        return _tournaments_of(Team.objects.none(), Player.objects.filter(pk=item.pk))
    return _tournaments_of(Team.objects.filter(club=item), Player.objects.filter(club=item),
                           Q(pk__in=Tournament.objects.filter(keep_apart_clubs=item)
                             .values("pk")))


def _tournaments_of(teams: QuerySet[Team], players: QuerySet[Player],
                    also: Q | None = None) -> QuerySet[Tournament]:
    """The tournaments of ``teams``, of ``players`` and of their teams, and ``also``."""
    teams = Team.objects.filter(Q(pk__in=teams.values("pk")) | Q(player_a__in=players)
                                | Q(player_b__in=players))
    matches = Match.objects.filter(Q(team_a__in=teams) | Q(team_b__in=teams))
    where = (Q(pk__in=Entry.objects.filter(team__in=teams).values("tournament"))
             | Q(pk__in=matches.values("round__tournament"))
             | Q(pk__in=Seat.objects.filter(player__in=players).values("round__tournament"))
             | Q(pk__in=Absence.objects.filter(player__in=players).values("tournament")))
    return Tournament.objects.filter(where if also is None else where | also)
