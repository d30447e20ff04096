"""An organiser's webhook subscriptions through the API (``/api/v1/webhooks/``): list,
make, read and delete their own, each through ``services.webhooks`` (the admin's rules and
errors). The subscription's secret, which signs its deliveries, is in the answer that
makes it and nowhere after. Every method takes an API key's ``organise`` scope, reading
too: a subscription is an organiser's tool, not something a read-only key lists; a key
limited to some tournaments subscribes to those only. Another person's subscription is a
404, as one that does not exist."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import ApiKey, Tournament, WebhookSubscription
from tournaments.selectors.webhooks import webhooks_of
from tournaments.services import webhooks

from .idempotency import idempotent
from .parsers import JSONParser
from .schema import ERROR, IDEMPOTENCY_KEY, IDEMPOTENCY_REFUSED
from .submissions import DetailSerializer
from .text import Body, SentText


class WebhookSerializer(Body[WebhookSubscription]):
    tournament = serializers.PrimaryKeyRelatedField(
        queryset=Tournament.objects.all(), allow_null=True, required=False, default=None,
        help_text="one tournament you organise (its id), or null: every one you organise")
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WebhookSubscription.Event.choices),
        min_length=1, max_length=len(WebhookSubscription.Event.values),
        help_text="the events it is told of")
    url = SentText(max_length=500, help_text="where each event is POSTed: "
                   "http:// or https://, at a public address")

    class Meta:
        model = WebhookSubscription
        fields = ["id", "url", "format", "tournament", "events", "active",
                  "consecutive_failures", "disabled_at", "disabled_reason", "created"]
        read_only_fields = ["active", "consecutive_failures", "disabled_at",
                            "disabled_reason", "created"]


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(read_only=True, help_text=(
        "signs each delivery (Push-Webhook-Signature): shown in this answer only"))

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]


class OrganiseScope(BasePermission):
    """A request with an API key needs its ``organise`` scope, whatever the method."""

    message = ""

    def has_permission(self, request: Request, view: Any) -> bool:
        key = request.auth
        if isinstance(key, ApiKey) and ApiKey.Scope.ORGANISE not in key.scopes:
            self.message = _("this API key lacks the %(scope)s scope") % {
                "scope": ApiKey.Scope.ORGANISE}
            return False
        return True


ERRORS = {401: OpenApiResponse(DetailSerializer, description="not authenticated"),
          403: OpenApiResponse(DetailSerializer, description=(
              "an API key without the organise scope, or a tournament you do not organise"))}
NOT_FOUND = {404: OpenApiResponse(DetailSerializer,
                                  description="no such subscription of yours")}


@extend_schema_view(
    list=extend_schema(summary="List your webhook subscriptions", responses={
        200: WebhookSerializer(many=True), **ERRORS}),
    retrieve=extend_schema(summary="A webhook subscription of yours", responses={
        200: WebhookSerializer, **ERRORS, **NOT_FOUND}),
    destroy=extend_schema(summary="Delete a webhook subscription of yours", responses={
        204: None, **ERRORS, **NOT_FOUND}),
    create=extend_schema(
        summary="Subscribe a URL to tournament events",
        description="Each event is POSTed to the URL as JSON signed with the answer's "
                    "`secret` (or, format discord or slack, as a chat message); see the "
                    "manual's Webhooks page.",
        parameters=[IDEMPOTENCY_KEY], request=WebhookSerializer, responses={
            201: WebhookCreatedSerializer,
            400: OpenApiResponse({"anyOf": [ERROR]}, description=(
                "a malformed body (one list of messages a field), URL or Idempotency-Key, "
                "an unknown event, or too many subscriptions (`detail` says why)")),
            **ERRORS, 422: IDEMPOTENCY_REFUSED}),
)
class WebhookViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin,
                     mixins.DestroyModelMixin, viewsets.GenericViewSet[WebhookSubscription]):
    """Your webhook subscriptions."""

    serializer_class = WebhookSerializer
    permission_classes = [IsAuthenticated, OrganiseScope]
    parser_classes = [JSONParser]

    def get_queryset(self) -> QuerySet[WebhookSubscription]:
        return webhooks_of(self.request.user.pk)

    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = WebhookSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        tournament = data["tournament"]
        key = request.auth
        if isinstance(key, ApiKey):
            allowed = set(key.tournaments.values_list("pk", flat=True))
            if allowed and (tournament is None or tournament.pk not in allowed):
                self.permission_denied(request, _("this API key does not act in this "
                                                  "tournament"))
        made = webhooks.webhook_create(user=request.user, url=data["url"],
                                       format=data.get("format", "json"),
                                       events=data["events"], tournament=tournament)
        return Response(WebhookCreatedSerializer(made).data, status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance: WebhookSubscription) -> None:
        webhooks.webhook_delete(user=self.request.user, subscription=instance)
