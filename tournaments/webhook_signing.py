"""A webhook delivery's body, its signature and when a failed one is tried again (pure: the
sender, ``services.webhook_delivery``, and a receiver's check, as the manual shows it, are
the same few lines).

The signature is ``v1=`` and the hex HMAC-SHA256, keyed with the subscription's secret, of
the timestamp (whole seconds since 1970, as the ``Push-Webhook-Timestamp`` header sends
it), a full stop and the body's bytes: signing the time with the body lets a receiver
refuse a copy replayed later (:data:`TOLERANCE`), which a signature of the body alone
could not.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime, timedelta
from typing import Any

#: a receiver refuses a delivery whose timestamp is further than this from its clock
TOLERANCE = timedelta(minutes=5)
#: the wait after the first failed attempt; each one after waits twice the one before
FIRST_RETRY = timedelta(minutes=1)
#: the longest wait between two attempts
LONGEST_RETRY = timedelta(hours=1)
#: a delivery still failing this long after its event is given up (failed)
RETRY_FOR = timedelta(days=1)


def body(event_id: str, event_type: str, created: datetime, data: Any) -> bytes:
    """The JSON body of a delivery: the event's id, type, time (ISO 8601) and ``data``."""
    return json.dumps({"id": event_id, "type": event_type, "created": created.isoformat(),
                       "data": data}, separators=(",", ":"), ensure_ascii=False).encode()


def signature(secret: str, timestamp: int, payload: bytes) -> str:
    """The ``Push-Webhook-Signature`` header of ``payload`` sent at ``timestamp``."""
    signed = str(timestamp).encode() + b"." + payload
    return "v1=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def verify(secret: str, timestamp: str, payload: bytes, signed: str, now: datetime) -> bool:
    """What a receiver checks: the signature is this body's at this timestamp, and the
    timestamp is within :data:`TOLERANCE` of ``now`` (an aware time)."""
    try:
        sent = int(timestamp)
    except ValueError:
        return False
    if abs(now.timestamp() - sent) > TOLERANCE.total_seconds():
        return False
    return hmac.compare_digest(signature(secret, sent, payload), signed)


def retry_delay(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failed attempt (1, 2, 4 … minutes, at most
    :data:`LONGEST_RETRY`)."""
    if attempts < 1:
        raise ValueError(f"attempts must be 1 or more, not {attempts}")
    if attempts > 20:  # 2**20 minutes is long past the cap; no need to count higher
        return LONGEST_RETRY
    return min(FIRST_RETRY * (1 << (attempts - 1)), LONGEST_RETRY)


def next_attempt(created: datetime, attempts: int, now: datetime) -> datetime | None:
    """When a delivery of an event at ``created`` that has now failed ``attempts`` times
    is tried next; None when that would be past :data:`RETRY_FOR` (it is given up)."""
    due = now + retry_delay(attempts)
    return due if due <= created + RETRY_FOR else None
