"""An organiser's round steps through the API, each the service the admin's console calls
(with its permission rule, its checks and its errors):

- ``POST /tournaments/{id}/pair-next/``: pair the next round, a draft (repeated while it is
  a draft, the same draft);
- ``POST /rounds/{id}/publish/``, ``/fill-seats/``, ``/release-boards/``, ``/complete/``.

Each answers the round as it is then. They take an API key's ``organise`` scope (its
default for a write, ``api.keys``) and an ``Idempotency-Key``. Who is not an organiser of
the tournament gets a 403, a step the round's state refuses a 400 saying why; a draft
round is seen by its organisers only, so to anyone else it is a 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import services
from tournaments.models import Match, Round, Tournament

from . import schema
from .idempotency import idempotent
from .keys import KeyScopes
from .serializers import RoundDetailSerializer


def _answer(round: Round, context: Any, code: int = status.HTTP_200_OK) -> Response:
    matches = Match.objects.select_related("round", "table", "team_a", "team_b", "result")
    fresh = Round.objects.prefetch_related(Prefetch("matches", matches)).get(pk=round.pk)
    return Response(RoundDetailSerializer(fresh, context=context).data, status=code)


class TournamentOrganising:
    """The tournaments view set's organiser steps."""

    if TYPE_CHECKING:  # what it uses of the view set it is mixed into
        def get_object(self) -> Tournament: ...
        def get_serializer_context(self) -> dict[str, Any]: ...

    @schema.pair_next
    @action(detail=True, methods=["post"], url_path="pair-next",
            permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def pair_next(self, request: Request, pk: str | None = None,
                  format: str | None = None) -> Response:
        round = services.round_pair_next(tournament=self.get_object(), user=request.user)
        return _answer(round, self.get_serializer_context(), status.HTTP_201_CREATED)


class RoundOrganising:
    """The rounds view set's organiser steps."""

    if TYPE_CHECKING:
        def get_object(self) -> Round: ...
        def get_serializer_context(self) -> dict[str, Any]: ...

    @schema.publish
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def publish(self, request: Request, pk: str | None = None,
                format: str | None = None) -> Response:
        round = self.get_object()
        services.round_publish(round=round, user=request.user)
        return _answer(round, self.get_serializer_context())

    @schema.fill_seats
    @action(detail=True, methods=["post"], url_path="fill-seats",
            permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def fill_seats(self, request: Request, pk: str | None = None,
                   format: str | None = None) -> Response:
        round = self.get_object()
        services.round_fill_seats(round=round, user=request.user)
        return _answer(round, self.get_serializer_context())

    @schema.release_boards
    @action(detail=True, methods=["post"], url_path="release-boards",
            permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def release_boards(self, request: Request, pk: str | None = None,
                       format: str | None = None) -> Response:
        round = self.get_object()
        services.round_release_boards(round=round, user=request.user)
        return _answer(round, self.get_serializer_context())

    @schema.complete
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def complete(self, request: Request, pk: str | None = None,
                 format: str | None = None) -> Response:
        round = self.get_object()
        services.round_complete(round=round, user=request.user)
        return _answer(round, self.get_serializer_context())
