"""The site's routes plus views that refuse with a PlatformError, and views with a bug (a
ValueError), under /api/ and outside it (tests/test_errors.py)."""

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, path
from django.utils.translation import gettext_lazy
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from config import urls
from tournaments.formats import PairingError


def refuse(request: HttpRequest) -> HttpResponse:
    raise PairingError(gettext_lazy("at least %(minimum)d teams are needed, got %(count)d"),
                       {"minimum": 2, "count": 1})


def bug(request: HttpRequest) -> HttpResponse:
    raise ValueError("a bug, not advice")


@api_view(["GET"])
@permission_classes([AllowAny])
def api_refuse(request: Request) -> Response:
    raise PairingError(gettext_lazy("at least %(minimum)d teams are needed, got %(count)d"),
                       {"minimum": 2, "count": 1})


@api_view(["GET"])
@permission_classes([AllowAny])
def api_bug(request: Request) -> Response:
    raise ValueError("a bug, not advice")


urlpatterns: list[URLPattern | URLResolver] = [
    path("refuse/", refuse), path("bug/", bug), path("api/v1/refuse/", api_refuse),
    path("api/v1/bug/", api_bug), *urls.urlpatterns]
handler500 = urls.handler500
