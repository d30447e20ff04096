"""The standings as the API and its exports show them.

Read from the stored ``Standing`` rows (derived from confirmed results; rebuilt after every
completed round and every new result) through the same selector as the standings page: the
current standings, or those after a completed round. One flat row a team, the tournament's
tie-breaks as columns in its order (their keys from the metric registry,
``tournaments.standings``), so that JSON, CSV and NDJSON carry the same rows; the JSON
also describes each tie-break (name, abbreviation, direction) from that registry.

A finished tournament's places and its champion come with the current standings, from the
selector the site's pages use (``final_places_of``): a bracket's from the bracket (its
points may rank two teams first), a league's from its final standings.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import NotFound

from tournaments.models import Round, Tournament
from tournaments.selectors import final_places_of, standing_rows, tournament_metrics
from tournaments.selectors.home import Place

FIXED_COLUMNS = ["rank", "team_id", "team", "points", "played", "wins", "draws", "losses",
                 "byes"]


def json_number(value: Decimal | Fraction | float | int | None) -> float | int | None:
    """Whole numbers as int, others as float: 2.0 points is 2, 1.5 stays 1.5."""
    if value is None:
        return None
    return int(value) if value == int(value) else float(value)


def standings_export(tournament: Tournament, round_number: int | None) -> dict[str, Any]:
    """The standings after ``round_number`` (which must be complete), or the current ones."""
    if round_number is not None and not tournament.rounds.filter(
            number=round_number, status=Round.Status.COMPLETE).exists():
        raise NotFound(_("round %(number)d of %(tournament)s is not complete (or does not "
                         "exist): standings are kept after each completed round")
                       % {"number": round_number, "tournament": tournament})
    metrics = tournament_metrics(tournament)
    tiebreaks = [metric.key for metric in metrics]
    rows = [{"rank": row.rank, "team_id": row.team_id, "team": row.team.name,
             "points": json_number(row.points), "played": row.played, "wins": row.wins,
             "draws": row.draws, "losses": row.losses, "byes": row.byes,
             **{key: json_number(row.values.get(key)) for key in tiebreaks}}
            for row in standing_rows(tournament, round_number or 0)]
    places = final_places_of(tournament) if round_number is None else []
    return {"tournament": tournament.pk, "round": round_number, "tiebreaks": tiebreaks,
            "metrics": [{"key": metric.key, "name": str(metric.name),
                         "abbreviation": str(metric.abbreviation),
                         "higher_is_better": metric.higher_is_better} for metric in metrics],
            "columns": [*FIXED_COLUMNS, *tiebreaks],
            "rows": rows, "places": [_place(place) for place in places],
            "champion": _champion(places)}


def _place(place: Place) -> dict[str, Any]:
    return {"first": place.first, "last": place.last, "team_id": place.team.pk,
            "team": place.team.name}


def _champion(places: list[Place]) -> dict[str, Any] | None:
    """The team placed first alone (none while first place is shared, or not decided)."""
    first = [place for place in places if place.first == 1]
    if len(first) != 1 or first[0].shared:
        return None
    return {"team_id": first[0].team.pk, "team": first[0].team.name}


class StandingRowSerializer(serializers.Serializer[dict[str, Any]]):
    """One team's line; each tie-break of the tournament follows as a key of its own
    (e.g. ``"score_diff": 35``), in the tournament's order."""

    rank = serializers.IntegerField(help_text="teams level on everything share a rank")
    team_id = serializers.IntegerField()
    team = serializers.CharField(help_text="the team's name")
    points = serializers.FloatField()
    played = serializers.IntegerField(help_text="matches against an opponent (byes apart)")
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()


class MetricSerializer(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField(help_text="the tie-break's column in the rows")
    name = serializers.CharField(help_text="its heading, in the language asked for")
    abbreviation = serializers.CharField(help_text="its short heading")
    higher_is_better = serializers.BooleanField(
        help_text="the direction: false when the lower value ranks higher")


class PlaceSerializer(serializers.Serializer[dict[str, Any]]):
    first = serializers.IntegerField(help_text="the place, 1 for the champion")
    last = serializers.IntegerField(help_text="equal to first unless teams share the place "
                                              "(e.g. 5 to 8 for a knockout's quarter-finalists)")
    team_id = serializers.IntegerField()
    team = serializers.CharField(help_text="the team's name")


class ChampionSerializer(serializers.Serializer[dict[str, Any]]):
    team_id = serializers.IntegerField()
    team = serializers.CharField(help_text="the team's name")


class StandingsSerializer(serializers.Serializer[dict[str, Any]]):
    tournament = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True,
                                     help_text="the completed round; null: current standings")
    tiebreaks = serializers.ListField(child=serializers.CharField(),
                                      help_text="tie-break keys, in the order applied")
    metrics = MetricSerializer(many=True, help_text="the tie-breaks, in the order applied")
    columns = serializers.ListField(child=serializers.CharField(),
                                    help_text="the rows' keys in order (the CSV header)")
    rows = StandingRowSerializer(many=True)
    places = PlaceSerializer(
        many=True, help_text="a finished tournament's final places, best first, as its pages "
        "show them: a knockout's from its bracket (not from the rows' ranks), a league's from "
        "its final standings; empty before the end and after a round (`round`)")
    champion = ChampionSerializer(allow_null=True, help_text="the team placed first alone; "
                                  "null before the end or while first place is shared")
