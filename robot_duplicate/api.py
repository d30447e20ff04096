"""Robot duplicate events in the API, at ``/api/v1/robot-events/`` (the app adds the
endpoint to the tournaments' router in its ``AppConfig.ready()``,
``tournaments.api.endpoints``): the events (their kind and window), and an event's ranking
as the standings are exported (JSON, CSV, NDJSON).

The ranking, like the event's page, is there once the window has closed and every table has
finished (``selectors``); until then its rows are empty and ``hidden`` says why, but to the
event's organisers, who see it as it stands.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from config.users import RequestUser
from tournaments.api.standings import json_number
from tournaments.api.submissions import DetailSerializer
from tournaments.api.views import (
    EXPORT_FORMATS,
    EXPORT_RENDERERS,
    ExportResponse,
    Exports,
    ReadOnlyViewSet,
)

from . import selectors
from .models import RobotEvent

BOARDS = 5
COLUMNS = ["rank", "entry", "player", "partner", "percentage", "boards",
           *(f"board_{n}" for n in range(1, BOARDS + 1)), "bot_boards"]


def ranking_export(event: RobotEvent, user: RequestUser | None) -> dict[str, Any]:
    """The event's ranking, best first, one row an entrant (empty while it is secret)."""
    hidden = selectors.robot_hidden_from(event, user)
    rows = [] if hidden else [_row(line) for line in selectors.robot_ranking(event)]
    return {"event": event.pk, "kind": event.kind, "hidden": hidden, "columns": COLUMNS,
            "rows": rows}


def _row(line: selectors.RankingLine) -> dict[str, Any]:
    entry = line.entry
    boards = {f"board_{n}": None if score is None else json_number(score.percentage)
              for n, score in enumerate(line.boards, start=1)}
    return {"rank": line.rank, "entry": entry.pk, "player": entry.player.get_username(),
            "partner": entry.partner.get_username() if entry.partner else None,
            "percentage": None if line.percentage is None else json_number(line.percentage),
            "boards": len([s for s in line.boards if s is not None]),
            **boards,
            "bot_boards": " ".join(map(str, line.bot_boards))}


class RobotEventSerializer(serializers.ModelSerializer[RobotEvent]):
    class Meta:
        model = RobotEvent
        fields = ["id", "name", "kind", "opens", "closes", "bot_level", "bot_boards",
                  "turn_seconds", "grace_seconds"]


class RankingRowSerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField(allow_null=True, help_text="1, 2, 2, 4 for a tie; null: "
                                                               "no board scored")
    entry = serializers.IntegerField()
    player = serializers.CharField(help_text="the username in seat 0")
    partner = serializers.CharField(allow_null=True, help_text="seat 2 in a pairs event")
    percentage = serializers.FloatField(allow_null=True,
                                        help_text="matchpoints over the tops, 0 to 100")
    boards = serializers.IntegerField(help_text="boards scored")
    board_1 = serializers.FloatField(allow_null=True, help_text="the percentage on board 1 "
                                     "(and so on to board_5); null: not scored")
    board_2 = serializers.FloatField(allow_null=True)
    board_3 = serializers.FloatField(allow_null=True)
    board_4 = serializers.FloatField(allow_null=True)
    board_5 = serializers.FloatField(allow_null=True)
    bot_boards = serializers.CharField(help_text="the boards a bot finished for a person, "
                                                 "space-separated")


class RankingSerializer(serializers.Serializer[dict[str, Any]]):
    event = serializers.IntegerField()
    kind = serializers.CharField()
    hidden = serializers.BooleanField(help_text="true while the window is open or a table "
                                                "is still played: no rows")
    columns = serializers.ListField(child=serializers.CharField())
    rows = RankingRowSerializer(many=True)


events_schema = extend_schema_view(
    list=extend_schema(summary="Robot duplicate events: their kind and window"),
    retrieve=extend_schema(summary="A robot duplicate event"),
)

ranking_schema = extend_schema(
    summary="A robot duplicate event's ranking (JSON, CSV or NDJSON)",
    description=(
        "One row an entrant, best first: the rank on matchpoints against everyone who held "
        "seat 0 (a pair: seats 0 and 2) on the same boards, the percentage, the percentage "
        "on each board and the boards a bot finished for a person. Empty, with `hidden` "
        "true, until the window has closed and every table has finished (the event's "
        "organisers see it as it stands). CSV and NDJSON as the standings."),
    parameters=[OpenApiParameter("format", str, enum=["json", "csv", "ndjson"],
                                 description="the response format")],
    responses={
        (200, "application/json"): RankingSerializer,
        (200, "text/csv"): OpenApiTypes.STR,
        (200, "application/x-ndjson"): OpenApiTypes.STR,
        (404, "application/json"): OpenApiResponse(DetailSerializer,
                                                   description="no such event"),
    },
)


@events_schema
class RobotEventViewSet(Exports[RobotEvent], ReadOnlyViewSet[RobotEvent]):
    """Robot duplicate events, and each one's ranking once it is shown."""

    list_serializer_class = detail_serializer_class = RobotEventSerializer
    queryset = RobotEvent.objects.all()

    @ranking_schema
    @action(detail=True, renderer_classes=EXPORT_RENDERERS, pagination_class=None)
    def ranking(self, request: Request, pk: str | None = None,
                format: str | None = None) -> Response:
        event = self.get_object()
        response = ExportResponse(ranking_export(event, request.user))
        if request.accepted_renderer.format in EXPORT_FORMATS:
            response["Content-Disposition"] = (
                f'inline; filename="robot-{event.pk}-ranking.{request.accepted_renderer.format}"')
        return response
