"""Leagues and their seasons in the API: a league with its seasons; a season with its
divisions (each a tournament, whose standings are that tournament's) and who came up and
down; a series' table of points per place as JSON, CSV or NDJSON, by team or by player.
Draft seasons are shown to the league's organisers only (``selectors.leagues``).

An organiser's writes, through the services the admin's league and season pages and actions
call (``services.leagues``), each with the ``organise`` scope and an ``Idempotency-Key``:
``POST /leagues/`` (its creator organises it) and ``PATCH /leagues/{id}/``; ``POST
/seasons/`` (a season of a league with its divisions, or a series with its events:
tournaments the organiser organises, in no other season); ``POST
/seasons/{id}/draft-next/`` (the next season drafted: who goes up and down) and ``POST
/seasons/{id}/confirm/`` (a draft made the league's current season)."""

from __future__ import annotations

from typing import Any, Literal

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import Division, League, Season
from tournaments.params import ParameterError, choices
from tournaments.selectors import leagues as selectors
from tournaments.services import leagues as services

from .idempotency import idempotent
from .keys import KeyScopes
from .league_bodies import LeagueBody, SeasonBody
from .parsers import JSONParser
from .setup import write_schema
from .standings import json_number
from .views import EXPORT_FORMATS, EXPORT_RENDERERS, ExportResponse, Exports, ReadOnlyViewSet


class DivisionSerializer(serializers.ModelSerializer[Division]):
    tournament = serializers.IntegerField(source="tournament_id")
    name = serializers.CharField(source="tournament.name")
    status = serializers.CharField(source="tournament.status")

    class Meta:
        model = Division
        fields = ["level", "tournament", "name", "status"]


