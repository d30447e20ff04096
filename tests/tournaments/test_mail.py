"""Notifications by mail: only to an address its owner confirmed (at sign-up, or when it
changes), one address for one account, only the kinds its owner chose; every mail with a
one-click unsubscribe (RFC 8058) that needs no login; a send that fails is tried again by
the sweep, up to a limit; the health check counts the queue."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from tests.mail_backends import FailingBackend
from tournaments.models import MailAddress, Notification
from tournaments.services import mail as mail_service
from tournaments.services.health import health_report
from tournaments.services.notices import notify

from .factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

READY = Notification.Kind.TABLE_READY
PARAMS = {"tournament": "Spring cup", "round": 1, "table": 2}


def link_in(message: mail.EmailMessage, pattern: str) -> str:
    found = re.search(r"https?://\S*" + pattern + r"\S*", str(message.body))
    assert found, message.body
    return found[0]


def path_of(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def confirmed_user(committed: Callable[..., Any], email: str = "alice@example.org") -> Any:
    user = UserFactory()
    committed(lambda: mail_service.mail_address_set(user=user, email=email, language="en"))
    token = MailAddress.objects.get(user=user).token
    mail_service.mail_address_confirm(token=token)
    mail.outbox.clear()
    return user


def test_signing_up_mails_a_link_that_confirms_the_address(committed: Any) -> None:
    client = Client()
    committed(lambda: client.post("/accounts/signup/", {
        "username": "aino", "email": "Aino@Example.org", "password1": "a-long-pass-123",
        "password2": "a-long-pass-123"}))
    address = MailAddress.objects.get(user__username="aino")
    assert address.confirmed is None and address.user.email == ""
    (message,) = mail.outbox
    assert message.to == ["Aino@Example.org"]
    link = path_of(link_in(message, "/accounts/mail/confirm/"))
    page = Client().get(link)  # a mail reader opening the link confirms nothing
    assert page.status_code == 200 and b"Confirm" in page.content
    address.refresh_from_db()
    assert address.confirmed is None
    assert Client().post(link).status_code == 200
    address.refresh_from_db()
    assert address.confirmed is not None and address.token == ""
    assert User.objects.get(pk=address.user_id).email == "Aino@Example.org"
    assert Client().post(link).status_code == 400  # used


def test_an_unconfirmed_address_gets_nothing(committed: Any) -> None:
    user = UserFactory()
    committed(lambda: mail_service.mail_address_set(user=user, email="a@example.org",
                                                    language="en"))
    mail.outbox.clear()
    committed(lambda: notify([user], READY, "table:1", params=PARAMS, link="/tables/1/"))
    assert mail.outbox == []
    assert Notification.objects.get(user=user).mail == Notification.Mail.NONE


def test_a_confirmed_address_gets_the_mail_once_with_its_headers(committed: Any) -> None:
    user = confirmed_user(committed)
    committed(lambda: notify([user], READY, "table:1", params=PARAMS, link="/tables/1/"))
    committed(lambda: notify([user], READY, "table:1", params=PARAMS, link="/tables/1/"))
    (message,) = mail.outbox
    notification = Notification.objects.get(user=user)
    assert notification.mail == Notification.Mail.SENT and notification.mail_tries == 1
    assert message.subject == "Your table is ready: Spring cup, round 1"
    assert "Your table is ready: table 2, round 1 of Spring cup." in message.body
    assert "http://localhost:8000/tables/1/" in message.body
    headers = message.extra_headers
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.fullmatch(r"<http://localhost:8000/mail/unsubscribe/\S+/>",
                        headers["List-Unsubscribe"])
    assert headers["Message-ID"] == f"<notice-{notification.pk}.{user.pk}@localhost>"
    assert mail_service.send_notice_mail(notification.pk) is False  # sent: never again
    assert len(mail.outbox) == 1


def test_the_mail_is_in_its_owners_language(committed: Any) -> None:
    user = confirmed_user(committed)
    MailAddress.objects.filter(user=user).update(language="fi")
    committed(lambda: notify([user], READY, "table:1", params=PARAMS))
    assert "Pöytäsi on valmis: pöytä 2, turnauksen Spring cup kierros 1." in mail.outbox[0].body


def test_only_the_kinds_chosen_come_by_mail(committed: Any) -> None:
    user = confirmed_user(committed)
    client = Client()
    client.force_login(user)
    client.post("/accounts/mail/", {"email": "alice@example.org",
                                    "kinds": [Notification.Kind.ENDED]})
    assert MailAddress.objects.get(user=user).kinds == [Notification.Kind.ENDED]
    committed(lambda: notify([user], READY, "table:1", params=PARAMS))
    committed(lambda: notify([user], Notification.Kind.ENDED, "round-ended:1",
                             params={**PARAMS, "what": "round"}))
    assert [m.subject for m in mail.outbox] == ["Round 1 of Spring cup has ended"]
    client.post("/accounts/mail/", {"email": "alice@example.org",
                                    "kinds": [Notification.Kind.ENDED], "mail_off": "on"})
    committed(lambda: notify([user], Notification.Kind.ENDED, "round-ended:2",
                             params={**PARAMS, "what": "round"}))
    assert len(mail.outbox) == 1


def test_one_click_unsubscribe_turns_that_kind_off_without_a_login(committed: Any) -> None:
    user = confirmed_user(committed)
    committed(lambda: notify([user], READY, "table:1", params=PARAMS))
    url = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    asked = Client().get(path_of(url))
    assert asked.status_code == 200 and b"Unsubscribe" in asked.content
    assert READY in MailAddress.objects.get(user=user).kinds  # asking changes nothing
    # a mail reader's one-click POST: no login, no CSRF token
    response = Client(enforce_csrf_checks=True).post(
        path_of(url), "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    address = MailAddress.objects.get(user=user)
    assert READY not in address.kinds and Notification.Kind.ENDED in address.kinds
    assert not address.mail_off
    committed(lambda: notify([user], READY, "table:2", params=PARAMS))
    assert len(mail.outbox) == 1


def test_the_all_mail_link_turns_all_mail_off(committed: Any) -> None:
    user = confirmed_user(committed)
    committed(lambda: notify([user], READY, "table:1", params=PARAMS))
    # the body's last link: no more mail at all
    url = re.findall(r"http://\S+/mail/unsubscribe/\S+/", str(mail.outbox[0].body))[-1]
    assert Client().post(path_of(url)).status_code == 200
    assert MailAddress.objects.get(user=user).mail_off
    committed(lambda: notify([user], Notification.Kind.ENDED, "round-ended:1",
                             params={**PARAMS, "what": "round"}))
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("token", ["nonsense", "e30:1abcde:forged"])
def test_a_forged_unsubscribe_link_is_refused_and_changes_nothing(token: str) -> None:
    for method in ("get", "post"):
        response = getattr(Client(), method)(f"/mail/unsubscribe/{token}/")
        assert response.status_code == 400
        assert b"not valid" in response.content


def test_one_address_belongs_to_one_account(committed: Any) -> None:
    owner = confirmed_user(committed, "shared@example.org")
    other = UserFactory()
    # answered as any address (nobody learns whose address is in use): only the address's
    # owner, opening the link mailed to it, reads that it belongs to another account
    committed(lambda: mail_service.mail_address_set(user=other, email="SHARED@example.org",
                                                    language="en"))
    (message,) = mail.outbox
    assert message.to == ["SHARED@example.org"]
    with pytest.raises(mail_service.MailRefused, match="belongs to another account"):
        mail_service.mail_address_confirm(token=MailAddress.objects.get(user=other).token)
    assert MailAddress.objects.get(user=other).confirmed is None
    assert MailAddress.objects.get(user=owner).confirmed is not None
    other.refresh_from_db()
    assert other.email == ""
    # an address given but never confirmed blocks no one: the first to confirm it has it
    third = UserFactory()
    committed(lambda: mail_service.mail_address_set(user=third, email="new@example.org",
                                                    language="en"))
    committed(lambda: mail_service.mail_address_set(user=other, email="New@example.org",
                                                    language="en"))
    mail_service.mail_address_confirm(token=MailAddress.objects.get(user=other).token)
    with pytest.raises(mail_service.MailRefused, match="belongs to another account"):
        mail_service.mail_address_confirm(token=MailAddress.objects.get(user=third).token)
    assert MailAddress.objects.get(user=third).confirmed is None


def test_changing_the_address_needs_it_confirmed_again(committed: Any) -> None:
    user = confirmed_user(committed)
    client = Client()
    client.force_login(user)
    committed(lambda: client.post("/accounts/mail/", {"email": "new@example.org",
                                                      "kinds": [READY]}))
    address = MailAddress.objects.get(user=user)
    assert address.email == "new@example.org" and address.confirmed is None
    assert mail.outbox[0].to == ["new@example.org"]
    committed(lambda: notify([user], READY, "table:1", params=PARAMS))
    assert len(mail.outbox) == 1  # the confirmation only
    page = client.post("/accounts/mail/", {"email": "not an address"})
    assert page.status_code == 200 and b"Enter a valid email address" in page.content


@pytest.fixture
def failing(settings: Any) -> Iterator[type[FailingBackend]]:
    settings.EMAIL_BACKEND = "tests.mail_backends.FailingBackend"
    yield FailingBackend
    FailingBackend.failures = 0


def due_now() -> None:
    """The sweep leaves a mail younger than a minute to its task: make them older."""
    from datetime import timedelta

    from django.utils import timezone
    Notification.objects.update(created=timezone.now() - timedelta(minutes=2))


def test_a_failed_send_stays_due_and_the_sweep_sends_it(
        committed: Any, failing: type[FailingBackend]) -> None:
    user = confirmed_user(committed)
    failing.failures = 2
    committed(lambda: notify([user], READY, "table:1", params=PARAMS))
    notification = Notification.objects.get(user=user)
    assert (notification.mail, notification.mail_tries) == (Notification.Mail.DUE, 1)
    assert mail.outbox == []
    assert mail_service.mail_send_due() == 0  # too young: its task's still
    due_now()
    assert health_report()["mail"] == {"due": 1, "late": 0, "failed": 0}
    assert mail_service.mail_send_due() == 0  # the second failure
    assert mail_service.mail_send_due() == 1
    assert mail_service.mail_send_due() == 0
    notification.refresh_from_db()
    assert (notification.mail, notification.mail_tries) == (Notification.Mail.SENT, 3)
    assert len(mail.outbox) == 1


def test_a_mail_that_keeps_failing_is_given_up_and_counted(
        committed: Any, failing: type[FailingBackend]) -> None:
    user = confirmed_user(committed)
    failing.failures = 100
    committed(lambda: notify([user], READY, "table:1", params=PARAMS))
    due_now()
    for _ in range(10):
        mail_service.mail_send_due()
    notification = Notification.objects.get(user=user)
    assert notification.mail == Notification.Mail.FAILED
    assert notification.mail_tries == mail_service.MAIL_TRIES
    assert health_report()["mail"] == {"due": 0, "late": 0, "failed": 1}
    assert mail.outbox == []


def test_the_accounts_own_address_is_only_ever_a_confirmed_one(committed: Any) -> None:
    """Where a password reset goes: a new address only once it is confirmed, so a mistyped
    one never gets a reset link; until then the address confirmed before."""
    client = Client()
    committed(lambda: client.post("/accounts/signup/", {
        "username": "carol", "email": "carol@example.org",
        "password1": "a long pass phrase 42", "password2": "a long pass phrase 42"}))
    carol = User.objects.get(username="carol")
    assert carol.email == ""
    mail_service.mail_address_confirm(token=MailAddress.objects.get(user=carol).token)
    carol.refresh_from_db()
    assert carol.email == "carol@example.org"
    committed(lambda: mail_service.mail_address_set(user=carol, email="carol@exampel.org",
                                                    language="en"))
    carol.refresh_from_db()
    assert carol.email == "carol@example.org"  # the typo is not confirmed
    mail_service.mail_address_confirm(token=MailAddress.objects.get(user=carol).token)
    carol.refresh_from_db()
    assert carol.email == "carol@exampel.org"
    mail_service.mail_address_set(user=carol, email="", language="en")
    carol.refresh_from_db()
    assert carol.email == "" and not MailAddress.objects.filter(user=carol).exists()
