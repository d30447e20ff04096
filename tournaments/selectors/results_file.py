"""A tournament's results file (``push-results/1``, docs/api/files.md): the event, its
teams and players, every public round's matches with their seats and results, and the
final places, as one document another installation can import
(``services.results_import``).

No database ids are written: players are named by their handles, teams by their number in
the file (their entry order), rounds and tables by their numbers, so that a tournament
moved to another installation writes the same file there. What is in it is what its reader
may see (``visibility``): public rounds only, none whose boards are still secret to them,
and each result as ``visible_result`` shows it (an unconfirmed one to organisers and the
match's players only, marked).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from config.users import RequestUser
from tournaments.models import Entry, Match, Player, Result, Seat, Tournament

from .home import final_places_of
from .visibility import PUBLIC_ROUNDS, boards_hidden_from, visible_result

SCHEMA = "push-results/1"


def number(value: Decimal) -> int | float:
    """A stored decimal as JSON writes it: 2.0 points is 2, 1.5 stays 1.5."""
    return int(value) if value == int(value) else float(value)


def results_file(tournament: Tournament, user: RequestUser | None) -> dict[str, Any]:
    """The tournament's results file as ``user`` (None: the public) may see it."""
    entries = list(Entry.objects.filter(tournament=tournament)
                   .select_related("team__player_a", "team__player_b").order_by("seed", "pk"))
    numbers = {entry.team_id: index for index, entry in enumerate(entries, start=1)}
    rounds = [round for round in tournament.rounds.filter(status__in=PUBLIC_ROUNDS)
              .order_by("number") if not boards_hidden_from(round, user)]
    matches = (Match.objects.filter(round__in=rounds)
               .select_related("round__tournament", "table", "result")
               .prefetch_related("seats__player").order_by("round__number", "table__number",
                                                            "pk"))
    by_round: dict[int, list[dict[str, Any]]] = {round.pk: [] for round in rounds}
    players: dict[str, str] = {}
    for entry in entries:
        for player in (entry.team.player_a, entry.team.player_b):
            players[player.handle] = player.name
    for match in matches:
        by_round[match.round_id].append(_match(match, numbers, players, user))
    return {
        "schema": SCHEMA,
        "event": _event(tournament),
        "players": [{"handle": handle, "name": name} for handle, name in sorted(players.items())],
        "teams": [{"number": numbers[entry.team_id], "name": entry.team.name,
                   "players": [entry.team.player_a.handle, entry.team.player_b.handle],
                   "seed": entry.seed, "withdrawn": entry.withdrawn} for entry in entries],
        "rounds": [{"number": round.number, "status": round.status,
                    "boards_seed": round.seed, "matches": by_round[round.pk]}
                   for round in rounds],
        "places": [{"first": place.first, "last": place.last,
                    "team": numbers[place.team.pk]}
                   for place in final_places_of(tournament) if place.team.pk in numbers],
    }


def _event(tournament: Tournament) -> dict[str, Any]:
    return {
        "name": tournament.name, "format": tournament.format, "status": tournament.status,
        "starts_on": tournament.starts_on.isoformat() if tournament.starts_on else None,
        "ends_on": tournament.ends_on.isoformat() if tournament.ends_on else None,
        "play": tournament.play, "dealing": tournament.dealing,
        "duplicate": tournament.duplicate, "rounds_planned": tournament.rounds_planned,
        "scoring": {"win": number(tournament.points_win),
                    "draw": number(tournament.points_draw),
                    "loss": number(tournament.points_loss),
                    "bye": number(tournament.points_bye)},
        "tiebreaks": list(tournament.tiebreaks), "bye_policy": tournament.bye_policy,
        "bot_level": tournament.bot_level, "knockout_tie_rule": tournament.knockout_tie_rule,
        "third_place_match": tournament.third_place_match,
    }


def _match(match: Match, numbers: dict[int, int], players: dict[str, str],
           user: RequestUser | None) -> dict[str, Any]:
    seats = []
    for seat in sorted(match.seats.all(), key=lambda seat: seat.position):
        seats.append(_seat(seat))
        if seat.player is not None:  # a substitute of another team is named in the file too
            players.setdefault(seat.player.handle, seat.player.name)
    result = visible_result(match, user)
    return {
        "table": match.table.number if match.table is not None else None,
        "team_a": numbers.get(match.team_a_id),
        "team_b": numbers.get(match.team_b_id) if match.team_b_id is not None else None,
        "bye": match.is_bye, "bot_opponent": match.bot_opponent,
        "bracket_slot": match.bracket_slot, "seats": seats,
        "result": None if result is None else _result(result),
    }


def _seat(seat: Seat) -> dict[str, Any]:
    player: Player | None = seat.player
    return {"position": seat.position, "player": player.handle if player else None,
            "bot": seat.bot_level, "substitute": seat.substitute}


def _result(result: Result) -> dict[str, Any]:
    return {"source": result.source, "confirmed": result.confirmed,
            "hand_scores": [list(hand) for hand in result.hand_scores],
            "out_seats": list(result.out_seats), "totals": [result.total_a, result.total_b],
            "winner": result.winner, "decided_by": result.decided_by}
