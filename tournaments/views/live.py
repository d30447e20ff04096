"""Live fragments: the part of a page that refreshes itself while a round is played.

A live page wraps its changing part in an element with ``data-live-url`` (see
``static/tournaments/live.js``); the script polls that URL every few seconds and swaps
the element's content for the answer, which is the same template the page included. The
fragment's root says ``data-live="off"`` once nothing will change, and the polling stops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
    set_response_etag,
)
from django.utils.http import quote_etag
from django.utils.safestring import mark_safe
from django.views.decorators.http import conditional_page


def poll_milliseconds() -> int:
    """How often a live page asks for news (``PUSH_LIVE_POLL_SECONDS``, default 5)."""
    return int(float(getattr(settings, "PUSH_LIVE_POLL_SECONDS", 5)) * 1000)


def live_context(live: bool) -> dict[str, Any]:
    return {"live": live, "poll_ms": poll_milliseconds()}


def _response(html: str) -> HttpResponse:
    # Django's own ETag of the body: the page and its fragment URL agree on it.
    response = HttpResponse(html)
    set_response_etag(response)
    return response


def fragment(request: HttpRequest, template: str, context: dict[str, Any]) -> dict[str, Any]:
    """The fragment rendered for a page (``live_html``) with the ETag the page's script sends
    when it asks again (``live_etag``), so an unchanged fragment is never swapped in."""
    return page_fragment(render_to_string(template, context, request=request))


def page_fragment(html: str) -> dict[str, Any]:
    """`fragment` for HTML already rendered (a page may keep it in the cache)."""
    response = _response(html)
    return {"live_html": mark_safe(response.content.decode()),  # our own template
            "live_etag": response["ETag"]}


def render_fragment(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """The fragment as HTML, with an ETag so an unchanged fragment costs a 304 and no body."""
    return fragment_response(request, render_to_string(template, context, request=request))


@conditional_page  # ConditionalGetMiddleware for this answer: a 304 when If-None-Match matches
def fragment_response(request: HttpRequest, html: str) -> HttpResponse:
    """`render_fragment` for HTML already rendered."""
    return _polled(_response(html))


def versioned_fragment(request: HttpRequest, version: str,
                       draw: Callable[[], str]) -> HttpResponse:
    """A fragment whose ETag is ``version``, a digest of everything it shows read without
    drawing it: 304 when the client already has that version, ``draw()`` only otherwise.
    The version must be read before ``draw`` reads what it shows, so that a change between
    them makes the next poll draw again rather than keep the older fragment."""
    etag = quote_etag(version)
    response = get_conditional_response(request, etag=etag) or HttpResponse(draw())
    response["ETag"] = etag
    return _polled(response)


def versioned_page_fragment(version: str, html: str) -> dict[str, Any]:
    """`page_fragment` with the ETag of `versioned_fragment`."""
    return {"live_html": mark_safe(html), "live_etag": quote_etag(version)}  # our template


def _polled(response: HttpResponse) -> HttpResponse:
    # Each poll must reach the server; the answer depends on the language chosen.
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
