"""Notification figures for ``manage.py bench_notices`` (a benchmark, not a test): the
TABLE_READY notifications of a round's start, written in one transaction as
``services.telling.tables_ready`` writes them, and each person's open pages told after the
commit over the channel layer."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction

from tournaments.models import MailAddress, Notification
from tournaments.services.notices import Notice, notify_each


@dataclass
class NoticeTimes:
    players: int
    written: float  # notify_each, in the transaction
    committed: float  # the whole step: the transaction and what follows its commit
    rows: int


def round_start_seconds(players: int = 10_000, mailed_share: float = 0.0) -> NoticeTimes:
    """Users for ``players`` people (``mailed_share`` of them with a confirmed address that
    takes every kind), then the round's start for them all, four to a table; the users
    (and so their notifications) are removed afterwards."""
    prefix = f"bench-{uuid.uuid4().hex[:8]}-"
    users = User.objects.bulk_create(
        [User(username=f"{prefix}{n}") for n in range(players)], batch_size=2000)
    ids = [user.pk for user in users]
    mailed = ids[:int(players * mailed_share)]
    MailAddress.objects.bulk_create(
        [MailAddress(user_id=user, email=f"{prefix}{user}@example.org",
                     confirmed="2026-01-01T00:00:00Z") for user in mailed], batch_size=2000)
    try:
        notices = [Notice(user, Notification.Kind.TABLE_READY, f"table:{prefix}{n // 4}",
                          {"tournament": "Bench open", "round": 1, "table": n // 4 + 1},
                          f"/tables/{n // 4 + 1}/") for n, user in enumerate(ids)]
        start = time.perf_counter()
        with transaction.atomic():
            notify_each(notices)
            written = time.perf_counter() - start
        committed = time.perf_counter() - start
        rows = Notification.objects.filter(user_id__in=ids).count()
    finally:
        User.objects.filter(username__startswith=prefix).delete()
    return NoticeTimes(players, written, committed, rows)
