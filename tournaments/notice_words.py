"""What a notification says: its kind's sentence, filled from its ``params``, in the active
language (database-free: the page, the websocket push and the mail all word a notification
here, so the three never differ).

The services that tell (``services.notices.notify``) give these ``params``; any may be
missing, and a missing one reads as "?" rather than failing (a notification written by an
older version of a service still shows):

- ``tournament``: the tournament's name; ``round``: a round's number; ``table``: a table's
  number
- PARTNER_ASKS: ``partner``, who asks
- ENTRY: ``status``, one of ``accepted``, ``waiting``, ``refused``, ``declined`` (with
  ``partner_handle``), ``withdrawn`` (told to the partner of the one who withdrew),
  ``awaiting``; ``team``
- CHECK_IN: ``round``
- TABLE_READY, SUBSTITUTED: ``round``, ``table``
- CONFIRM_RESULT: ``team``, who entered it; ``round``
- ENDED: ``what``, ``round`` (with ``round``) or ``tournament``
- DIVISION: ``team``, ``direction`` (``up`` or ``down``), ``division`` (its level),
  ``season``, ``league``
- WEBHOOK_DISABLED: ``url``, the subscription's; ``reason``, why it was disabled
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

#: The kinds whose link is where the reader must go now: the page shows it prominently.
PROMINENT = frozenset({"table_ready"})


class _Params(dict[str, Any]):
    """``params`` as ``%`` reads them: a missing one reads as "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


def notice_text(kind: str, params: Mapping[str, Any]) -> str:
    """The sentence of a notification of ``kind`` with ``params``, in the active language."""
    values = _Params(params)
    if kind == "partner_asks":
        return _("%(partner)s asks you to enter %(tournament)s with them.") % values
    if kind == "entry":
        status = values.get("status")
        if status == "accepted":
            return _("The entry of %(team)s to %(tournament)s is accepted.") % values
        if status == "waiting":
            return _("The entry of %(team)s to %(tournament)s is on the waiting list.") % values
        if status == "refused":
            return _("The entry of %(team)s to %(tournament)s was refused.") % values
        if status == "declined":
            return _("%(partner_handle)s declined to enter %(tournament)s with you.") % values
        if status == "withdrawn":
            return _("Your partner withdrew your entry to %(tournament)s.") % values
        if status == "awaiting":
            return _("Your entry to %(tournament)s waits for the organisers' "
                     "approval.") % values
        return _("The entry of %(team)s to %(tournament)s has changed.") % values
    if kind == "check_in":
        return _("Check-in for round %(round)s of %(tournament)s is open: check in to "
                 "keep your seat.") % values
    if kind == "table_ready":
        return _("Your table is ready: table %(table)s, round %(round)s of "
                 "%(tournament)s.") % values
    if kind == "substituted":
        return _("A bot took your seat at table %(table)s in round %(round)s of "
                 "%(tournament)s.") % values
    if kind == "confirm_result":
        return _("%(team)s entered the result of your match in round %(round)s of "
                 "%(tournament)s: confirm it, or dispute it.") % values
    if kind == "ended":
        if values.get("what") == "round":
            return _("Round %(round)s of %(tournament)s has ended.") % values
        return _("%(tournament)s has ended: see the final standings.") % values
    if kind == "division":
        if values.get("direction") == "up":
            return _("%(team)s goes up to division %(division)s in %(season)s of "
                     "%(league)s.") % values
        return _("%(team)s goes down to division %(division)s in %(season)s of "
                 "%(league)s.") % values
    if kind == "webhook_disabled":
        return _("Your webhook to %(url)s was disabled: %(reason)s. Mend its receiver, "
                 "then enable it again in the admin.") % values
    return _("You have a new notification.")


def notice_subject(kind: str, params: Mapping[str, Any]) -> str:
    """A mail's subject line for a notification: short, and naming the tournament."""
    values = _Params(params)
    subjects = {
        "partner_asks": _("A partner asks you to enter %(tournament)s"),
        "entry": _("Your entry to %(tournament)s"),
        "check_in": _("Check-in is open: %(tournament)s"),
        "table_ready": _("Your table is ready: %(tournament)s, round %(round)s"),
        "substituted": _("A bot took your seat: %(tournament)s, round %(round)s"),
        "confirm_result": _("Confirm a result: %(tournament)s, round %(round)s"),
        "ended": (_("Round %(round)s of %(tournament)s has ended")
                  if values.get("what") == "round" else _("%(tournament)s has ended")),
        "division": _("%(team)s changes division"),
        "webhook_disabled": _("Your webhook was disabled"),
    }
    subject = subjects.get(kind)
    return subject % values if subject is not None else _("A notification from Push league")
