"""Content negotiation for the tournaments endpoints, where ``?format=`` is also a filter.

DRF reads ``?format=`` as the response format (json, csv, ...); the tournaments list also
filters by tournament format (``?format=swiss``). The two sets of values never overlap, so
a tournament format is left to the filter and the response format is negotiated as if the
parameter were absent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import QueryDict
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

from tournaments.models import Tournament


class _WithoutFormat:
    """The request as negotiation sees it, less the ``format`` parameter."""

    def __init__(self, request: Request, name: str) -> None:
        self._request = request
        self.query_params = QueryDict(mutable=True)
        self.query_params.update(request.query_params)
        self.query_params.pop(name)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._request, attribute)


class TournamentFormatNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request: Request, renderers: Sequence[BaseRenderer],
                        format_suffix: str | None = None) -> Any:
        name = self.settings.URL_FORMAT_OVERRIDE
        if (not format_suffix and name
                and request.query_params.get(name) in Tournament.Format.values):
            return super().select_renderer(_WithoutFormat(request, name),  # type: ignore[arg-type]
                                           renderers, format_suffix)
        return super().select_renderer(request, renderers, format_suffix)
