"""``POST /matches/{id}/result/``, ``DELETE /matches/{id}/result/`` (an organiser withdraws
it), ``POST /matches/{id}/result/confirm/`` and ``POST /matches/{id}/correct-result/`` (an
organiser settles it with the right score sheet): a thin edge in front of the result
services.

Who may submit is checked first (403), then whether the match already has a result (409),
then the body's shape (400 naming the field), then the services verify and store it (400
naming the hand, action and rule when the game could not have happened). Nothing is stored
on any error: the services check before they write, in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from config.users import RequestUser
from tournaments import services
from tournaments.models import ApiKey, Match, Result

from . import schema
from .idempotency import idempotent
from .keys import KeyScopes
from .parsers import JSONParser
from .serializers import MatchDetailSerializer
from .submissions import CorrectionSerializer, ResultSubmissionSerializer


def _has_result(match: Match) -> bool:
    return Result.objects.filter(match=match).exists()


def _submit(match: Match, body: dict[str, Any], user: RequestUser) -> Result:
    if "record" in body:
        return services.match_submit_record(match=match, record=body["record"], user=user)
    sheet = body["score_sheet"]
    return services.match_submit_score_sheet(match=match, hand_scores=sheet["hand_scores"],
                                             out_seats=sheet["out_seats"], user=user)


class ResultSubmissionMixin:
    """Adds the ``result`` action to the matches view set."""

    #: the scope an API key needs to write here (``api.keys.KeyScopes``); each action
    #: names its own
    required_scope: str = ApiKey.Scope.ORGANISE

    if TYPE_CHECKING:  # what it uses of the view set it is mixed into
        def get_object(self) -> Match: ...
        def get_queryset(self) -> QuerySet[Match]: ...
        def get_serializer_context(self) -> Mapping[str, Any]: ...

    @schema.submit_result
    @action(detail=True, methods=["post"], url_path="result",
            permission_classes=[IsAuthenticated, KeyScopes], parser_classes=[JSONParser],
            required_scope=ApiKey.Scope.RESULTS)
    @idempotent
    def submit_result(self, request: Request, pk: str | None = None,
                      format: str | None = None) -> Response:
        match = self.get_object()
        services.require_submitter(request.user, match)
        if _has_result(match):
            raise services.ResultExists(_("%(match)s already has a result") % {"match": match})
        body = ResultSubmissionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        _submit(match, body.validated_data, request.user)  # refusals: api.errors answers them
        fresh = self.get_queryset().get(pk=match.pk)
        data = MatchDetailSerializer(fresh, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_201_CREATED)

    @schema.withdraw_result
    @submit_result.mapping.delete
    @idempotent
    def withdraw_result(self, request: Request, pk: str | None = None,
                        format: str | None = None) -> Response:
        """An organiser takes a result back; the match waits for one again."""
        match = self.get_object()
        result = services.result_to_answer(request.user, match)
        if result is None:
            raise NotFound(_("%(match)s has no result to withdraw") % {"match": match})
        services.result_withdraw(result=result, user=request.user)
        fresh = self.get_queryset().get(pk=match.pk)
        return Response(MatchDetailSerializer(fresh, context=self.get_serializer_context()).data)

    @schema.confirm_result
    @action(detail=True, methods=["post"], url_path="result/confirm",
            permission_classes=[IsAuthenticated, KeyScopes], required_scope=ApiKey.Scope.RESULTS)
    @idempotent
    def confirm_result(self, request: Request, pk: str | None = None,
                       format: str | None = None) -> Response:
        """A player of the other team (or an organiser) confirms a result that waits."""
        match = self.get_object()
        result = services.result_to_answer(request.user, match)
        if result is None:
            raise NotFound(_("%(match)s has no result to confirm") % {"match": match})
        services.result_confirm(result=result, user=request.user)
        fresh = self.get_queryset().get(pk=match.pk)
        data = MatchDetailSerializer(fresh, context=self.get_serializer_context()).data
        return Response(data)

    @schema.correct_result
    @action(detail=True, methods=["post"], url_path="correct-result",
            permission_classes=[IsAuthenticated, KeyScopes], parser_classes=[JSONParser],
            required_scope=ApiKey.Scope.RESULTS)
    @idempotent
    def correct_result(self, request: Request, pk: str | None = None,
                       format: str | None = None) -> Response:
        """An organiser settles a result (a disputed one, say) with the right sheet."""
        match = self.get_object()
        result = services.result_to_answer(request.user, match)
        if result is None:
            raise NotFound(_("%(match)s has no result to correct") % {"match": match})
        body = CorrectionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        sheet = body.validated_data["score_sheet"]
        services.result_correct(result=result, hand_scores=sheet["hand_scores"],
                                out_seats=sheet["out_seats"], user=request.user)
        fresh = self.get_queryset().get(pk=match.pk)
        return Response(MatchDetailSerializer(fresh, context=self.get_serializer_context()).data)
