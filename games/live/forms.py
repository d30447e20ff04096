"""The "Play now" form: the bots' level for a practice table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.vocabulary import bot_picker_choices


class PlayNowForm(forms.Form):
    bot = forms.ChoiceField(label=_("Bots' level"), choices=bot_picker_choices, initial="greedy")
