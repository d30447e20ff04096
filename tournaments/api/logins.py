"""Login limits: which address a request comes from, and the answer to a locked-out login.

Two limits guard passwords (README, "Production"). django-axes counts failed logins at
every login (the admin's, the API's session login and the token endpoint) per username
and per client address, in the database so that every web process sees one count; after
``LOGIN_FAILURE_LIMIT`` failures the username and the address are each refused, even with
the right password, for ``LOGIN_COOLOFF_MINUTES``. The token endpoint also takes at most
``API_AUTH_RATE`` attempts per address. Both count by :func:`client_address`.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework.throttling import ScopedRateThrottle


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str:
    """The address a request comes from, as the login limits count it.

    The peer (``REMOTE_ADDR``), unless the site runs behind the TLS proxy
    (``DJANGO_BEHIND_TLS_PROXY=true``): then the address the proxy appended last to
    ``X-Forwarded-For``. What a client writes in that header itself comes before the
    proxy's entry and is never read, so a forged header cannot start a fresh count.
    """
    peer = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if settings.CLIENT_ADDRESS_FROM_PROXY and forwarded:
        # an entry that is no address (a misconfigured proxy) falls back to the peer
        return _address(forwarded.split(",")[-1]) or peer
    return peer


class AuthRateThrottle(ScopedRateThrottle):
    """``API_AUTH_RATE`` attempts per client address, counted as the login limits count."""

    def get_ident(self, request: Any) -> str:
        return client_address(request)


def lockout_response(request: HttpRequest, response: HttpResponse | None,
                     credentials: dict[str, Any] | None) -> HttpResponse:
    """The answer to a login refused by the failed-login limit: 429 with ``Retry-After``,
    JSON under /api/ (as every API answer), plain text elsewhere."""
    minutes = settings.LOGIN_COOLOFF_MINUTES
    message = _("Too many failed logins for this username or from this address: logins are "
                "refused for %(minutes)d minutes.") % {"minutes": minutes}
    locked: HttpResponse
    if request.path.startswith("/api/"):
        locked = JsonResponse({"detail": message}, status=429)
    else:
        locked = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    locked["Retry-After"] = str(minutes * 60)
    return locked
