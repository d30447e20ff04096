"""Production logs: one JSON object a line on each process's stderr, with the request id.

A log collector reads a record whole from one line, traceback included (as a string
field), and finds every record of one request by its id: the ``X-Request-ID`` the proxy
sent, or one made here, which the response carries back (README, "Logs"). Wired in
config/settings.py (``LOGGING``, and the middleware first in ``MIDDLEWARE``).
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from celery.signals import after_setup_logger, after_setup_task_logger
from django.http import HttpRequest, HttpResponseBase

HEADER = "X-Request-ID"
# An id from the request is used only if it is short and plain, as it is written into
# every log line and echoed in a header: anything else gets a fresh one.
_SAFE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


def id_for(request: HttpRequest) -> str:
    """The request's ``X-Request-ID`` when it is safe to log, else a new uuid4 hex."""
    given = request.headers.get(HEADER, "")
    return given if _SAFE_ID.fullmatch(given) else uuid.uuid4().hex


class RequestIdMiddleware:
    """Gives each request an id (:func:`id_for`) in :data:`request_id` while it is
    handled, so that every record logged meanwhile carries it, and sends it back in the
    ``X-Request-ID`` header of the response. First in ``MIDDLEWARE``, so that it is set
    around everything else, and on every answer, redirects and 500s included."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[..., object]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> object:
        if self.is_async:
            return self._acall(request)
        token = request_id.set(id_for(request))
        try:
            response = self.get_response(request)
            return _tagged(response)
        finally:
            request_id.reset(token)

    async def _acall(self, request: HttpRequest) -> object:
        token = request_id.set(id_for(request))
        try:
            response = await self.get_response(request)  # type: ignore[misc]
            return _tagged(response)
        finally:
            request_id.reset(token)


def _tagged(response: object) -> object:
    if isinstance(response, HttpResponseBase):
        response[HEADER] = request_id.get() or ""
    return response


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` (None outside a request) to every record it passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One line of JSON per record: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, and when there are any ``exc_info`` (the traceback, as text),
    ``stack_info`` and ``request_id``. Newlines inside a field are escaped by JSON, so a
    record is always one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc_info"] = record.exc_text
        if record.stack_info:
            entry["stack_info"] = self.formatStack(record.stack_info)
        request = getattr(record, "request_id", None)
        if request:
            entry["request_id"] = request
        return json.dumps(entry, default=str)


@after_setup_logger.connect
@after_setup_task_logger.connect
def _celery_logs_as_json(logger: logging.Logger | None = None, **_: object) -> None:
    """Celery's worker and beat set up logging after Django has (this module is loaded by
    then: ``LOGGING`` names it), and replace the root logger's handler with their own,
    to keep their ``--logfile`` and ``-l`` level. In production their lines are JSON too."""
    from django.conf import settings

    if logger is None or settings.DEBUG:
        return
    for handler in logger.handlers:
        handler.setFormatter(JsonFormatter())
        handler.addFilter(RequestIdFilter())
