"""Reads of notifications and of who gets them by mail."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from tournaments.models import MailAddress, Notification
from tournaments.notice_words import PROMINENT, notice_text


def unread_count(user_id: int) -> int:
    """How many of the user's notifications are unread: one count on the unread index."""
    return Notification.objects.filter(user_id=user_id, read__isnull=True).count()


def user_notifications(user_id: int, *, limit: int = 200) -> QuerySet[Notification]:
    """The user's notifications, newest first (at most ``limit``)."""
    return Notification.objects.filter(user_id=user_id).order_by("-created", "-id")[:limit]


def mail_wanted(user_ids: Iterable[int], kind: str) -> set[int]:
    """Those of ``user_ids`` whose confirmed address takes ``kind`` by mail."""
    addresses = MailAddress.objects.filter(user_id__in=list(user_ids), confirmed__isnull=False,
                                           mail_off=False).values_list("user_id", "kinds")
    return {user_id for user_id, kinds in addresses if kind in kinds}


def user_mail_address(user_id: int) -> MailAddress | None:
    return MailAddress.objects.filter(user_id=user_id).first()


def safe_link(link: str) -> str:
    """A notification's link if it is a path on this site, else "" (never another site)."""
    return link if link.startswith("/") and not link.startswith("//") else ""


@dataclass(frozen=True)
class NoticeView:
    notification: Notification
    text: str
    link: str
    prominent: bool


def notice_view(notification: Notification) -> NoticeView:
    """A notification as the page shows it, in the active language."""
    return NoticeView(notification, notice_text(notification.kind, notification.params),
                      safe_link(notification.link), notification.kind in PROMINENT)


def notice_worded(notice: dict[str, Any]) -> dict[str, Any]:
    """A pushed notice's words and link in the active language (``games.live.inbox``)."""
    kind = str(notice.get("kind", ""))
    params = notice.get("params")
    return {"text": notice_text(kind, params if isinstance(params, dict) else {}),
            "link": safe_link(str(notice.get("link", ""))), "prominent": kind in PROMINENT}
