"""Telling people: :func:`notify` writes one notification a user and key, once.

Call it inside the transaction of the step it tells of, so that a step rolled back tells
no one, and a step taken twice tells each person once (the unique key)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from tournaments.models import Notification


def notify(users: Iterable[AbstractBaseUser | int], kind: str, key: str, *,
           params: dict[str, Any] | None = None, link: str = "") -> list[Notification]:
    """Tell each of ``users`` (users or their ids) of ``kind``; those already told of
    ``key`` are left as they are. Returns the notifications meant for the others (one
    written at the same moment by another step of the same key is not written twice)."""
    ids = sorted({user if isinstance(user, int) else user.pk for user in users})
    told = set(Notification.objects.filter(user_id__in=ids, key=key)
               .values_list("user_id", flat=True))
    rows = [Notification(user_id=user, kind=kind, key=key, params=params or {}, link=link)
            for user in ids if user not in told]
    # ignore_conflicts: a second step telling of the same key at the same moment
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    return rows
