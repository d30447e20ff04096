"""The API's JSON parser: DRF's, with a 400 (naming the place) for any body the rest of
the platform could not take.

DRF's parser already answers 400 to text that is not JSON or not UTF-8. This one also
refuses, before any view sees it, a body nested deeper than a game record may be (Python's
own parser gives up near a thousand levels with a RecursionError, a 500) and a string
holding a NUL character or a lone surrogate, which PostgreSQL cannot store and which would
fail the request half-way: ``record.players[2]: contains a NUL character``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from games.engine.errors import MalformedRecordError
from games.engine.record import MAX_DEPTH, check_json


class JSONParser(parsers.JSONParser):
    def parse(self, stream: IO[Any], media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - nested deeper than %(depth)d levels")
                             % {"depth": MAX_DEPTH}) from None
        try:
            check_json(data, MAX_DEPTH)
        except MalformedRecordError as exc:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from None
        return data
