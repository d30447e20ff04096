"""The API's endpoints: thin read views over the selectors, and result submission, the
organisers' setup (tournaments, players, teams, entries) and round steps through the
services. Anonymous users read public data; organisers
also see their draft rounds."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Model, Prefetch, QuerySet
from django.utils.translation import gettext as _
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from tournaments import selectors
from tournaments.models import (
    Entry,
    Match,
    Player,
    RatingEntry,
    Round,
    Seat,
    Team,
    Tournament,
)
from tournaments.params import SMALLINT_MAX, choices, positive_int

from . import filters, people, schema, serializers
from .boards import boards_export
from .entry_requests import TournamentEntryRequests
from .files import PlainTextRenderer, ResultsXMLRenderer
from .organising import RoundOrganising, TournamentOrganising
from .renderers import CSVRenderer, NDJSONRenderer
from .results import ResultSubmissionMixin
from .scheduling import TournamentScheduling
from .setup import PlayerSetup, TeamSetup, TournamentSetup
from .standings import standings_export

EXPORT_RENDERERS = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer, NDJSONRenderer]
EXPORT_FORMATS = {CSVRenderer.format, NDJSONRenderer.format, ResultsXMLRenderer.format,
                  PlainTextRenderer.format}


_M = TypeVar("_M", bound=Model)
_Row = TypeVar("_Row")


class ReadOnlyViewSet(viewsets.ReadOnlyModelViewSet[_M]):
    """List and detail by id (any other path segment is a JSON 404, not an HTML page);
    the filters apply to the list only."""

    list_serializer_class: type[BaseSerializer[_M]]
    detail_serializer_class: type[BaseSerializer[_M]]

    def get_serializer_class(self) -> type[BaseSerializer[_M]]:
        return self.list_serializer_class if self.action == "list" else \
            self.detail_serializer_class

    def filter_queryset(self, queryset: QuerySet[_M, _Row]) -> QuerySet[_M, _Row]:
        return super().filter_queryset(queryset) if self.action == "list" else queryset


class ExportResponse(Response):
    """An export's answer, offered as the file ``filename`` when one is given. As NDJSON an
    export without rows is an empty document, which keeps its content type (DRF drops the
    header from an empty body)."""

    def __init__(self, data: Any, filename: str | None = None) -> None:
        super().__init__(data)
        if filename is not None:
            self["Content-Disposition"] = f'inline; filename="{filename}"'

    @property
    def rendered_content(self) -> Any:
        content = super().rendered_content
        if not content and getattr(self, "accepted_renderer", None) is not None:
            self["Content-Type"] = (f"{self.accepted_media_type}; "
                                    f"charset={self.accepted_renderer.charset}")
        return content


class Exports(viewsets.GenericViewSet[_M]):
    """A viewset with exports (CSV, NDJSON): an error is answered in JSON even to a CSV or
    NDJSON request, since it has no rows."""

    def finalize_response(self, request: Request, response: Any, *args: Any,
                          **kwargs: Any) -> Any:
        # An error is answered in JSON even to a CSV or NDJSON request: it has no rows.
        renderer = getattr(request, "accepted_renderer", None)
        if getattr(response, "exception", False) and renderer is not None \
                and renderer.format in EXPORT_FORMATS:
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


@schema.tournaments
class TournamentViewSet(TournamentSetup, TournamentOrganising, TournamentScheduling,
                        TournamentEntryRequests, Exports[Tournament],
                        ReadOnlyViewSet[Tournament]):
    """Tournaments, with their settings, entered teams and rounds; their standings."""

    filterset_class = filters.TournamentFilter
    list_serializer_class = serializers.TournamentSerializer
    detail_serializer_class = serializers.TournamentDetailSerializer

    def get_queryset(self) -> QuerySet[Tournament]:
        if self.action == "retrieve":
            return Tournament.objects.prefetch_related(
                Prefetch("entries", Entry.objects.select_related("team")))
        return Tournament.objects.all()

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(),
                "visible_rounds": selectors.visible_rounds(self.request.user)}

    @schema.standings
    @action(detail=True, renderer_classes=EXPORT_RENDERERS, pagination_class=None)
    def standings(self, request: Request, pk: str | None = None,
                  format: str | None = None) -> Response:
        tournament = self.get_object()
        number = positive_int(request.query_params, "round", maximum=SMALLINT_MAX)
        response = ExportResponse(standings_export(tournament, number))
        if request.accepted_renderer.format in EXPORT_FORMATS:
            after = f"-round-{number}" if number else ""
            response["Content-Disposition"] = (
                f'inline; filename="tournament-{tournament.pk}-standings{after}.'
                f'{request.accepted_renderer.format}"')
        return response

    @schema.boards
    @action(detail=True, renderer_classes=EXPORT_RENDERERS, pagination_class=None)
    def boards(self, request: Request, pk: str | None = None,
               format: str | None = None) -> Response:
        tournament = self.get_object()
        response = ExportResponse(boards_export(tournament, request.user))
        if request.accepted_renderer.format in EXPORT_FORMATS:
            response["Content-Disposition"] = (
                f'inline; filename="tournament-{tournament.pk}-boards.'
                f'{request.accepted_renderer.format}"')
        return response

    @schema.results_file
    @action(detail=True, url_path="results-file", pagination_class=None,
            renderer_classes=[JSONRenderer, ResultsXMLRenderer])
    def results_file(self, request: Request, pk: str | None = None,
                     format: str | None = None) -> Response:
        tournament = self.get_object()
        return ExportResponse(selectors.results_file(tournament, request.user), filename=(
            f"tournament-{tournament.pk}-results.{request.accepted_renderer.format}"))

    @schema.trf
    @action(detail=True, pagination_class=None, renderer_classes=[PlainTextRenderer])
    def trf(self, request: Request, pk: str | None = None,
            format: str | None = None) -> Response:
        tournament = self.get_object()
        return ExportResponse(selectors.trf_report_of(tournament, request.user),
                              filename=f"tournament-{tournament.pk}.trf")


@schema.rounds
class RoundViewSet(RoundOrganising, Exports[Round], ReadOnlyViewSet[Round]):
    """Rounds: published and complete ones for everyone, drafts for their organisers."""

    filterset_class = filters.RoundFilter
    list_serializer_class = serializers.RoundSerializer
    detail_serializer_class = serializers.RoundDetailSerializer

    def get_queryset(self) -> QuerySet[Round]:
        rounds = selectors.visible_rounds(self.request.user)
        if self.action == "retrieve":
            matches = Match.objects.select_related("round", "table", "team_a", "team_b",
                                                   "result")
            rounds = rounds.prefetch_related(Prefetch("matches", matches))
        return rounds

    @schema.deal_file
    @action(detail=True, url_path="deal-file", pagination_class=None,
            renderer_classes=[PlainTextRenderer])
    def deal_file(self, request: Request, pk: str | None = None,
                  format: str | None = None) -> Response:
        round = self.get_object()
        return ExportResponse(
            selectors.round_deal_file(round, request.user),
            filename=f"tournament-{round.tournament_id}-round-{round.number}-deals.txt")


@schema.matches
class MatchViewSet(ResultSubmissionMixin, ReadOnlyViewSet[Match]):
    """Matches of the rounds you may see; a match's seats, hands and stored game record."""

    filterset_class = filters.MatchFilter
    list_serializer_class = serializers.MatchSerializer
    detail_serializer_class = serializers.MatchDetailSerializer

    def get_queryset(self) -> QuerySet[Match]:
        matches = selectors.visible_matches(self.request.user)
        if self.action != "list":
            matches = matches.select_related(
                "team_a__player_a", "team_a__player_b", "team_b__player_a",
                "team_b__player_b").prefetch_related(
                Prefetch("seats", Seat.objects.select_related("player")))
        return matches

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        if self.action == "retrieve":
            context["include_record"] = "record" in choices(self.request.query_params,
                                                            "include", {"record"})
        return context

    @schema.record
    @action(detail=True, pagination_class=None)
    def record(self, request: Request, pk: str | None = None,
               format: str | None = None) -> Response:
        match = self.get_object()
        result = selectors.visible_result(match, request.user)
        if result is None or result.record is None:
            raise NotFound(_("match %(match)d has no stored game record (its result, if "
                             "any, is a score sheet)") % {"match": match.pk})
        return Response(result.record)


@schema.teams
class TeamViewSet(TeamSetup, ReadOnlyViewSet[Team]):
    """Teams of two players, and the tournaments they entered."""

    filterset_class = filters.TeamFilter
    list_serializer_class = people.TeamSerializer
    detail_serializer_class = people.TeamDetailSerializer

    def get_queryset(self) -> QuerySet[Team]:
        teams = selectors.teams()
        if self.action == "retrieve":
            teams = teams.prefetch_related(
                Prefetch("entries", Entry.objects.select_related("tournament")))
        return teams


@schema.players
class PlayerViewSet(PlayerSetup, ReadOnlyViewSet[Player]):
    """Players with their current rating; a player's rating history."""

    filterset_class = filters.PlayerFilter
    list_serializer_class = people.PlayerSerializer
    detail_serializer_class = people.PlayerDetailSerializer

    def get_queryset(self) -> QuerySet[Player]:
        players = selectors.players()
        if self.action == "retrieve":
            players = players.prefetch_related(Prefetch(
                "rating_history", RatingEntry.objects.select_related("match__round")))
        return players
