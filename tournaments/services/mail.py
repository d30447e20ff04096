"""Mail: a person's address (confirmed before anything is mailed to it), which notifications
they want by mail, the one-click unsubscribe, and sending the notifications' mail.

**What is mailed.** Only to an address its owner confirmed by opening the link mailed to it
(at sign-up, and whenever the address changes); one address belongs to one account. A
notification is due for mail when it is written for an owner whose address takes its kind
(``notify``); it is sent by a worker (``tasks.send_notice_mails``, sent through the outbox
after the commit), never in a request.

**Sent once.** A worker claims a due mail by locking its notification's row (``SELECT ...
FOR UPDATE SKIP LOCKED``: a row another worker holds is theirs) and, holding the lock,
sends it and marks it sent, in the one transaction: two workers (or the task and the sweep)
given the same mail never both send it, and a mail marked sent is never sent again. A send
that fails leaves it due, its tries counted, for the sweep (``tasks.sweep``, every minute)
to try again, up to ``MAIL_TRIES``, then marks it failed (``manage.py health`` counts both).
The one case a mail may go twice: the mail server accepted it and the worker died (or its
database connection broke) before the commit; the row is then still due, and is sent again
with the same ``Message-ID`` (``<notice-ID.USER@site>``), by which a mail reader can tell the
copy.

**Unsubscribing.** Every notification's mail carries ``List-Unsubscribe`` (an https link
holding a signed token: the account and the kind, nothing stored, no login) and
``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058): a POST to that link turns
that kind's mail off; the body also links to turning all mail off.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.models import MailAddress, Notification
from tournaments.notice_words import notice_subject, notice_text
from tournaments.selectors.notices import safe_link

from . import followups
from .errors import TournamentUserError

log = logging.getLogger(__name__)

#: Sends a mail is tried before it is marked failed: the first, then one a sweep.
MAIL_TRIES = 5
#: A due mail younger than this is its own task's: the sweep leaves it to the task.
SWEEP_AFTER = timedelta(minutes=1)
#: A mail due for longer is reported by the health check: several sweeps failed to send it.
MAIL_LATE = timedelta(minutes=10)
#: Mails one sweep sends at most (a mail server that is down costs a timeout each).
SWEEP_BATCH = 100

_UNSUBSCRIBE_SALT = "tournaments.services.mail.unsubscribe"
_ALL = "all"


class MailRefused(TournamentUserError):
    code = "mail_refused"


def site_url(path: str) -> str:
    return settings.SITE_URL + path


# --- the address and its confirmation ---------------------------------------------------

def mail_address_set(*, user: User, email: str, language: str) -> MailAddress | None:
    """Make ``email`` the address ``user`` gets mail at (unconfirmed until the link mailed
    to it is opened; the mail is sent after the commit). The same address again changes
    nothing; an empty one removes the address. Refused (:class:`MailRefused`) for an
    address that is not one. An address another account has confirmed is answered alike
    (so nobody learns whose address is in use): its link is mailed, and only its owner,
    opening it, reads that it belongs to another account (:func:`mail_address_confirm`).

    The account's own e-mail (where a password reset goes) is only ever a confirmed
    address: a new one takes its place once confirmed; until then the one confirmed before
    stays (none, at sign-up), so a mistyped address never gets a reset link."""
    email = email.strip()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        current = MailAddress.objects.filter(user=user).first()
        if not email:
            if current is not None:
                current.delete()
            User.objects.filter(pk=user.pk).update(email="")
            return None
        try:
            validate_email(email)
        except Exception:  # noqa: BLE001 - ValidationError, worded below
            raise MailRefused(_("“%(email)s” is not an e-mail address: check it for typing "
                                "mistakes."), {"email": email}) from None
        if current is not None and current.email.lower() == email.lower():
            return current
        token = secrets.token_urlsafe(32)
        confirmed_before = current.email if current and current.confirmed else ""
        if current is None:
            current = MailAddress(user=user)
        current.email, current.token, current.confirmed = email, token, None
        current.language = language
        current.save()
        User.objects.filter(pk=user.pk).update(email=confirmed_before)
        followups.confirmation_mail_later(current.pk, token)
    return current


def _taken(email: str, user_id: int) -> bool:
    return (MailAddress.objects.filter(email__iexact=email, confirmed__isnull=False)
            .exclude(user_id=user_id).exists())


def mail_confirmation_resend(*, user: User) -> None:
    """Mail the confirmation link again (a new one: the old stops working)."""
    with transaction.atomic():
        address = MailAddress.objects.select_for_update().filter(user=user).first()
        if address is None or address.confirmed is not None:
            raise MailRefused(_("There is no address waiting for confirmation: give your "
                                "address first."))
        address.token = secrets.token_urlsafe(32)
        address.save(update_fields=["token"])
        followups.confirmation_mail_later(address.pk, address.token)


def mail_address_of_token(token: str) -> MailAddress:
    """The address a confirmation link is for, or :class:`MailRefused` saying why not."""
    address = MailAddress.objects.filter(token=token).exclude(token="").first() if (
        0 < len(token) <= 64) else None
    if address is None:
        raise MailRefused(_("This confirmation link is not valid: it was used already, or "
                            "a newer one was mailed. Ask for a new one on your e-mail "
                            "settings page."))
    return address


def mail_address_confirm(*, token: str) -> MailAddress:
    """Confirm the address the link of ``token`` was mailed to: from now on it gets the
    mail its owner chose. Refused when the link is not valid, or another account confirmed
    the same address meanwhile."""
    try:
        with transaction.atomic():
            address = mail_address_of_token(token)
            address = MailAddress.objects.select_for_update().get(pk=address.pk)
            if address.token != token:
                raise MailRefused(_("This confirmation link was replaced by a newer one: "
                                    "open the newest mail."))
            if _taken(address.email, address.user_id):
                raise MailRefused(_("%(email)s belongs to another account: an address gets "
                                    "the mail of one account only."), {"email": address.email})
            address.confirmed, address.token = timezone.now(), ""
            address.save(update_fields=["confirmed", "token"])
            User.objects.filter(pk=address.user_id).update(email=address.email)
    except IntegrityError:  # another account confirmed it at the same moment
        raise MailRefused(_("This address belongs to another account: an address gets the "
                            "mail of one account only.")) from None
    return address


def send_confirmation_mail(address_id: int, token: str) -> bool:
    """Mail the confirmation link, unless the address changed or was confirmed since."""
    address = MailAddress.objects.filter(pk=address_id, token=token).first()
    if address is None:
        return False
    link = site_url(reverse("mail_confirm", args=[token]))
    with translation.override(address.language):
        subject = _("Confirm your e-mail address for Push league")
        body = _("Someone, probably you, gave this address for the account %(user)s on "
                 "Push league. Open this link to confirm it, and to get the notifications "
                 "you chose by mail:\n\n%(link)s\n\nIf it was not you, ignore this mail: "
                 "nothing is mailed to an address that is not confirmed.") % {
            "user": address.user.get_username(), "link": link}
    EmailMessage(subject, body, to=[address.email]).send()
    return True


# --- what is mailed ---------------------------------------------------------------------

def mail_preferences_set(*, user: User, kinds: list[str], mail_off: bool,
                         language: str) -> MailAddress:
    """Which kinds of notification come by mail (``kinds``), or none at all."""
    known = set(Notification.Kind.values)
    unknown = [kind for kind in kinds if kind not in known]
    if unknown:
        raise MailRefused(_("There is no kind of notification called %(kind)s."),
                          {"kind": unknown[0]})
    address = MailAddress.objects.filter(user=user).first()
    if address is None:
        raise MailRefused(_("Give your e-mail address first: the choices are for the mail "
                            "sent to it."))
    address.kinds = sorted(set(kinds))
    address.mail_off, address.language = mail_off, language
    address.save(update_fields=["kinds", "mail_off", "language"])
    return address


def unsubscribe_token(user_id: int, kind: str | None) -> str:
    """The token of a link that turns off the mail of ``kind`` (None: all mail) for the
    account of ``user_id``: signed, so nobody else can make one; it never expires."""
    return signing.dumps({"u": user_id, "k": kind or _ALL}, salt=_UNSUBSCRIBE_SALT)


def unsubscribe_read(token: str) -> tuple[MailAddress, str | None]:
    """The address and kind (None: all mail) an unsubscribe link is for."""
    try:
        value: Any = signing.loads(token, salt=_UNSUBSCRIBE_SALT)
        user_id, kind = int(value["u"]), str(value["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise MailRefused(_("This unsubscribe link is not valid: check that the whole link "
                            "was copied, or change your mail on your e-mail settings "
                            "page.")) from None
    address = MailAddress.objects.filter(user_id=user_id).first()
    if address is None:
        raise MailRefused(_("This account has no e-mail address any more: nothing is "
                            "mailed to it."))
    return address, None if kind == _ALL else kind


def mail_unsubscribe(*, token: str) -> tuple[MailAddress, str | None]:
    """Turn off what an unsubscribe link names: one kind's mail, or all mail. Repeating it
    changes nothing."""
    address, kind = unsubscribe_read(token)
    with transaction.atomic():
        address = MailAddress.objects.select_for_update().get(pk=address.pk)
        if kind is None:
            address.mail_off = True
        else:
            address.kinds = [k for k in address.kinds if k != kind]
        address.save(update_fields=["kinds", "mail_off"])
    return address, kind


# --- sending ----------------------------------------------------------------------------

def send_notice_mails(*, key: str, user_ids: list[int]) -> int:
    """Send the due mails of the notifications of ``key`` to these users; how many went."""
    ids = list(Notification.objects.filter(key=key, user_id__in=user_ids,
                                           mail=Notification.Mail.DUE)
               .order_by("pk").values_list("pk", flat=True))
    return sum(send_notice_mail(pk) for pk in ids)


def mail_send_due(*, batch: int = SWEEP_BATCH) -> int:
    """The sweep: send the mails still due (a send that failed, a task that was lost),
    oldest first, at most ``batch``; how many went."""
    before = timezone.now() - SWEEP_AFTER
    ids = list(Notification.objects.filter(mail=Notification.Mail.DUE, created__lt=before)
               .order_by("created", "pk").values_list("pk", flat=True)[:batch])
    return sum(send_notice_mail(pk) for pk in ids)


def send_notice_mail(notification_id: int) -> bool:
    """Claim the notification's mail, send it and mark it sent, in one transaction (see the
    module's docstring); whether it went. One another worker holds, or no longer due, is
    left; one whose owner no longer wants it (or whose address changed) is dropped."""
    with transaction.atomic():
        notification = (Notification.objects.select_for_update(skip_locked=True)
                        .filter(pk=notification_id, mail=Notification.Mail.DUE).first())
        if notification is None:
            return False
        address = MailAddress.objects.filter(user_id=notification.user_id).first()
        if address is None or not address.wants(notification.kind):
            notification.mail = Notification.Mail.DROPPED
            notification.save(update_fields=["mail"])
            return False
        notification.mail_tries += 1
        try:
            notice_message(notification, address).send()
        except OSError as exc:  # smtplib's errors, a refused or broken connection
            failed = notification.mail_tries >= MAIL_TRIES
            log.warning("mailing notification %s failed (try %s of %s%s): %r",
                        notification.pk, notification.mail_tries, MAIL_TRIES,
                        ", given up" if failed else "", exc)
            if failed:
                notification.mail = Notification.Mail.FAILED
            notification.save(update_fields=["mail", "mail_tries"])
            return False
        notification.mail, notification.mailed = Notification.Mail.SENT, timezone.now()
        notification.save(update_fields=["mail", "mail_tries", "mailed"])
        return True


def message_id(notification: Notification) -> str:
    """The mail's Message-ID, the same for every send of it."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"<notice-{notification.pk}.{notification.user_id}@{domain}>"


