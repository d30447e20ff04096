"""``Idempotency-Key``, as Stripe's API has it: a write sent again with the same key (a client
retrying after a timeout) is answered as the first time and does nothing twice.

The key is the client's (any 1 to 255 printable ASCII characters, a UUID say), one space a
person. The first request with it writes its row (``IdempotentRequest``) in the write's own
transaction: the answer is kept only with the write, and a second request with the key
that comes meanwhile waits on that row, then gets the kept answer. An error (4xx) is not
kept: it changed nothing, so the request may be sent again as it is. The same key with
another method, path or body is a 422; a key is kept a day (``KEPT``), then may be used
again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils import encoders

from tournaments.models import IdempotentRequest
from tournaments.services.keys import KEPT

HEADER = "Idempotency-Key"

Action = Callable[..., Response]


class KeyReused(APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "idempotency_key_reused"


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _key(request: Request) -> str | None:
    key = request.headers.get(HEADER)
    if key is not None and not (0 < len(key) <= 255 and key.isascii() and key.isprintable()):
        raise ValidationError({HEADER: [_("give 1 to 255 printable ASCII characters")]})
    return key


def idempotent(action: Action) -> Action:
    """Make a view set's write action answer a repeated ``Idempotency-Key`` as the first."""

    @wraps(action)
    def answer(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = _key(request)
        if key is None or not request.user.is_authenticated:  # the action refuses the latter
            return action(view, request, *args, **kwargs)
        fingerprint, user = _fingerprint(request), request.user.pk
        with transaction.atomic():
            IdempotentRequest.objects.filter(user_id=user, key=key,
                                             created__lt=timezone.now() - KEPT).delete()
            # a request with this key in flight holds the row: this waits for its commit
            row, made = IdempotentRequest.objects.get_or_create(
                user_id=user, key=key, defaults={"fingerprint": fingerprint})
            if not made:
                return _again(row, fingerprint)
            response = action(view, request, *args, **kwargs)
            if not status.is_success(response.status_code):
                row.delete()
                return response
            # as the answer renders it (a Decimal a number, a date a string)
            row.status = response.status_code
            row.body = json.loads(json.dumps(response.data, cls=encoders.JSONEncoder))
            row.save(update_fields=["status", "body"])
        return response

    return answer


def _again(row: IdempotentRequest, fingerprint: str) -> Response:
    if row.fingerprint != fingerprint:
        raise KeyReused(_("%(header)s: this key was used for another request; use a new key "
                          "for each request") % {"header": HEADER})
    return Response(row.body, status=row.status, headers={"Idempotent-Replayed": "true"})
