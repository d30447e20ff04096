"""The "Play now" form: the bots' level for a practice table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.vocabulary import bot_picker_choices


class PlayNowForm(forms.Form):
    bot = forms.ChoiceField(label=_("Bots' level"), choices=bot_picker_choices, initial="greedy")


class FriendsForm(forms.Form):
    """A table for friends: the host's seat, who plays each other seat (counted from it,
    R1.1), the bots' level, and whether it starts by itself."""

    FRIEND, BOT = "friend", "bot"
    WHO = [(FRIEND, _("a friend")), (BOT, _("a bot"))]
    #: each other seat's field, and its place from the host's seat
    OTHERS = {"partner": 2, "left": 1, "right": 3}

    seat = forms.TypedChoiceField(label=_("Your seat"), coerce=int, initial=0,
                                  choices=[(s, s) for s in range(4)],
                                  widget=forms.Select(attrs={"aria-describedby": "id_seat-help"}),
                                  help_text=_("Seats 0 and 2 are partners, as are 1 and 3."))
    partner = forms.ChoiceField(label=_("Your partner"), choices=WHO, initial=FRIEND)
    left = forms.ChoiceField(label=_("Left opponent"), choices=WHO, initial=BOT)
    right = forms.ChoiceField(label=_("Right opponent"), choices=WHO, initial=BOT)
    bot = forms.ChoiceField(label=_("Bots' level"), choices=bot_picker_choices, initial="greedy")
    auto_start = forms.BooleanField(
        label=_("Start by itself once every friend has taken their seat"), required=False,
        initial=True)

    def friend_seats(self) -> set[int]:
        """The seats kept for friends (of a valid form)."""
        seat: int = self.cleaned_data["seat"]
        return {(seat + offset) % 4 for name, offset in self.OTHERS.items()
                if self.cleaned_data[name] == self.FRIEND}

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if all(data.get(name) == self.BOT for name in self.OTHERS):
            raise forms.ValidationError(_("Keep at least one of the other seats for a friend "
                                          "(to play only against bots, use Play now)."))
        return data
