"""The API's root, ``/api/v1/``: what the API is, and a link to each of its endpoints, its
schema, its documentation and its token endpoint (DRF's stock root lists the endpoints
under the words "The default basic root view for DefaultRouter")."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.routers import APIRootView
from rest_framework.utils.formatting import markup_description


def description() -> str:
    return _(
        "The Push league's tournaments, rounds, matches, teams, players and standings, "
        "duplicate boards and robot duplicate events. Anyone reads them (organisers also "
        "their draft rounds); a match's organisers and players submit and confirm its "
        "result. Answers are JSON, or this browsable view in a browser; standings, boards "
        "and rankings also CSV and NDJSON (`?format=csv`, `?format=ndjson`). To "
        "write, get a token by posting your username and password to `auth/token/`, then "
        "send it as `Authorization: Token <token>`. The OpenAPI schema and its interactive "
        "documentation are linked below.")


class ApiRoot(APIRootView):
    def get_view_name(self) -> str:
        return _("Push league API")

    def get_view_description(self, html: bool = False) -> str | SafeString:
        text = description()
        return markup_description(text) if html else text

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        endpoints = super().get(request, *args, **kwargs).data
        return Response({
            "name": self.get_view_name(),
            "version": "v1",
            "description": description(),
            "endpoints": endpoints,
            "schema": reverse("api-schema", request=request),
            "docs": reverse("api-docs", request=request),
            "token": reverse("api-token", request=request),
        })
