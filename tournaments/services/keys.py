"""A person's API keys: making one (its key shown once, only its digest kept), revoking
one, and finding the key a request names (``api.keys`` authenticates with it); and
forgetting the answers kept for ``Idempotency-Key`` (``api.idempotency``)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import ApiKey, IdempotentRequest, Tournament

from .access import is_organiser
from .errors import TournamentUserError

#: how many keys a person may hold (revoked ones apart)
KEYS_A_PERSON = 20
#: ``last_used`` is written at most this often, not at each request
USE_NOTED_EVERY = timedelta(minutes=1)
#: how long the answer to a write sent with an ``Idempotency-Key`` is kept
KEPT = timedelta(days=1)
_START = "push_"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_create(*, user: User, name: str, scopes: Iterable[str],
               tournaments: Iterable[Tournament] = ()) -> tuple[ApiKey, str]:
    """A new key of ``user`` named ``name`` with ``scopes`` (``ApiKey.Scope`` values), its
    writes limited to ``tournaments`` when any are given (each one ``user`` organises).
    Returns the row and the key, which is shown once and kept nowhere."""
    name = name.strip()
    chosen = sorted(set(scopes))
    limited = list(tournaments)
    if not name:
        raise TournamentUserError(_("name: give the key a name, to know it by later"))
    unknown = [scope for scope in chosen if scope not in ApiKey.Scope.values]
    if unknown or not chosen:
        raise TournamentUserError(_("scopes: choose one or more of %(scopes)s") % {
            "scopes": ", ".join(ApiKey.Scope.values)})
    foreign = [t for t in limited if not is_organiser(user, t)]
    if foreign:
        raise TournamentUserError(_("tournaments: you do not organise %(tournament)s") % {
            "tournament": foreign[0]})
    with transaction.atomic():
        held = ApiKey.objects.select_for_update().filter(user_id=user.pk, revoked=None)
        if len(held) >= KEYS_A_PERSON:
            raise TournamentUserError(_("you hold %(count)d keys already: revoke one first")
                                      % {"count": KEYS_A_PERSON})
        prefix = secrets.token_hex(6)
        key = f"{_START}{prefix}_{secrets.token_urlsafe(30)}"
        row = ApiKey.objects.create(user_id=user.pk, name=name[:100], prefix=prefix,
                                    digest=_digest(key), scopes=chosen)
        row.tournaments.set(limited)
    return row, key


def key_revoke(*, user: User, key_id: int) -> ApiKey:
    """Revoke ``user``'s key ``key_id`` (from now on it authenticates nobody); repeating
    changes nothing. Another person's key is answered as one that does not exist."""
    key = ApiKey.objects.filter(user_id=user.pk, pk=key_id).first()
    if key is None:
        raise TournamentUserError(_("you have no such key"))
    ApiKey.objects.filter(pk=key.pk, revoked=None).update(revoked=timezone.now())
    key.refresh_from_db()
    return key


def key_find(key: str) -> ApiKey | None:
    """The key a request names, or None when it is malformed, unknown or does not match
    (compared in constant time). A revoked key is returned: its caller says so."""
    if not key.startswith(_START):
        return None
    prefix, _sep, secret = key[len(_START):].partition("_")
    if not secret:
        return None
    found = ApiKey.objects.select_related("user").filter(prefix=prefix).first()
    if found is None or not hmac.compare_digest(found.digest, _digest(key)):
        return None
    return found


def key_used(key: ApiKey) -> None:
    """Note that ``key`` was used now, at most once in ``USE_NOTED_EVERY``."""
    now = timezone.now()
    if key.last_used is None or now - key.last_used >= USE_NOTED_EVERY:
        ApiKey.objects.filter(pk=key.pk).update(last_used=now)
        key.last_used = now


def idempotency_expire() -> int:
    """Forget the answers to writes with an ``Idempotency-Key`` kept longer than ``KEPT``;
    how many."""
    deleted, _kinds = IdempotentRequest.objects.filter(
        created__lt=timezone.now() - KEPT).delete()
    return deleted
