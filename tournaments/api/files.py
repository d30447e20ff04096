"""The open files the API serves (docs/api/files.md): a tournament's results file
(``push-results/1``) in JSON and XML, a duplicate round's deal file (``push-deals/1``) and a
Swiss tournament's TRF-style report, each as its own renderer over what a selector gathered
through the visibility rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer

from tournaments.exports import schema


class ResultsXMLRenderer(BaseRenderer):
    """The results file's XML (``exports.xml_form``): the same content as its JSON."""

    media_type = "application/xml"
    format = "xml"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        return schema.write_xml(data)


class PlainTextRenderer(BaseRenderer):
    """A text file made by an export's writer (the deal file, the TRF report), as it is."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        return str(data).encode(self.charset)
