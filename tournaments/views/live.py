"""Live fragments: the part of a page that refreshes itself while a round is played.

A live page wraps its changing part in an element with ``data-live-url`` (see
``static/tournaments/live.js``); the script polls that URL every few seconds and swaps
the element's content for the answer, which is the same template the page included. The
fragment's root says ``data-live="off"`` once nothing will change, and the polling stops.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe


def poll_milliseconds() -> int:
    """How often a live page asks for news (``PUSH_LIVE_POLL_SECONDS``, default 5)."""
    return int(float(getattr(settings, "PUSH_LIVE_POLL_SECONDS", 5)) * 1000)


def live_context(live: bool) -> dict[str, Any]:
    return {"live": live, "poll_ms": poll_milliseconds()}


def fragment(request: HttpRequest, template: str, context: dict[str, Any]) -> dict[str, Any]:
    """The fragment rendered for a page (``live_html``) with the ETag the page's script sends
    when it asks again (``live_etag``), so an unchanged fragment is never swapped in."""
    html = render_to_string(template, context, request=request)
    return {"live_html": mark_safe(html), "live_etag": _etag(html)}  # our own template


def _etag(html: str) -> str:
    return f'"{hashlib.sha256(html.encode()).hexdigest()[:32]}"'


def render_fragment(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """The fragment as HTML, with an ETag so an unchanged fragment costs a 304 and no body."""
    html = render_to_string(template, context, request=request)
    tag = _etag(html)
    if tag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(html)
    response["ETag"] = tag
    # Each poll must reach the server; the answer depends on the language chosen.
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
