"""POST /api/v1/auth/token/: a username and password for an API token, a few tries a minute.

Each client address gets ``API_AUTH_RATE`` attempts (default 10 a minute), so that
passwords can't be guessed at speed; the next one is answered 429 with a
``Retry-After`` header. Counts live in Django's cache (``DJANGO_CACHE_URL``).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.throttling import ScopedRateThrottle

from .submissions import DetailSerializer


@extend_schema(
    request=AuthTokenSerializer,
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
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"


token_view = TokenView.as_view()
