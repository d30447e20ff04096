"""A person's e-mail address for the platform's mail, and which notifications they want by
mail. Mail goes only to an address its owner confirmed (``services.mail``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .notices import Notification


def every_kind() -> list[str]:
    """A new address gets every kind of notification by mail, until its owner says less."""
    return [str(kind) for kind in Notification.Kind.values]


class MailAddress(models.Model):
    """The address ``user`` gets mail at. ``token`` is the secret of the confirmation link
    mailed to it (empty once confirmed); ``confirmed`` is when its owner opened that link.
    One address belongs to one account: among confirmed addresses it is unique, whatever
    its letters' case (an unconfirmed one proves nothing, so it blocks no one)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="mail_address", verbose_name=_("user"))
    email = models.EmailField(_("e-mail address"))
    token = models.CharField(_("confirmation token"), max_length=64, blank=True)
    confirmed = models.DateTimeField(_("confirmed"), null=True, blank=True)
    #: the kinds of notification mailed (``Notification.Kind`` values)
    kinds = models.JSONField(_("kinds mailed"), default=every_kind, blank=True)
    mail_off = models.BooleanField(_("no mail at all"), default=False)
    #: the language the mail is written in: the one its owner used the site in when they
    #: gave the address or changed their choices
    language = models.CharField(_("language"), max_length=10, default="en")

    class Meta:
        verbose_name = _("e-mail address")
        verbose_name_plural = _("e-mail addresses")
        constraints = [models.UniqueConstraint(
            Lower("email"), condition=models.Q(confirmed__isnull=False),
            name="mail_address_one_account")]

    def __str__(self) -> str:
        return self.email

    def wants(self, kind: str) -> bool:
        """Whether a notification of ``kind`` goes to this address by mail."""
        return self.confirmed is not None and not self.mail_off and kind in self.kinds
