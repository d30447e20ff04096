"""Telling people: :func:`notify` writes one notification a user and key, once; the page
marks them read.

Call :func:`notify` inside the transaction of the step it tells of, so that a step rolled
back tells no one, and a step taken twice tells each person once (the unique key). After
the commit, each person's open pages are told at once (``games.live.inbox``), and a mail is
sent (``services.mail``) to those whose confirmed address takes the kind."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.live import inbox
from tournaments.models import Notification
from tournaments.selectors.notices import mail_wanted

from . import followups


@dataclass(frozen=True)
class Notice:
    """One notification to write: to ``user`` (an id), of ``kind``, for the event ``key``,
    with ``params`` for its words (``tournaments.notice_words``) and ``link``, a path on
    this site (``/tables/12/``) where the reader goes from it."""

    user: int
    kind: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    link: str = ""


def notify(users: Iterable[AbstractBaseUser | int], kind: str, key: str, *,
           params: dict[str, Any] | None = None, link: str = "") -> list[Notification]:
    """Tell each of ``users`` (users or their ids) of ``kind``; those already told of
    ``key`` are left as they are. Returns the notifications meant for the others (one
    written at the same moment by another step of the same key is not written twice)."""
    ids = sorted({user if isinstance(user, int) else user.pk for user in users})
    return notify_each([Notice(user, kind, key, params or {}, link) for user in ids])


def notify_each(notices: Iterable[Notice]) -> list[Notification]:
    """:func:`notify` for notices each with its own words (a round's tables, each with its
    number and link): a few queries for them all, whatever their number."""
    wanted = {(notice.user, notice.key): notice for notice in notices}
    if not wanted:
        return []
    told = set(Notification.objects.filter(
        user_id__in={user for user, _key in wanted}, key__in={key for _user, key in wanted})
        .values_list("user_id", "key"))
    new = [notice for pair, notice in sorted(wanted.items()) if pair not in told]
    mailed: dict[str, set[int]] = {}
    for kind in {notice.kind for notice in new}:
        mailed[kind] = mail_wanted([n.user for n in new if n.kind == kind], kind)
    due, none = Notification.Mail.DUE, Notification.Mail.NONE
    rows = [Notification(user_id=n.user, kind=n.kind, key=n.key, params=n.params, link=n.link,
                         mail=due if n.user in mailed[n.kind] else none) for n in new]
    # ignore_conflicts: a second step telling of the same key at the same moment
    Notification.objects.bulk_create(rows, ignore_conflicts=True, batch_size=2000)
    by_key: dict[str, list[int]] = {}
    for n in new:
        if n.user in mailed[n.kind]:
            by_key.setdefault(n.key, []).append(n.user)
    if by_key:
        followups.notice_mails_later(sorted(by_key.items()))
    pushed = [(n.user, {"kind": n.kind, "params": n.params, "link": n.link}) for n in new]
    if pushed:  # robust: a channel layer that is down costs the pages the news, no more
        transaction.on_commit(lambda: inbox.tell_each(pushed), robust=True)
    return rows


def notices_mark_read(*, user_id: int) -> int:
    """Mark every unread notification of the user read; how many were."""
    return Notification.objects.filter(user_id=user_id, read__isnull=True).update(
        read=timezone.now())


def notice_open(*, user_id: int, notification_id: int) -> Notification | None:
    """The user's notification of this id, marked read (None: no such notification of
    theirs, so nobody learns of another's)."""
    notification = Notification.objects.filter(user_id=user_id, pk=notification_id).first()
    if notification is not None and notification.read is None:
        notification.read = timezone.now()
        notification.save(update_fields=["read"])
    return notification
