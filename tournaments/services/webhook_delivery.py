"""Sending webhook deliveries: one Celery task a delivery (``tasks.deliver_webhook``), so a
receiver that fails or hangs holds up one worker for at most the timeout and never the
deliveries to the others; the sweep sends again those whose next attempt is due.

A delivery is claimed with one conditional UPDATE (pending, due) that moves its next attempt
past the time a send can take, so two workers given it never both send it, and the sweep
does not send it again while it is under way. A 2xx answer delivers it, once for all;
anything else (another status, a refused address, a timeout) is a failed attempt, tried
again after 1, 2, 4 … minutes (``webhook_signing``) until a day has passed. After
``WEBHOOKS_DISABLE_AFTER`` failed attempts in a row the subscription is disabled and its
organiser told.

Safety: the request goes to the subscribed URL only, never follows a redirect, and is
refused before connecting when the host resolves to a loopback, private, link-local,
multicast or reserved address (unless ``WEBHOOKS_ALLOW_PRIVATE_ADDRESSES``); it connects to
the address that was checked (with the host name for TLS and ``Host``), so a name that
resolves elsewhere a moment later changes nothing.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import urllib3
from django.conf import settings
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.sending import send
from tournaments import webhook_signing, webhook_words
from tournaments.models import Notification, WebhookDelivery, WebhookSubscription
from tournaments.selectors.webhooks import deliveries_due, dispatch_order

from .followups import TASKS
from .notices import notify
from .webhooks import PING

log = logging.getLogger(__name__)

#: deliveries the sweep sends again at one tick, at most
SWEEP_LIMIT = 1000
#: how much of a failed answer's body is kept as its error
KEPT_ANSWER = 200
PENDING, DELIVERED, FAILED = (WebhookDelivery.Status.PENDING, WebhookDelivery.Status.DELIVERED,
                              WebhookDelivery.Status.FAILED)


class Refused(Exception):
    """The URL's host may not be posted to (or cannot be found); the reason, in words."""


@dataclass(frozen=True)
class Answer:
    """What an attempt got: the HTTP status (None without one) and, failed, why."""

    status: int | None
    error: str = ""

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def webhooks_dispatch(delivery_ids: list[int]) -> int:
    """Give each delivery its own task (``tasks.deliver_webhook``), so workers share them
    and a slow receiver slows only its own, those to receivers failing now last
    (``dispatch_order``); how many the broker took (one it did not is sent by the sweep,
    as its next attempt is due)."""
    return sum(send(TASKS + "deliver_webhook", [pk]) for pk in dispatch_order(delivery_ids))


def webhooks_send_due(*, now: datetime | None = None) -> int:
    """The sweep's part: send the deliveries whose next attempt is due."""
    return webhooks_dispatch(deliveries_due(now or timezone.now(), SWEEP_LIMIT))


def webhook_deliver(delivery_id: int, *, now: datetime | None = None) -> str | None:
    """Attempt the delivery if it is pending and due, once (see the module); its status
    after the attempt, or None when it was not this call's to send."""
    now = now or timezone.now()
    lease = now + timedelta(seconds=settings.WEBHOOKS_TIMEOUT_SECONDS + 60)
    claimed = WebhookDelivery.objects.filter(pk=delivery_id, status=PENDING,
                                             next_attempt__lte=now).update(
        attempts=F("attempts") + 1, next_attempt=lease)
    if not claimed:
        return None
    delivery = WebhookDelivery.objects.select_related("subscription").get(pk=delivery_id)
    subscription = delivery.subscription
    if not subscription.active and delivery.event_type != PING:
        # given up at once: its organiser sends it again from the admin if they want it
        WebhookDelivery.objects.filter(pk=delivery_id).update(
            status=FAILED, last_error=_("the subscription is disabled"))
        return FAILED
    return _note(delivery, _attempt(subscription, delivery), now)


