"""The "Play now" form: the bots' level for a practice table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.bots import BOT_NAMES

from .texts import bot_label


def _bot_choices() -> list[tuple[str, str]]:
    return [(name, bot_label(name)) for name in BOT_NAMES]


class PlayNowForm(forms.Form):
    bot = forms.ChoiceField(label=_("Bots' level"), choices=_bot_choices, initial="greedy")
