"""An online tournament's schedule through the API, through the services the admin's
tournament page and console call (``services.schedule``), with their permission rule and
checks:

- ``GET /tournaments/{id}/schedule/`` reads it as it stands, with the step handed to a
  worker and not yet taken (``under_way_since``), for its organisers;
- ``PUT /tournaments/{id}/schedule/`` sets the schedule (or changes it: the whole of it,
  what the body leaves out taking its default, as the admin's form does);
- ``POST /tournaments/{id}/schedule/pause/`` pauses or resumes it;
- ``POST /tournaments/{id}/schedule/move-round/`` gives a round still to come a time of its
  own;
- ``POST /tournaments/{id}/schedule/run-now/`` takes its next step now.

Each answers the schedule as it then stands (its next step and when; a write plans the
next step again, so its answer never has one under way). Every time carries
its offset (``2026-12-07T18:00+02:00`` or ``…Z``): a time without one is a 400 naming the
field, where the admin reads it in the schedule's zone, since a client's clock and the
server's may not share a zone. They take the ``organise`` scope and an ``Idempotency-Key``.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import services
from tournaments.models import Schedule, Tournament
from tournaments.selectors import tournament_schedule

from .idempotency import idempotent
from .keys import KeyScopes
from .parsers import JSONParser
from .setup import write_schema
from .submissions import DetailSerializer
from .text import Body

#: Round numbers a schedule names (the admin's form takes two digits).
MAX_ROUND = 99


class OffsetDateTime(serializers.DateTimeField):
    """An ISO 8601 time with its offset; one without is refused, not read in a zone the
    client may not mean."""

    def enforce_timezone(self, value: datetime) -> datetime:
        if timezone.is_naive(value):
            raise serializers.ValidationError(_(
                "give the time with its offset, e.g. 2026-12-07T18:00+02:00 or "
                "2026-12-07T16:00Z"))
        return super().enforce_timezone(value)


def _round_numbers(times: dict[str, Any]) -> None:
    for number in times:
        if not (number.isdigit() and 1 <= int(number) <= MAX_ROUND):
            raise serializers.ValidationError(_(
                "%(key)s: a round number, 1 to %(max)d") % {"key": number[:20], "max": MAX_ROUND})


class ScheduleBody(Body[Schedule]):
    """The admin form's fields; every time with its offset (stored in UTC, shown in
    ``time_zone``)."""

    starts_at = OffsetDateTime(help_text="when round 1 starts (is paired and published)")
    round_times = serializers.DictField(
        child=OffsetDateTime(), required=False, validators=[_round_numbers],
        help_text="rounds with a start of their own: the round's number to its time, e.g. "
                  '{"2": "2026-12-07T19:30+02:00"}; the others follow the minutes between '
                  "rounds")

    class Meta:
        model = Schedule
        fields = ["time_zone", "starts_at", "round_times", "interval_minutes",
                  "check_in_opens_minutes", "check_in_closes_minutes", "round_minutes",
                  "at_deadline", "paused"]


class ScheduleSerializer(serializers.ModelSerializer[Schedule]):
    """A schedule as set, and where it stands: its next step, the round it is for and when
    it is due (null: paused, or waiting for a time or for the organiser), and since when a
    worker has it (null: nobody)."""

    under_way_since = serializers.DateTimeField(
        read_only=True, allow_null=True,
        help_text="when a tick handed the next step to a worker, which has not taken it yet "
                  "(null: nobody has it); a step not taken within two minutes is handed out "
                  "again")

    class Meta:
        model = Schedule
        fields = [*ScheduleBody.Meta.fields, "next_step", "next_round", "next_step_at",
                  "last_error", "under_way_since"]


class PauseBody(serializers.Serializer[Any]):
    paused = serializers.BooleanField(help_text="true: pause it; false: resume it")


class MoveRoundBody(serializers.Serializer[Any]):
    number = serializers.IntegerField(min_value=1, max_value=MAX_ROUND,
                                      help_text="a round not started yet")
    at = OffsetDateTime(help_text="its new start, with its offset")


class RunNowAnswer(serializers.Serializer[Any]):
    done = serializers.CharField(help_text="the step taken, in words")
    schedule = ScheduleSerializer()


def _valid(serializer: serializers.Serializer[Any]) -> dict[str, Any]:
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


def _set(schedule: Schedule, values: dict[str, Any]) -> Schedule:
    """Set every field of the body on ``schedule``: what ``values`` leaves out takes its
    default (a PUT is the whole schedule); the scheduler's own fields stay."""
    defaults = Schedule()
    for name in ScheduleBody.Meta.fields:
        setattr(schedule, name, values.get(name, getattr(defaults, name)))
    schedule.round_times = {number: at.isoformat()
                            for number, at in schedule.round_times.items()}
    return schedule