def _attempt(subscription: WebhookSubscription, delivery: WebhookDelivery) -> Answer:
    event_id = str(delivery.event_id)
    if subscription.format == WebhookSubscription.Format.JSON:
        body = webhook_signing.body(event_id, delivery.event_type, delivery.created,
                                    delivery.payload)
    else:
        body = webhook_words.chat_body(subscription.format, delivery.event_type,
                                       delivery.payload)
    timestamp = int(time.time())
    headers = {"Content-Type": "application/json", "User-Agent": "Push-League-Webhooks/1",
               "Push-Webhook-Id": event_id, "Push-Webhook-Timestamp": str(timestamp),
               "Push-Webhook-Signature": webhook_signing.signature(subscription.secret,
                                                                   timestamp, body)}
    try:
        return post(subscription.url, body, headers)
    except Refused as exc:
        return Answer(None, str(exc))


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``url`` (checked: see the module), within the timeout, following no
    redirect. Raises :class:`Refused` when the host may not be posted to."""
    parts = urlsplit(url)
    host, https = parts.hostname or "", parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    address = checked_address(host, port)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    timeout = urllib3.Timeout(total=settings.WEBHOOKS_TIMEOUT_SECONDS)
    pool: urllib3.HTTPConnectionPool
    if https:
        pool = urllib3.HTTPSConnectionPool(address, port, server_hostname=host,
                                           assert_hostname=host, maxsize=1)
    else:
        pool = urllib3.HTTPConnectionPool(address, port, maxsize=1)
    default = port == (443 if https else 80)
    try:
        response = pool.urlopen("POST", path, body=body,
                                headers={**headers, "Host": host if default else f"{host}:{port}"},
                                redirect=False, retries=False, timeout=timeout,
                                preload_content=False)
        try:
            status = response.status
            if 200 <= status < 300:
                return Answer(status)
            text = response.read(KEPT_ANSWER).decode("utf-8", "replace")
            return Answer(status, _("answered %(status)d: %(text)s")
                          % {"status": status, "text": text})
        finally:
            response.release_conn()
    except urllib3.exceptions.HTTPError as exc:
        return Answer(None, _("no answer: %(error)s") % {"error": exc})
    finally:
        pool.close()


def checked_address(host: str, port: int) -> str:
    """The address to connect to for ``host``: the first it resolves to, each of which must
    be a public one unless ``WEBHOOKS_ALLOW_PRIVATE_ADDRESSES``."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise Refused(_("the host %(host)s was not found (%(error)s)")
                      % {"host": host, "error": exc}) from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]
    if not addresses:
        raise Refused(_("the host %(host)s was not found") % {"host": host})
    if not settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES:
        for address in addresses:
            if not public(address):
                raise Refused(_("the host %(host)s is at %(address)s, a private or reserved "
                                "address, which webhooks are not sent to")
                              % {"host": host, "address": address})
    return str(addresses[0])


def public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``address`` is on the public internet: not loopback, private, link-local,
    shared, multicast or reserved (an IPv4 address inside IPv6 judged as itself)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def _note(delivery: WebhookDelivery, answer: Answer, now: datetime) -> str:
    """Store the attempt's outcome on the delivery and its subscription; the new status."""
    counts = delivery.event_type != PING  # a test event neither disables nor revives
    subscriptions = WebhookSubscription.objects.filter(pk=delivery.subscription_id)
    if answer.delivered:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=DELIVERED, delivered_at=now, response_code=answer.status, last_error="")
        if counts:
            subscriptions.update(consecutive_failures=0)
        return DELIVERED
    retry = webhook_signing.next_attempt(delivery.created, delivery.attempts, now)
    status = PENDING if retry is not None else FAILED
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=status, next_attempt=retry or now, response_code=answer.status,
        last_error=answer.error[:500])
    if counts and delivery.subscription.active:
        subscriptions.update(consecutive_failures=F("consecutive_failures") + 1)
        _disable_if_failing(delivery.subscription, answer, now)
    return status


def _disable_if_failing(subscription: WebhookSubscription, answer: Answer,
                        now: datetime) -> None:
    limit = settings.WEBHOOKS_DISABLE_AFTER
    reason = (_("%(count)d deliveries in a row failed; the last: %(error)s")
              % {"count": limit, "error": answer.error})[:300]
    # one conditional UPDATE: of two workers failing at once, one disables and tells
    if WebhookSubscription.objects.filter(pk=subscription.pk, active=True,
                                          consecutive_failures__gte=limit).update(
            active=False, disabled_at=now, disabled_reason=reason):
        log.info("webhook %s disabled: %s", subscription.pk, reason)
        notify([subscription.organiser_id], Notification.Kind.WEBHOOK_DISABLED,
               f"webhook-disabled:{subscription.pk}:{now.isoformat()}",
               params={"url": subscription.url, "reason": reason},
               link=reverse("admin:tournaments_webhooksubscription_change",
                            args=[subscription.pk]))
