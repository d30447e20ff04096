"""A notification's mail is sent once, whoever sends it and however often: the task run
twice, the task and the sweep at once, two workers at once (PostgreSQL row locks, real
connections, a mail server slow enough that the second sender comes while the first
holds the mail)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from tournaments.models import MailAddress, Notification
from tournaments.services import mail as mail_service
from tournaments.services.notices import notify

from .factories import UserFactory
from .test_concurrency import at_once, twice_at_once

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                                 reason="row locks are tested on PostgreSQL (set DATABASE_URL)")]


@pytest.fixture
def due(settings: Any) -> list[Notification]:
    """Three notifications due for mail (their tasks not run: no commit callbacks here)."""
    settings.EMAIL_BACKEND = "tests.mail_backends.SlowBackend"
    users = [UserFactory() for _ in range(3)]
    MailAddress.objects.bulk_create([
        MailAddress(user=user, email=f"{user.username}@example.org", confirmed=timezone.now())
        for user in users])
    notify(users, Notification.Kind.TABLE_READY, "table:1", params={"table": 1})
    rows = list(Notification.objects.order_by("pk"))
    assert all(row.mail == Notification.Mail.DUE for row in rows)
    return rows


def test_the_task_run_twice_sends_each_mail_once(due: list[Notification]) -> None:
    users = [row.user_id for row in due]
    assert mail_service.send_notice_mails(key="table:1", user_ids=users) == 3
    assert mail_service.send_notice_mails(key="table:1", user_ids=users) == 0
    assert len(mail.outbox) == 3


def test_two_workers_at_once_send_each_mail_once(due: list[Notification]) -> None:
    users = [row.user_id for row in due]
    sent: list[int] = []
    errors = twice_at_once(lambda: sent.append(
        mail_service.send_notice_mails(key="table:1", user_ids=users)))
    assert errors == [] and sum(sent) == 3
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{row.user.username}@example.org" for row in due)
    assert set(Notification.objects.values_list("mail", flat=True)) == {
        Notification.Mail.SENT}


def test_the_task_and_the_sweep_at_once_send_each_mail_once(due: list[Notification]) -> None:
    Notification.objects.update(created=timezone.now() - mail_service.SWEEP_AFTER * 2)
    users = [row.user_id for row in due]
    sent: list[int] = []
    errors = at_once(
        lambda: sent.append(mail_service.send_notice_mails(key="table:1", user_ids=users)),
        lambda: sent.append(mail_service.mail_send_due()))
    assert errors == [] and sum(sent) == 3 and len(mail.outbox) == 3
