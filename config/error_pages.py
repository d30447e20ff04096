"""The site's error pages: a page of the site, in the reader's language, that says why.

A PlatformError that leaves a page or an admin view becomes an error page with its message
and status (see ``config.errors``); Django's own refusals (400, a PermissionDenied's 403,
an Http404's 404, a bug's 500) reach the handlers below, wired through
``tournaments.api.errors`` (which answers JSON under /api/ instead). Each page extends the
site's base template; a 403 or 404 shows the exception's message when the code gave one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template.response import TemplateResponse
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.translation import gettext
from django.views.decorators.csrf import requires_csrf_token

from config.errors import PlatformError

log = logging.getLogger(__name__)

# A status with a page of its own; any other refusal is the general "That cannot be done".
TEMPLATES = {400: "400.html", 403: "403.html", 404: "404.html", 500: "500.html"}
# get_object_or_404's message, English and naming a class: no reason a reader can use
_LOOKUP_MESSAGE = re.compile(r"No \w+ matches the given query\.")


def error_page(request: HttpRequest, status: int, message: str = "", *,
               template: str | None = None) -> HttpResponse:
    """The error page of ``status`` (or ``template``), with ``message``, the reason, when
    there is one."""
    response = TemplateResponse(request, template or TEMPLATES.get(status, "error.html"),
                                {"message": message, "status": status}, status=status)
    return response.render()


def _message(exception: BaseException | None) -> str:
    """The reason the code gave its PermissionDenied or Http404, or "": none given, or
    Django's own for a missing object or route (the resolver's is a dict of the tried
    patterns, ``get_object_or_404``'s names a model class, in English)."""
    given = exception.args[0] if exception is not None and exception.args else ""
    if not isinstance(given, str | Promise):
        return ""
    text = str(given)
    return "" if _LOOKUP_MESSAGE.fullmatch(text) else text


class PlatformErrorMiddleware:
    """A PlatformError that leaves a page or admin view: its message on an error page with
    its status, never a 500 (which stays for bugs)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest,
                          exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, PlatformError):
            return None
        # a refused or missing thing reads as any 403 or 404; another refusal is the
        # person's to fix, "That cannot be done" with its message (not 400.html's "the site
        # could not read the request")
        general = None if exception.status in (403, 404) else "error.html"
        return error_page(request, exception.status, exception.message, template=general)


@requires_csrf_token
def bad_request(request: HttpRequest, exception: BaseException | None = None,
                **kwargs: Any) -> HttpResponse:
    # No reason shown: a bad request's message may repeat what the client sent (a host
    # header), as Django's own page never shows it.
    return error_page(request, 400)


@requires_csrf_token
def permission_denied(request: HttpRequest, exception: BaseException | None = None,
                      **kwargs: Any) -> HttpResponse:
    return error_page(request, 403, _message(exception))


@requires_csrf_token
def page_not_found(request: HttpRequest, exception: BaseException | None = None,
                   **kwargs: Any) -> HttpResponse:
    return error_page(request, 404, _message(exception))


@requires_csrf_token
def server_error(request: HttpRequest, **kwargs: Any) -> HttpResponse:
    """The 500 page; when the site's page itself cannot be drawn (the database that broke
    the request may be what the header reads), a bare page that still says it."""
    try:
        return error_page(request, 500)
    except Exception:
        log.exception("the 500 page could not be rendered; answered with the bare one")
        text = escape(gettext("Something went wrong on our side. The error has been "
                              "logged; please try again in a moment."))
        return HttpResponseServerError(f"<!DOCTYPE html><title>500</title><p>{text}</p>")