class TournamentScheduling:
    """The tournaments view set's schedule: set it, pause it, move a round, run a step."""

    if TYPE_CHECKING:  # what it uses of the view set it is mixed into
        def get_object(self) -> Tournament: ...

    @write_schema(
        "Set or change an online tournament's schedule",
        "The whole schedule: what the body leaves out takes its default. Its next step is "
        "planned at once.", "the schedule and its next step", request=ScheduleBody,
        answer=ScheduleSerializer, code=200)
    @action(detail=True, methods=["put"], parser_classes=[JSONParser],
            permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def schedule(self, request: Request, pk: str | None = None,
                 format: str | None = None) -> Response:
        tournament = self.get_object()
        values = _valid(ScheduleBody(data=request.data))
        schedule = tournament_schedule(tournament) or Schedule(tournament=tournament)
        saved = services.schedule_save(schedule=_set(schedule, values), user=request.user)
        return Response(ScheduleSerializer(saved).data)

    @extend_schema(
        summary="An online tournament's schedule (its organisers only)",
        description="The schedule as set and where it stands: its next step, when it is "
                    "due, the last step that failed, and whether a worker has the next step "
                    "in hand (`under_way_since`). Reading takes the read scope.",
        request=None,
        responses={200: ScheduleSerializer,
                   401: OpenApiResponse(DetailSerializer, description="not authenticated"),
                   403: OpenApiResponse(DetailSerializer, description="not an organiser of "
                                        "the tournament, or a key without the read scope"),
                   404: OpenApiResponse(DetailSerializer, description="no such tournament, "
                                        "or it has no schedule")})
    @schedule.mapping.get
    def schedule_read(self, request: Request, pk: str | None = None,
                      format: str | None = None) -> Response:
        tournament = self.get_object()
        services.require_organiser(request.user, tournament)
        schedule = tournament_schedule(tournament)
        if schedule is None:
            raise NotFound(_("%(tournament)s has no schedule") % {"tournament": tournament})
        return Response(ScheduleSerializer(schedule).data)

    @write_schema(
        "Pause or resume a tournament's schedule",
        "Paused, nothing runs by itself (rounds being played go on); resumed, what fell due "
        "meanwhile is taken at the next tick.", "the schedule", request=PauseBody,
        answer=ScheduleSerializer, code=200)
    @action(detail=True, methods=["post"], url_path="schedule/pause",
            parser_classes=[JSONParser], permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def schedule_pause(self, request: Request, pk: str | None = None,
                       format: str | None = None) -> Response:
        tournament = self.get_object()
        body = _valid(PauseBody(data=request.data))
        schedule = services.schedule_pause(tournament=tournament, paused=body["paused"],
                                           user=request.user)
        return Response(ScheduleSerializer(schedule).data)

    @write_schema(
        "Give a round still to come a start of its own",
        "Its check-in window moves with it.", "the schedule", request=MoveRoundBody,
        answer=ScheduleSerializer, code=200)
    @action(detail=True, methods=["post"], url_path="schedule/move-round",
            parser_classes=[JSONParser], permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def schedule_move_round(self, request: Request, pk: str | None = None,
                            format: str | None = None) -> Response:
        tournament = self.get_object()
        body = _valid(MoveRoundBody(data=request.data))
        schedule = services.schedule_move_round(tournament=tournament, number=body["number"],
                                                at=body["at"], user=request.user)
        return Response(ScheduleSerializer(schedule).data)

    @write_schema(
        "Take the schedule's next step now",
        "Whatever its time; a step that cannot be taken (a round with tables still played) "
        "is refused with its reason, changing nothing.", "what was done, and the schedule",
        request=None, answer=RunNowAnswer, code=200)
    @action(detail=True, methods=["post"], url_path="schedule/run-now",
            permission_classes=[IsAuthenticated, KeyScopes])
    @idempotent
    def schedule_run_now(self, request: Request, pk: str | None = None,
                         format: str | None = None) -> Response:
        tournament = self.get_object()
        done = services.schedule_run_now(tournament=tournament, user=request.user)
        schedule = tournament_schedule(tournament)
        return Response({"done": done, "schedule": ScheduleSerializer(schedule).data})
