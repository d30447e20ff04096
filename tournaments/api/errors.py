"""The API's error answers: a PlatformError's (``exception_handler``, DRF's hook), and
Django's own (400, 403, 404, 500) in JSON under /api/.

DRF answers the errors it knows in JSON; anything else that fails in an API view (and any
path under /api/ that no route takes) reaches Django's handlers, whose HTML pages an API
client cannot read. With DEBUG off these handlers answer ``{"detail": ...}`` there, and
the site's error pages (config/error_pages.py) everywhere else. Wired in config/urls.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config import error_pages
from config.errors import PlatformError

Handler = Callable[..., HttpResponse]


def _json_under_api(status: int, detail: Promise, page: Handler) -> Handler:
    def handler(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.path.startswith("/api/"):  # in the request's language, as DRF's errors
            return JsonResponse({"detail": str(detail)}, status=status)
        return page(request, *args, **kwargs)
    return handler


bad_request = _json_under_api(400, _("bad request"), error_pages.bad_request)
permission_denied = _json_under_api(403, _("permission denied"), error_pages.permission_denied)
page_not_found = _json_under_api(404, _("no such endpoint"), error_pages.page_not_found)
server_error = _json_under_api(
    500, _("server error: the request was not completed, and the error has been logged"),
    error_pages.server_error)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's answers, and a PlatformError's: its ``as_dict()`` (``detail``, ``code`` and what
    the error adds, e.g. where a game record went wrong) with its status."""
    if isinstance(exc, PlatformError):
        return Response(exc.as_dict(), status=exc.status)
    return drf_exception_handler(exc, context)
