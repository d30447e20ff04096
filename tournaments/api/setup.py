"""An organiser sets a tournament up through the API, through the services the admin's pages
call (``services.tournaments``, ``services.register``), with their permission rule and
errors:

- ``POST /tournaments/`` creates a tournament (its creator organises it) and
  ``PATCH /tournaments/{id}/`` changes its settings;
- ``POST /players/`` and ``POST /teams/`` register a player and a team of two;
- ``POST /tournaments/{id}/entries/`` enters a team with its seed, and
  ``DELETE /tournaments/{id}/entries/{team}/`` withdraws it.

Each takes an API key's ``organise`` scope and an ``Idempotency-Key``. A malformed body is
a 400 with one list of messages a field; a value the model refuses (a name taken, an end
before the start) a 400 whose ``fields`` name where; a setting the tournament's format does
not read a 400 naming it, so a client is never left believing a setting took.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import services
from tournaments.models import Entry, Player, Team, Tournament
from tournaments.standings import TIEBREAKS

from .idempotency import idempotent
from .parsers import JSONParser
from .people import PlayerSerializer, TeamSerializer
from .schema import ERROR, IDEMPOTENCY_KEY, IDEMPOTENCY_REFUSED
from .serializers import EntrySerializer, TournamentDetailSerializer
from .submissions import DetailSerializer
from .text import Body, SentText

F = TypeVar("F", bound=Callable[..., Any])  # a view function, its type kept


class TournamentBody(Body[Tournament]):
    """A tournament's settings as an organiser gives them: the model's fields and choices;
    the checks across fields are the service's (the model's ``clean``)."""

    points_win = serializers.DecimalField(max_digits=4, decimal_places=1, required=False,
                                          coerce_to_string=False)
    points_draw = serializers.DecimalField(max_digits=4, decimal_places=1, required=False,
                                           coerce_to_string=False)
    points_loss = serializers.DecimalField(max_digits=4, decimal_places=1, required=False,
                                           coerce_to_string=False)
    points_bye = serializers.DecimalField(max_digits=4, decimal_places=1, required=False,
                                          coerce_to_string=False)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(TIEBREAKS)), required=False,
        max_length=len(TIEBREAKS), help_text="tie-break keys, in the order applied")

    class Meta:
        model = Tournament
        fields = list(services.SETTINGS)
        validators: list[Any] = []  # the name's uniqueness is the model's check, by name


class PlayerBody(serializers.Serializer[Any]):
    name = SentText(max_length=100)
    handle = SentText(max_length=40, required=False, default="", allow_blank=True,
                     help_text="unique: letters, digits, - and _ (omitted: made "
                               "from the name)")


class TeamBody(serializers.Serializer[Any]):
    name = SentText(max_length=100, help_text="unique")
    player_a = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(),
                                                  help_text="a player (id): seat 0 or 1")
    player_b = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(),
                                                  help_text="another player (id): seat 2 or 3")


class EntryBody(serializers.Serializer[Any]):
    team = serializers.PrimaryKeyRelatedField(queryset=Team.objects.all(),
                                              help_text="a team of the register (id)")
    seed = serializers.IntegerField(min_value=1, max_value=2_147_483_647, required=False,
                                    allow_null=True, default=None,
                                    help_text="1 the best (omitted or null: unseeded)")


def _valid(serializer: serializers.Serializer[Any]) -> dict[str, Any]:
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


def write_schema(summary: str, description: str, done: str, *, request: Any, answer: Any,
                 code: int = 201, who: str = "the tournament's organisers",
                 parameters: tuple[OpenApiParameter, ...] = ()) -> Callable[[F], F]:
    """The schema of a setup write: its body, its answer and its refusals."""
    return extend_schema(
        summary=summary, description=description + (
            f" For {who} (token, API key with the organise scope, or session "
            "authentication); the same service, checks and errors as the admin's pages."),
        request=request, parameters=[IDEMPOTENCY_KEY, *parameters],
        responses={
            code: OpenApiResponse(answer, description=done),
            400: OpenApiResponse({"anyOf": [ERROR]}, description=(
                "a malformed body (one list of messages a field), values refused "
                "(`detail` says why, `fields` lists the messages by field), or a malformed "
                "Idempotency-Key")),
            401: OpenApiResponse(DetailSerializer, description="not authenticated"),
            403: OpenApiResponse(DetailSerializer, description=(
                f"not one of {who}, or a key without the organise scope")),
            404: OpenApiResponse(DetailSerializer, description="no such object"),
            422: IDEMPOTENCY_REFUSED,
        })


TEAM = OpenApiParameter("team", int, OpenApiParameter.PATH, description="the team (its id)")


class TournamentSetup:
    """The tournaments view set's writes: create, change, enter and withdraw teams."""

    # JSON only: in a form's body an unticked box is False, so a setting the body leaves out
    # (one the format does not read, say) would be sent all the same
    parser_classes: Sequence[type[BaseParser]] = [JSONParser]

    if TYPE_CHECKING:  # what it uses of the view set it is mixed into
        def get_object(self) -> Tournament: ...
        def get_serializer_context(self) -> dict[str, Any]: ...

    def _answer(self, tournament: Tournament, code: int = status.HTTP_200_OK) -> Response:
        return Response(TournamentDetailSerializer(
            tournament, context=self.get_serializer_context()).data, status=code)

    @write_schema(
        "Create a tournament",
        "A new tournament with the settings given (every other has its default); a setting "
        "its format does not read is refused. Whoever creates it organises it.",
        "the tournament", request=TournamentBody, answer=TournamentDetailSerializer,
        who="organisers (staff accounts)")
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        values = _valid(TournamentBody(data=request.data))
        tournament = services.tournament_create(values=values, user=request.user)
        return self._answer(tournament, status.HTTP_201_CREATED)

    @write_schema(
        "Change a tournament's settings",
        "The settings given change, the others stay; the same checks as on creation. More "
        "places give the free ones to the waiting list; a changed bot-share limit "
        "recalculates the standings and ratings.",
        "the tournament", request=TournamentBody, answer=TournamentDetailSerializer, code=200)
    @idempotent
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.get_object()
        values = _valid(TournamentBody(data=request.data, partial=True))
        saved = services.tournament_change(tournament=tournament, values=values,
                                           user=request.user)
        return self._answer(saved.tournament)

    @write_schema(
        "Enter a team, with its seed",
        "The team enters the tournament, before its first round is paired.",
        "the entry", request=EntryBody, answer=EntrySerializer)
    @action(detail=True, methods=["post"], url_path="entries")
    @idempotent
    def enter(self, request: Request, pk: str | None = None,
              format: str | None = None) -> Response:
        tournament = self.get_object()
        body = _valid(EntryBody(data=request.data))
        entry = services.entry_add(tournament=tournament, team=body["team"],
                                   seed=body["seed"], user=request.user)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @write_schema(
        "Withdraw a team",
        "Before the first round the entry goes (and the first team waiting takes the "
        "place); after, it stays, marked withdrawn, and no later round pairs the team.",
        "the tournament's entries, as they are now", request=None,
        answer=EntrySerializer(many=True), code=200, parameters=(TEAM,))
    @action(detail=True, methods=["delete"], url_path=r"entries/(?P<team>[0-9]+)",
            pagination_class=None)
    @idempotent
    def withdraw(self, request: Request, pk: str | None = None, team: str | None = None,
                 format: str | None = None) -> Response:
        tournament = self.get_object()
        services.entry_remove(tournament=tournament, team=get_object_or_404(Team, pk=team),
                              user=request.user)
        entries = Entry.objects.filter(tournament=tournament).select_related("team")
        return Response(EntrySerializer(entries, many=True).data)


class PlayerSetup:
    """The players view set's write: register a player."""

    parser_classes: Sequence[type[BaseParser]] = [JSONParser]

    @write_schema("Register a player", "A new player of the shared register.",
                  "the player", request=PlayerBody, answer=PlayerSerializer,
                  who="organisers (staff accounts)")
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = _valid(PlayerBody(data=request.data))
        player = services.player_register(name=body["name"], handle=body["handle"],
                                          user=request.user)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class TeamSetup:
    """The teams view set's write: register a team of two players."""

    parser_classes: Sequence[type[BaseParser]] = [JSONParser]

    @write_schema("Register a team of two players", "A new team of the shared register.",
                  "the team", request=TeamBody, answer=TeamSerializer,
                  who="organisers (staff accounts)")
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = _valid(TeamBody(data=request.data))
        team = services.team_register(name=body["name"], player_a=body["player_a"],
                                      player_b=body["player_b"], user=request.user)
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)
