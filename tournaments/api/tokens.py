"""POST /api/v1/auth/token/: a username and password for an API token, a few tries a minute.

Each client address gets ``API_AUTH_RATE`` attempts (default 10 a minute), so that
passwords can't be guessed at speed; the next one is answered 429 with a
``Retry-After`` header. Counts live in Django's cache (``DJANGO_CACHE_URL``). Failed
logins also count towards the limit of every login (:mod:`tournaments.api.logins`).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser

from .logins import AuthRateThrottle
from .parsers import JSONParser
from .submissions import DetailSerializer


@extend_schema(
    # One content type in the schema: a generated client cannot tell three alike bodies
    # apart. The endpoint takes a form too (``curl -d username=... -d password=...``).
    request={"application/json": AuthTokenSerializer},
    responses={
        200: OpenApiResponse({"type": "object", "properties": {"token": {"type": "string"}},
                              "required": ["token"]}, description="the user's token"),
        400: OpenApiResponse({"type": "object", "additionalProperties": {
            "type": "array", "items": {"type": "string"}}},
            description="missing fields, or the credentials are wrong"),
        429: OpenApiResponse(DetailSerializer, description="too many attempts; see Retry-After"),
    },
)
class TokenView(ObtainAuthToken):
    throttle_classes = [AuthRateThrottle]
    throttle_scope = "auth"
    # DRF's token view names its parsers; the API's JSON parser refuses unstorable text
    parser_classes = [FormParser, MultiPartParser, JSONParser]

    def get_serializer_context(self) -> dict[str, Any]:
        # Credentials are checked against Django's request, not DRF's wrapper: the
        # failed-login limit marks a locked-out request there, where its middleware
        # answers it with a 429 (a mark on the wrapper would be lost, leaving a 400).
        return {**super().get_serializer_context(), "request": self.request._request}


token_view = TokenView.as_view()
