"""The words of the live table's chat and its seats' presence (``static/live/chat.js``,
``presence.js``), merged into the page's messages, translated here so the scripts hold
no word of their own."""

from __future__ import annotations

from django.utils.translation import gettext as _


def chat_messages() -> dict[str, str]:
    """The messages ``static/live/chat.js`` and ``presence.js`` put together."""
    return {
        "chat_you": _("you"),
        "chat_mute": _("Mute"),
        "chat_mute_label": _("Mute {name}: hide their messages on this browser"),
        "chat_unmute": _("Unmute {name}"),
        "chat_report": _("Report"),
        "chat_report_label": _("Report this message of {name} to the organisers"),
        "chat_reported": _("Reported to the organisers."),
        "chat_muted": _("Muted:"),
        "chat_refused": _("Not sent: {message}"),
        "presence_connected": _("connected"),
        "presence_away": _("away"),
        "presence_gone": _("gone"),
        "presence_lag": _("{ms} ms"),
    }