class SeasonSerializer(serializers.ModelSerializer[Season]):
    league = serializers.IntegerField(source="league_id")
    events = serializers.SerializerMethodField(help_text="a series' tournaments, in order")
    divisions = DivisionSerializer(many=True, read_only=True,
                                   help_text="a season of divisions: one tournament each")

    class Meta:
        model = Season
        fields = ["id", "league", "number", "name", "kind", "status", "place_points", "best_of",
                  "divisions", "events"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_events(self, season: Season) -> list[int]:
        return [event.tournament_id for event in season.events.all()]


MOVE_KINDS = ["up", "down", "stays", "new", "left"]


class MoveSerializer(serializers.Serializer[Any]):
    team_id = serializers.IntegerField(source="team.pk")
    team = serializers.CharField(source="team.name")
    before = serializers.IntegerField(allow_null=True, help_text="its division's level last "
                                      "season; null: it is new")
    after = serializers.IntegerField(allow_null=True, help_text="its division's level this "
                                     "season; null: it left")
    kind = serializers.ChoiceField(MOVE_KINDS)


class SeasonDetailSerializer(SeasonSerializer):
    moves = serializers.SerializerMethodField(
        help_text="every team's way from the season before (up, down, stays, new, left); "
        "empty for the league's first season")

    class Meta(SeasonSerializer.Meta):
        fields = [*SeasonSerializer.Meta.fields, "moves"]

    @extend_schema_field(MoveSerializer(many=True))
    def get_moves(self, season: Season) -> list[dict[str, Any]]:
        previous = selectors.neighbour_season(season, -1)
        moves = selectors.season_moves(previous, season) if previous else []
        return list(MoveSerializer(moves, many=True).data)


class LeagueSerializer(serializers.ModelSerializer[League]):
    class Meta:
        model = League
        fields = ["id", "name", "slug", "description", "promote", "relegate"]


class LeagueDetailSerializer(LeagueSerializer):
    seasons = serializers.SerializerMethodField(help_text="newest first")

    class Meta(LeagueSerializer.Meta):
        fields = [*LeagueSerializer.Meta.fields, "seasons"]

    @extend_schema_field(SeasonSerializer(many=True))
    def get_seasons(self, league: League) -> list[dict[str, Any]]:
        seasons = selectors.league_seasons(league, self.context["request"].user)
        return list(SeasonSerializer(seasons.prefetch_related("divisions__tournament",
                                                              "events"), many=True).data)


SERIES_COLUMNS = ["rank", "id", "name", "points", "played"]


def series_export(season: Season, by: Literal["team", "player"]) -> dict[str, Any]:
    """A series' table as rows: the fixed columns, then each event's points under the
    event's tournament id (``"t12"``), null where not played; ``dropped`` lists the events
    played whose points do not count."""
    table = selectors.season_series_table(season, by)
    events = [f"t{event.pk}" for event in table.events]
    rows = []
    for row in table.cells:
        cells = {key: json_number(cell.points) if cell else None
                 for key, cell in zip(events, row.cells, strict=True)}
        dropped = " ".join(key for key, cell in zip(events, row.cells, strict=True)
                           if cell and not cell.counted)
        rows.append({"rank": row.rank, "id": row.key, "name": row.name,
                     "points": json_number(row.points), "played": row.played,
                     **cells, "dropped": dropped})
    return {"season": season.pk, "by": by,
            "events": [{"key": key, "tournament": event.pk, "name": event.name}
                       for key, event in zip(events, table.events, strict=True)],
            "place_points": season.place_points, "best_of": season.best_of,
            "columns": [*SERIES_COLUMNS, *events, "dropped"], "rows": rows}


@extend_schema_view(
    list=extend_schema(summary="List leagues"),
    retrieve=extend_schema(summary="A league and its seasons"),
)
class LeagueViewSet(ReadOnlyViewSet[League]):
    """Leagues, each with its seasons; an organiser creates and changes theirs."""

    list_serializer_class = LeagueSerializer
    detail_serializer_class = LeagueDetailSerializer
    queryset = League.objects.all()
    parser_classes = [JSONParser]

    def _answer(self, league: League, code: int = status.HTTP_200_OK) -> Response:
        return Response(LeagueDetailSerializer(league, context=self.get_serializer_context())
                        .data, status=code)

    @write_schema("Create a league", "A new league; whoever creates it organises it.",
                  "the league", request=LeagueBody, answer=LeagueDetailSerializer,
                  who="organisers (staff accounts)")
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        values = _valid(LeagueBody(data=request.data))
        league = services.league_save(league=services.league_set(League(), values),
                                      user=request.user)
        return self._answer(league, status.HTTP_201_CREATED)

    @write_schema("Change a league", "The settings given change, the others stay.",
                  "the league", request=LeagueBody, answer=LeagueDetailSerializer, code=200,
                  who="the league's organisers")
    @idempotent
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = self.get_object()
        values = _valid(LeagueBody(data=request.data, partial=True))
        saved = services.league_save(league=services.league_set(league, values),
                                     user=request.user)
        return self._answer(saved)


def _valid(serializer: serializers.Serializer[Any]) -> dict[str, Any]:
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


@extend_schema_view(
    list=extend_schema(summary="List seasons (drafts only for their league's organisers)"),
    retrieve=extend_schema(summary="A season: its divisions or events, and who came up and "
                                   "went down since the season before"),
)
class SeasonViewSet(Exports[Season], ReadOnlyViewSet[Season]):
    """Seasons of every league; the series table of a series."""

    list_serializer_class = SeasonSerializer
    detail_serializer_class = SeasonDetailSerializer
    parser_classes = [JSONParser]

    def get_queryset(self) -> QuerySet[Season]:
        return (selectors.visible_seasons(self.request.user)
                .prefetch_related("divisions__tournament", "events").order_by("league", "number"))

    def _answer(self, season: Season, code: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=season.pk)
        return Response(SeasonDetailSerializer(fresh, context=self.get_serializer_context())
                        .data, status=code)

    @write_schema(
        "Create a season of a league",
        "A season of divisions with its divisions (one tournament a level, 1 the top), or a "
        "series with its events: tournaments you organise, in no other season. Its number "
        "is the league's next and its name \"Season <number>\" unless given.",
        "the season", request=SeasonBody, answer=SeasonDetailSerializer,
        who="the league's organisers")
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        values = _valid(SeasonBody(data=request.data))
        league = values.pop("league")
        divisions = {part["level"]: part["tournament"] for part in values.pop("divisions", [])}
        events = values.pop("events", [])
        season = services.season_create(league=league, values=values, user=request.user,
                                        divisions=divisions, events=events)
        return self._answer(season, status.HTTP_201_CREATED)

    @write_schema(
        "Draft the season after this one (who goes up and down)",
        "Every division finished, the next season is drafted: one new tournament a division "
        "with the same settings, its teams entered in the order the moves give; this "
        "season is finished. Change the draft's entries, then confirm it.",
        "the draft season, with its moves", request=None, answer=SeasonDetailSerializer,
        who="the league's organisers")
    @action(detail=True, methods=["post"], url_path="draft-next",
            permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def draft_next(self, request: Request, pk: str | None = None,
                   format: str | None = None) -> Response:
        draft = services.season_draft_next(season=self.get_object(), user=request.user)
        return self._answer(draft, status.HTTP_201_CREATED)

    @write_schema(
        "Confirm a drafted season", "The draft becomes the league's current season; the "
        "players of each team that went up or down are told.", "the season, current",
        request=None, answer=SeasonDetailSerializer, code=200,
        who="the league's organisers")
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def confirm(self, request: Request, pk: str | None = None,
                format: str | None = None) -> Response:
        season = services.season_confirm(season=self.get_object(), user=request.user)
        return self._answer(season)

    @extend_schema(
        summary="A series' table of points per place (JSON, CSV or NDJSON)",
        description=(
            "One row a team (or a player, `?by=player`), best first: rank (shared when level "
            "on points and on count-back), id, name, points of the events that count, events "
            "played, then each event's points under `t<tournament id>` (null: not played), "
            "and `dropped`: the events whose points do not count (a season counting only the "
            "best N). A season of divisions has no events, so no rows."),
        parameters=[
            OpenApiParameter("by", str, enum=["team", "player"],
                             description="rank teams (the default) or players"),
            OpenApiParameter("format", str, enum=["json", "csv", "ndjson"],
                             description="the response format"),
        ],
        responses={(200, "application/json"): OpenApiTypes.OBJECT,
                   (200, "text/csv"): OpenApiTypes.STR,
                   (200, "application/x-ndjson"): OpenApiTypes.STR})
    @action(detail=True, renderer_classes=EXPORT_RENDERERS, pagination_class=None)
    def table(self, request: Request, pk: str | None = None,
              format: str | None = None) -> Response:
        season = self.get_object()
        by = choices(request.query_params, "by", {"team", "player"}) or {"team"}
        if len(by) > 1:
            raise ParameterError("by", _("one of team or player, not both"))
        key: Literal["team", "player"] = "player" if by == {"player"} else "team"
        response = ExportResponse(series_export(season, key))
        if request.accepted_renderer.format in EXPORT_FORMATS:
            response["Content-Disposition"] = (
                f'inline; filename="season-{season.pk}-{key}s.'
                f'{request.accepted_renderer.format}"')
        return response
