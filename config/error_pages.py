"""A PlatformError that leaves a page or an admin view becomes an error page with its
message and status (see ``config.errors``)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from config.errors import PlatformError


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
        response = TemplateResponse(request, "error.html", {"message": exception.message},
                                    status=exception.status)
        return response.render()
