"""A person's private calendar feed: the secret in its address, which they may replace."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_calendar_token() -> str:
    return secrets.token_urlsafe(24)


class CalendarKey(models.Model):
    """The secret of ``user``'s calendar address (``/calendar/<token>.ics``): whoever has
    the address reads the feed, so a new token makes the old address answer nothing."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="calendar_key", verbose_name=_("user"))
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_calendar_token)

    class Meta:
        verbose_name = _("calendar address")
        verbose_name_plural = _("calendar addresses")

    def __str__(self) -> str:
        return str(self.user)
