"""The exports' renderers: CSV (text/csv) and NDJSON (application/x-ndjson).

Both render an export, ``{"columns": [...], "rows": [{column: value}, ...]}`` (the
standings), so that the JSON, CSV and NDJSON of one export parse back to the same rows: CSV
has a header line of the columns, then one line a row (a text cell that could run as a
spreadsheet formula is escaped with a leading ``'`` by ``tournaments.csv_cells``, whose
``unescape`` reads it back); NDJSON has one JSON object a row, its keys in column order.
Anything else (which views avoid: errors are answered in JSON) is rendered as a one-row
export of its top-level keys rather than failing.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

from rest_framework.renderers import BaseRenderer
from rest_framework.utils.encoders import JSONEncoder

from tournaments.csv_cells import escape


def as_rows(data: Any) -> tuple[list[str], list[Mapping[str, Any]]]:
    """The columns and rows of an export."""
    if isinstance(data, Mapping) and isinstance(data.get("rows"), Sequence):
        rows = list(data["rows"])
        columns = list(data.get("columns") or (rows[0].keys() if rows else []))
        return columns, rows
    if isinstance(data, Mapping):
        return list(data.keys()), [data]
    return ["value"], [{"value": data}]


def _cell(value: Any) -> Any:
    """A CSV cell: numbers as they are (a score difference of -20 stays a number), None as
    empty, text (anything nested as JSON) escaped where a spreadsheet would run it as a
    formula (``csv_cells.escape``; docs/api/exports.md)."""
    if value is None or isinstance(value, int | float):
        return value
    text = value if isinstance(value, str) else json.dumps(value, cls=JSONEncoder,
                                                          ensure_ascii=False)
    return escape(text)


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        columns, rows = as_rows(data)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180
        writer.writerow(columns)
        writer.writerows([_cell(row.get(column)) for column in columns] for row in rows)
        return out.getvalue().encode(self.charset)


class NDJSONRenderer(BaseRenderer):
    media_type = "application/x-ndjson"
    format = "ndjson"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        columns, rows = as_rows(data)
        lines = (json.dumps({c: row.get(c) for c in columns}, cls=JSONEncoder,
                            ensure_ascii=False, separators=(",", ":")) for row in rows)
        return "".join(f"{line}\n" for line in lines).encode(self.charset)
