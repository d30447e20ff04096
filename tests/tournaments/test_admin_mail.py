"""The operators' admin of mail addresses and notifications: superusers alone see them, read
only and without the confirmation token; they send a confirmation link again and failed
mails again, each through its service, and the mails go (Django's outbox)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from tournaments.models import MailAddress, Notification
from tournaments.services import mail as mail_service
from tournaments.services.errors import TournamentUserError

from .factories import UserFactory
from .test_mail import PARAMS, READY, confirmed_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

ADDRESSES = "/admin/tournaments/mailaddress/"
NOTIFICATIONS = "/admin/tournaments/notification/"


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def failed_notice(user: Any) -> Notification:
    return Notification.objects.create(user=user, kind=READY, key="table:7", params=PARAMS,
                                       link="/tables/7/", mail=Notification.Mail.FAILED,
                                       mail_tries=mail_service.MAIL_TRIES)


def test_a_superuser_reads_addresses_and_notifications_but_never_the_token(
        committed: Any) -> None:
    alice = confirmed_user(committed)
    committed(lambda: mail_service.mail_address_set(user=UserFactory(username="bo"),
                                                    email="bo@example.org", language="fi"))
    token = MailAddress.objects.get(email="bo@example.org").token
    notice = failed_notice(alice)
    client = logged_in(UserFactory(is_staff=True, is_superuser=True))
    listing = client.get(ADDRESSES).content.decode()
    assert "alice@example.org" in listing and "bo@example.org" in listing
    address = client.get(f"{ADDRESSES}{MailAddress.objects.get(user__username='bo').pk}"
                         "/change/").content.decode()
    assert "bo@example.org" in address and token not in address
    assert "Your table is ready: table 2, round 1 of Spring cup." in \
        client.get(NOTIFICATIONS).content.decode()
    page = client.get(f"{NOTIFICATIONS}{notice.pk}/change/")
    assert page.status_code == 200 and b"mailing failed" in page.content
    assert b'name="_save"' not in page.content  # read only


def test_an_organiser_sees_neither_and_changes_nothing(committed: Any) -> None:
    alice = confirmed_user(committed)
    notice = failed_notice(alice)
    client = logged_in(UserFactory(is_staff=True))
    assert b"Notifications" not in client.get("/admin/").content
    for url in (ADDRESSES, NOTIFICATIONS, f"{NOTIFICATIONS}{notice.pk}/change/"):
        assert client.get(url).status_code == 403
    answer = client.post(NOTIFICATIONS, {"action": "send_again",
                                         "_selected_action": [notice.pk]})
    assert answer.status_code == 403
    notice.refresh_from_db()
    assert notice.mail == Notification.Mail.FAILED and mail.outbox == []
    with pytest.raises(TournamentUserError, match="Only a superuser"):
        mail_service.mail_again(user=UserFactory(is_staff=True),
                                notification_ids=[notice.pk])


def test_a_superuser_sends_the_failed_mails_again(committed: Any) -> None:
    alice = confirmed_user(committed)
    notice = failed_notice(alice)
    sent = Notification.objects.create(user=alice, kind=READY, key="table:8", params=PARAMS,
                                       mail=Notification.Mail.SENT, mail_tries=1)
    client = logged_in(UserFactory(is_staff=True, is_superuser=True))
    answer = committed(lambda: client.post(NOTIFICATIONS, {
        "action": "send_again", "_selected_action": [notice.pk, sent.pk]}, follow=True))
    assert b"1 mail goes again." in answer.content
    notice.refresh_from_db()
    assert (notice.mail, notice.mail_tries) == (Notification.Mail.SENT, 1)
    (message,) = mail.outbox
    assert message.to == ["alice@example.org"] and "Spring cup" in str(message.body)
    again = committed(lambda: client.post(NOTIFICATIONS, {
        "action": "send_again", "_selected_action": [notice.pk]}, follow=True))
    assert b"nothing goes again" in again.content and len(mail.outbox) == 1


def test_a_superuser_sends_a_confirmation_link_again(committed: Any) -> None:
    bo = UserFactory()
    committed(lambda: mail_service.mail_address_set(user=bo, email="bo@example.org",
                                                    language="en"))
    address = MailAddress.objects.get(user=bo)
    old = address.token
    mail.outbox.clear()
    client = logged_in(UserFactory(is_staff=True, is_superuser=True))
    answer = committed(lambda: client.post(ADDRESSES, {
        "action": "resend_confirmation", "_selected_action": [address.pk]}, follow=True))
    assert b"The confirmation link goes to 1 address." in answer.content
    address.refresh_from_db()
    assert address.token != old
    (message,) = mail.outbox
    assert message.to == ["bo@example.org"] and address.token in str(message.body)
