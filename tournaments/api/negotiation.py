"""How the API picks the format of an answer: DRF's content negotiation, with a refusal
that names the formats the endpoint has (DRF answers an unknown ``?format=`` with a bare
404 "Not found.", and an Accept header it cannot meet without saying what it could).

Negotiation is the first step of every API request that reads its query string, so it also
refuses a query parameter given more than once: no parameter of the API takes a list, and
Django and DRF would quietly use one of the values (``?tournament=1&tournament=2``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

from config.errors import PlatformError

SHOWN_LENGTH = 40  # of what the client asked for, in the message


def _formats(renderers: Sequence[BaseRenderer]) -> list[str]:
    return list(dict.fromkeys(str(renderer.format) for renderer in renderers))


def _media_types(renderers: Sequence[BaseRenderer]) -> list[str]:
    return list(dict.fromkeys(str(renderer.media_type) for renderer in renderers))


class FormatNotAvailable(PlatformError):
    """The client asked for a format the endpoint does not answer in (406, with the formats
    and media types it does answer in, for a client to choose from)."""

    code = "format_not_available"
    status = 406

    def __init__(self, template: Any, params: dict[str, Any],
                 renderers: Sequence[BaseRenderer]) -> None:
        formats = _formats(renderers)
        super().__init__(template, {**params, "formats": ", ".join(formats),
                                    "example": formats[0],
                                    "types": ", ".join(_media_types(renderers))})
        self.renderers = renderers

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "formats": _formats(self.renderers),
                "media_types": _media_types(self.renderers)}


class ParameterRepeated(PlatformError):
    """A query parameter given more than once (400)."""

    code = "parameter_repeated"


class FormatNegotiation(DefaultContentNegotiation):
    def filter_renderers(self, renderers: Iterable[BaseRenderer],
                         format: str) -> list[BaseRenderer]:
        renderers = list(renderers)
        chosen = [renderer for renderer in renderers if renderer.format == format]
        if not chosen:
            raise FormatNotAvailable(_(
                "this endpoint has no format “%(format)s”: ask for one of %(formats)s (e.g. "
                "?format=%(example)s)"), {"format": format[:SHOWN_LENGTH]}, renderers)
        return chosen

    def select_renderer(self, request: Request, renderers: Iterable[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        for name, values in request.query_params.lists():
            if len(values) > 1:
                raise ParameterRepeated(_(
                    "the query parameter “%(name)s” is given %(times)d times: give it once"),
                    {"name": name[:SHOWN_LENGTH], "times": len(values)})
        asked = request.query_params.get(self.settings.URL_FORMAT_OVERRIDE or "format")
        if asked == "" and not format_suffix:
            # DRF takes an empty ?format= for none at all; it is a format no endpoint has
            self.filter_renderers(renderers, asked)
        try:
            chosen: tuple[BaseRenderer, str] = super().select_renderer(request, renderers,
                                                                       format_suffix)
            return chosen
        except NotAcceptable:  # no renderer meets the Accept header
            raise FormatNotAvailable(_(
                "this endpoint answers none of the media types in the Accept header: it "
                "answers %(types)s (or ask with ?format=, one of %(formats)s)"), {},
                renderers) from None
