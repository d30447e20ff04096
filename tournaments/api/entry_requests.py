"""The requests of players entering by themselves, as a tournament's organisers answer them
through the API, through the services the admin's actions call (``services.entries``):

- ``GET /tournaments/{id}/entry-requests/``: the tournament's requests, for its organisers
  only (a request names who asked and the partner's handle as typed);
- ``POST /entry-requests/{id}/approve/``: a team awaiting approval gets a place (or waits,
  the tournament full with a waiting list);
- ``POST /entry-requests/{id}/refuse/``: a team awaiting approval or waiting is refused.

Each step tells the team's players, as the admin's does; it takes the ``organise`` scope and
an ``Idempotency-Key``; a request in another state is a 400 saying which it is in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import services
from tournaments.models import EntryRequest, Tournament
from tournaments.selectors.entries import organised_entry_requests

from .idempotency import idempotent
from .keys import KeyScopes
from .setup import write_schema
from .submissions import DetailSerializer


class EntryRequestSerializer(serializers.ModelSerializer[EntryRequest]):
    tournament = serializers.IntegerField(source="tournament_id")
    asker = serializers.IntegerField(source="asker_id", help_text="the player who asked (id)")
    asker_name = serializers.CharField(source="asker.name")
    partner = serializers.IntegerField(source="partner_id", allow_null=True,
                                       help_text="the partner (id), once they accepted")
    team = serializers.IntegerField(source="team_id", allow_null=True,
                                    help_text="their team (id), once the partner accepted")
    team_name = serializers.CharField(source="team.name", allow_null=True, default=None)

    class Meta:
        model = EntryRequest
        fields = ["id", "tournament", "asker", "asker_name", "partner_handle", "partner",
                  "team", "team_name", "state", "number", "created", "answered"]


class TournamentEntryRequests:
    """The tournaments view set's list of entry requests."""

    if TYPE_CHECKING:  # what it uses of the view set it is mixed into
        def get_object(self) -> Tournament: ...

    @extend_schema(
        summary="A tournament's entry requests (its organisers only)",
        description="Every request to enter the tournament with a partner, in the order of "
                    "arrival: its state says whether it awaits approval, waits for a place, "
                    "was entered, refused or withdrawn.",
        responses={200: EntryRequestSerializer(many=True),
                   401: OpenApiResponse(DetailSerializer, description="not authenticated"),
                   403: OpenApiResponse(DetailSerializer, description="not an organiser of "
                                        "the tournament"),
                   404: OpenApiResponse(DetailSerializer, description="no such tournament")})
    # No filter_backends: the view set's tournament filters (status, game_format) are not
    # this list's, and the schema would offer them as its query parameters.
    @action(detail=True, methods=["get"], url_path="entry-requests", pagination_class=None,
            filter_backends=[], permission_classes=[IsAuthenticated, KeyScopes])
    def entry_requests(self, request: Request, pk: str | None = None,
                       format: str | None = None) -> Response:
        tournament = self.get_object()
        requests = organised_entry_requests(tournament, request.user)
        if requests is None:
            raise PermissionDenied(_("only the organisers of %(tournament)s may see its entry "
                                     "requests") % {"tournament": tournament})
        return Response(EntryRequestSerializer(requests, many=True).data)


class EntryRequestViewSet(viewsets.GenericViewSet[EntryRequest]):
    """An organiser's answers to entry requests: approve or refuse."""

    queryset = EntryRequest.objects.select_related("tournament", "asker", "partner", "team")
    serializer_class = EntryRequestSerializer
    permission_classes = [IsAuthenticated, KeyScopes]

    def _answer(self, entry_request: EntryRequest) -> Response:
        fresh = self.get_queryset().get(pk=entry_request.pk)
        return Response(EntryRequestSerializer(fresh).data)

    @write_schema(
        "Approve a team awaiting approval",
        "It gets a place, or waits for one where the tournament is full and has a waiting "
        "list (refused, changing nothing, where it has none); its players are told.",
        "the request, its state now", request=None, answer=EntryRequestSerializer, code=200)
    @action(detail=True, methods=["post"])
    @idempotent
    def approve(self, request: Request, pk: str | None = None,
                format: str | None = None) -> Response:
        done = services.entry_approve(request=self.get_object(), user=request.user)
        return self._answer(done)

    @write_schema(
        "Refuse a team awaiting approval or waiting for a place",
        "Its players are told. An entered team is withdrawn in its tournament's entries "
        "instead.", "the request, refused", request=None, answer=EntryRequestSerializer,
        code=200)
    @action(detail=True, methods=["post"])
    @idempotent
    def refuse(self, request: Request, pk: str | None = None,
               format: str | None = None) -> Response:
        done = services.entry_refuse(request=self.get_object(), user=request.user)
        return self._answer(done)

