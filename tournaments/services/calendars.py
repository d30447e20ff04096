"""A person's private calendar address: made, or replaced by a new one, when they ask."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from config.users import RequestUser
from tournaments.models import CalendarKey
from tournaments.models.calendars import new_calendar_token


def calendar_key_renew(*, user: RequestUser) -> CalendarKey:
    """A new secret for ``user``'s calendar address (the first, if they had none)."""
    if user.pk is None:
        raise PermissionDenied(_("Log in to have a calendar address."))
    key, _made = CalendarKey.objects.update_or_create(
        user_id=user.pk, defaults={"token": new_calendar_token()})
    return key
