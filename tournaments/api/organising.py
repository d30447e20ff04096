"""An organiser's round steps through the API, each the service the admin's console calls
(with its permission rule, its checks and its errors):

- ``POST /tournaments/{id}/pair-next/``: pair the next round, a draft (repeated while it is
  a draft, the same draft);
- ``POST /tournaments/{id}/check-in/``: who is present for a round (the console's roster);
- ``POST /rounds/{id}/swap-teams/``, ``/swap-seats/``, ``/move-table/``: a draft's edits,
  the console's, with its checks and warnings;
- ``POST /rounds/{id}/publish/``, ``/fill-seats/``, ``/release-boards/``, ``/complete/``.

Each answers the round as it is then (a draft's edit with what it did and its warnings;
the roster with how many are checked in). They take an API key's ``organise`` scope (its
default for a write, ``api.keys``) and an ``Idempotency-Key``. Who is not an organiser of
the tournament gets a 403, a step the round's state refuses a 400 saying why; a draft
round is seen by its organisers only, so to anyone else it is a 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.models import CheckIn, Match, Round, Tournament

from . import schema
from .idempotency import idempotent
from .keys import KeyScopes
from .parsers import JSONParser
from .serializers import RoundDetailSerializer


class SwapTeamsBody(serializers.Serializer[Any]):
    team_1 = serializers.IntegerField(min_value=1, help_text="a team of the draft (its id)")
    team_2 = serializers.IntegerField(min_value=1, help_text="another team of the draft")


class SwapSeatsBody(serializers.Serializer[Any]):
    match = serializers.IntegerField(min_value=1, help_text="a match of the draft (its id)")
    side = serializers.ChoiceField([0, 1], help_text="0: team A (seats 0 and 2), 1: team B")


class MoveTableBody(serializers.Serializer[Any]):
    match = serializers.IntegerField(min_value=1, help_text="a match of the draft (its id)")
    table = serializers.IntegerField(min_value=1, max_value=32767,
                                     help_text="the table number it moves to")


class DraftEditAnswer(serializers.Serializer[Any]):
    description = serializers.CharField(help_text="what the edit did, as the round's note "
                                                  "says it")
    warnings = serializers.ListField(child=serializers.CharField(), help_text=(
        "pairs it brings together that met before or that the organiser asked to keep apart"))
    round = RoundDetailSerializer()


class CheckInBody(serializers.Serializer[Any]):
    round = serializers.IntegerField(min_value=1, max_value=32767, help_text="the round")
    present = serializers.ListField(child=serializers.IntegerField(min_value=1),
                                    max_length=10000, help_text=(
        "the players (ids) checked in; every other player of the tournament is absent"))


class CheckInAnswer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    present = serializers.IntegerField(help_text="how many are checked in")
    seats_changed = serializers.IntegerField(help_text=(
        "seats given to a bot at once, the round being paired already"))


check_in_schema = schema.organiser_step(
    "Who is present for a round (the check-in roster)",
    "The players in `present` are checked in for the round, every other player of the "
    "tournament is absent; a round already paired has its absent players' seats given to "
    "bots at once.", "how many are checked in", request=CheckInBody, answer=CheckInAnswer)
swap_teams_schema = schema.organiser_step(
    "Swap two teams in a draft", "The two teams exchange their places (table, side and "
    "seats). A bracket round's teams follow its bracket and cannot be swapped.",
    "what the edit did, its warnings and the round", request=SwapTeamsBody,
    answer=DraftEditAnswer)
swap_seats_schema = schema.organiser_step(
    "Swap a team's two seats in a draft", "The two players of one team of a match exchange "
    "their seats.", "what the edit did, its warnings and the round", request=SwapSeatsBody,
    answer=DraftEditAnswer)
move_table_schema = schema.organiser_step(
    "Move a draft's match to another table", "The match moves to the table number; the "
    "tables between shift by one.", "what the edit did, its warnings and the round",
    request=MoveTableBody, answer=DraftEditAnswer)


def _body(serializer: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    body = serializer(data=request.data)
    body.is_valid(raise_exception=True)
    data: dict[str, Any] = body.validated_data
    return data


def _edited(edit: services.DraftEdit, round: Round, context: Any) -> Response:
    answer = _answer(round, context)
    return Response({"description": edit.description, "warnings": edit.warnings,
                     "round": answer.data})


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

    @check_in_schema
    @action(detail=True, methods=["post"], url_path="check-in",
            permission_classes=[IsAuthenticated, KeyScopes], parser_classes=[JSONParser])
    @idempotent
    def check_in(self, request: Request, pk: str | None = None,
                 format: str | None = None) -> Response:
        tournament = self.get_object()
        body = _body(CheckInBody, request)
        changed = services.check_in_roster(tournament=tournament, number=body["round"],
                                           present=set(body["present"]), user=request.user)
        present = CheckIn.objects.filter(tournament=tournament,
                                         round_number=body["round"]).count()
        return Response({"round": body["round"], "present": present,
                         "seats_changed": changed})


class RoundOrganising:
    """The rounds view set's organiser steps."""

    if TYPE_CHECKING:
        def get_object(self) -> Round: ...
        def get_serializer_context(self) -> dict[str, Any]: ...

    def _stepped(self, request: Request) -> Round:
        """The round, unless the person plays in it while its boards are secret: then, as
        the console says, another organiser takes its steps (its refusals would count its
        finished tables)."""
        round = self.get_object()
        if selectors.boards_hidden_from(round, request.user):
            raise services.TournamentUserError(_(
                "you play in round %(number)d, whose boards are secret until every table has "
                "finished: another organiser runs its steps") % {"number": round.number})
        return round

    @swap_teams_schema
    @action(detail=True, methods=["post"], url_path="swap-teams",
            permission_classes=[IsAuthenticated, KeyScopes], parser_classes=[JSONParser])
    @idempotent
    def swap_teams(self, request: Request, pk: str | None = None,
                   format: str | None = None) -> Response:
        round, body = self._stepped(request), _body(SwapTeamsBody, request)
        edit = services.draft_swap_teams(round=round, team_1=body["team_1"],
                                         team_2=body["team_2"], user=request.user)
        return _edited(edit, round, self.get_serializer_context())

    @swap_seats_schema
    @action(detail=True, methods=["post"], url_path="swap-seats",
            permission_classes=[IsAuthenticated, KeyScopes], parser_classes=[JSONParser])
    @idempotent
    def swap_seats(self, request: Request, pk: str | None = None,
                   format: str | None = None) -> Response:
        round, body = self._stepped(request), _body(SwapSeatsBody, request)
        edit = services.draft_swap_seats(round=round, match_id=body["match"],
                                         side=body["side"], user=request.user)
        return _edited(edit, round, self.get_serializer_context())

    @move_table_schema
    @action(detail=True, methods=["post"], url_path="move-table",
            permission_classes=[IsAuthenticated, KeyScopes], parser_classes=[JSONParser])
    @idempotent
    def move_table(self, request: Request, pk: str | None = None,
                   format: str | None = None) -> Response:
        round, body = self._stepped(request), _body(MoveTableBody, request)
        edit = services.draft_move_table(round=round, match_id=body["match"],
                                         number=body["table"], user=request.user)
        return _edited(edit, round, self.get_serializer_context())

    @schema.publish
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def publish(self, request: Request, pk: str | None = None,
                format: str | None = None) -> Response:
        round = self._stepped(request)
        services.round_publish(round=round, user=request.user)
        return _answer(round, self.get_serializer_context())

    @schema.fill_seats
    @action(detail=True, methods=["post"], url_path="fill-seats",
            permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def fill_seats(self, request: Request, pk: str | None = None,
                   format: str | None = None) -> Response:
        round = self._stepped(request)
        services.round_fill_seats(round=round, user=request.user)
        return _answer(round, self.get_serializer_context())

    @schema.release_boards
    @action(detail=True, methods=["post"], url_path="release-boards",
            permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def release_boards(self, request: Request, pk: str | None = None,
                       format: str | None = None) -> Response:
        round = self._stepped(request)
        services.round_release_boards(round=round, user=request.user)
        return _answer(round, self.get_serializer_context())

    @schema.complete
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def complete(self, request: Request, pk: str | None = None,
                 format: str | None = None) -> Response:
        round = self._stepped(request)
        services.round_complete(round=round, user=request.user)
        return _answer(round, self.get_serializer_context())
