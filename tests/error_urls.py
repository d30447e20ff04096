"""The site's routes plus views that refuse with a PlatformError, and views with a bug (a
ValueError), under /api/ and outside it (tests/test_errors.py); and views that refuse as
Django does, with and without a reason (tests/pages/test_error_pages.py)."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
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


def forbid(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied(gettext_lazy("Only a player's own login checks them in."))


def forbid_bare(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def missing(request: HttpRequest) -> HttpResponse:
    raise Http404(gettext_lazy("There is no table with this number."))


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("the secret the client sent")


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
    path("forbid/", forbid), path("forbid-bare/", forbid_bare), path("missing/", missing),
    path("suspicious/", suspicious),
    path("api/v1/bug/", api_bug), *urls.urlpatterns]
handler400, handler403 = urls.handler400, urls.handler403
handler404, handler500 = urls.handler404, urls.handler500
