"""Login limits: which address a request comes from, and the answer to a locked-out login.

Two limits guard passwords (docs/operating/login-limits.md). django-axes counts failed logins at
every login (the admin's, the site's, the API's session login and the token endpoint) per
username and per client address, in the database so that every web process sees one
count; a username is refused after ``LOGIN_FAILURE_LIMIT`` failures from any address, an
address after ``LOGIN_ADDRESS_FAILURE_LIMIT`` failures for any usernames (see
:class:`LoginLimitHandler`), even with the right password, for ``LOGIN_COOLOFF_MINUTES``.
The token endpoint also takes at most ``API_AUTH_RATE`` attempts per address. Both count
by :func:`client_address`.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit, get_lockout_parameters
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework.throttling import ScopedRateThrottle

#: What a login counts as coming from when its client address is no IP address (docs/operating/
#: login-limits.md): all such logins share this one count. Varying the garbage therefore
#: never starts a fresh count, and locking this count out locks out no client whose
#: address is real. The unspecified address: never a real peer's, and storable where
#: django-axes keeps its counts (an address column, which text that is no address fails).
UNKNOWN_ADDRESS = "0.0.0.0"
# characters of a bad value that its warning shows
_SHOWN = 60
# set in a request's META once its bad address is logged: both limits ask (the token
# endpoint's rate limit, then django-axes), and one warning a request is enough
_WARNED = "push.bad_client_address_logged"

log = logging.getLogger(__name__)


def _address(text: str) -> str | None:
    """``text`` as an IP address in canonical form, or None when it is none.

    A port, as some proxies write it (``192.0.2.1:8080``, ``[2001:db8::1]:8080``), is
    dropped, as uvicorn's ``--proxy-headers`` drops it; so is an IPv6 scope
    (``fe80::1%eth0``), which PostgreSQL's address column refuses. An IPv4 client that a
    dual-stack socket reports as ``::ffff:192.0.2.1`` is ``192.0.2.1``, one count.
    """
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [IPv6] or [IPv6]:port
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # IPv4:port (a bare IPv6 address has two colons or more)
        text = text.split(":")[0]
    try:
        address = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return str(address.ipv4_mapped)
    return str(address)


def _shown(value: str) -> str:
    return repr(value[:_SHOWN]) + ("..." if len(value) > _SHOWN else "")


def client_address(request: HttpRequest) -> str:
    """The address a request comes from, as the login limits count it.

    The peer (``REMOTE_ADDR``), unless the site runs behind the TLS proxy
    (``DJANGO_BEHIND_TLS_PROXY=true``): then the address the proxy appended last to
    ``X-Forwarded-For``. What a client writes in that header itself comes before the
    proxy's entry and is never read, so a forged header cannot start a fresh count.

    An entry that is no IP address (a misconfigured proxy, or a client reaching a server
    that trusts its header) counts as no entry: the peer's address. A peer that is none
    either (uvicorn's ``--proxy-headers`` puts the forwarded text there as it is) counts
    as :data:`UNKNOWN_ADDRESS`, as does no peer at all. A bad value is logged as a
    warning, once a request; never an error, which would answer the login 500.
    """
    peer = str(request.META.get("REMOTE_ADDR") or "")
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
    bad = []
    if settings.CLIENT_ADDRESS_FROM_PROXY and forwarded:
        entry = forwarded.rsplit(",", 1)[-1].strip()
        address = _address(entry)
        if address is not None:
            return address
        bad.append(f"the last X-Forwarded-For entry {_shown(entry)}")
    address = _address(peer)
    if address is None and peer:
        bad.append(f"REMOTE_ADDR {_shown(peer)}")
    counted = address or UNKNOWN_ADDRESS
    # No peer at all is no bad value: a login made in code (``Client.force_login``, a
    # command) or served over a Unix socket; it counts as the unknown address unremarked.
    if bad and not request.META.get(_WARNED):
        request.META[_WARNED] = True
        log.warning("%s %s no IP address: the login limits count this request as from %s",
                    " and ".join(bad), "is" if len(bad) == 1 else "are", counted)
    return counted


class LoginLimitHandler(AxesDatabaseHandler):
    """django-axes' count in the database, with a limit per username and a higher one per
    address.

    django-axes compares one number, the largest count among its lockout parameters, with
    one limit (``AXES_FAILURE_LIMIT``, the username's). An address is shared by everyone
    behind it (a venue's connection, a club's network): one player mistyping a password
    five times must not lock out the room, so the address's own count locks only at
    ``LOGIN_ADDRESS_FAILURE_LIMIT``, which still stops one address trying password after
    password across many usernames.
    """

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None
                     ) -> int:
        parameters = get_lockout_parameters(request, credentials)
        counts = {parameter: attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
                  for parameter, attempts in zip(parameters,
                                                 self.get_user_attempts(request, credentials),
                                                 strict=True)}
        limit = int(get_failure_limit(request, credentials))
        # the address at its own limit counts as the username's limit reached
        address_locked = counts["ip_address"] >= settings.LOGIN_ADDRESS_FAILURE_LIMIT
        return max(counts["username"], limit if address_locked else 0)


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