def notice_message(notification: Notification, address: MailAddress) -> EmailMessage:
    """The mail of a notification: its words and link, in its owner's language, with the
    one-click unsubscribe of its kind."""
    kind_off = site_url(reverse("mail_unsubscribe",
                                args=[unsubscribe_token(address.user_id, notification.kind)]))
    all_off = site_url(reverse("mail_unsubscribe",
                               args=[unsubscribe_token(address.user_id, None)]))
    link = safe_link(notification.link)
    with translation.override(address.language):
        text = notice_text(notification.kind, notification.params)
        lines = [text, ""]
        if link:
            lines += [site_url(link), ""]
        lines += ["-- ",
                  _("You get this mail because you chose this kind of notification on "
                    "Push league. Choose what comes by mail: %(settings)s")
                  % {"settings": site_url(reverse("mail_settings"))},
                  _("No more mail of this kind: %(link)s") % {"link": kind_off},
                  _("No more mail at all: %(link)s") % {"link": all_off}]
        subject = notice_subject(notification.kind, notification.params)
    return EmailMessage(subject, "\n".join(lines), to=[address.email], headers={
        "Message-ID": message_id(notification),
        "List-Unsubscribe": f"<{kind_off}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
    })


def mail_again(*, user: User, notification_ids: list[int]) -> int:
    """An operator's second chance for mails that failed for good (the mail server was down
    for long, say): due again with fresh tries, sent by a task after the commit; how many.
    A superuser's step: the mails are the players' own."""
    if not user.is_superuser:
        raise TournamentUserError(_("Only a superuser may send the players' mail again."))
    with transaction.atomic():
        failed = list(Notification.objects.select_for_update()
                      .filter(pk__in=notification_ids, mail=Notification.Mail.FAILED)
                      .order_by("pk").values_list("pk", "key", "user_id"))
        Notification.objects.filter(pk__in=[pk for pk, _key, _user in failed]).update(
            mail=Notification.Mail.DUE, mail_tries=0)
        by_key: dict[str, list[int]] = {}
        for _pk, key, user_id in failed:
            by_key.setdefault(key, []).append(user_id)
        if by_key:
            followups.notice_mails_later(sorted(by_key.items()))
    return len(failed)


def mail_queue() -> dict[str, int]:
    """The mail queue's length, for the health check: the mails due, those of them due for
    longer than ``MAIL_LATE`` (the sweep has tried them several times), and those that
    failed for good (``MAIL_TRIES`` sends failed)."""
    due = Notification.objects.filter(mail=Notification.Mail.DUE)
    return {"due": due.count(),
            "late": due.filter(created__lt=timezone.now() - MAIL_LATE).count(),
            "failed": Notification.objects.filter(mail=Notification.Mail.FAILED).count()}
