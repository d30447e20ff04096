"""The tournament page's entry section: the entry window, the places, the player's own
state and the form to enter with a partner (``views.entries`` takes its posts)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player, Tournament
from tournaments.models.core import HANDLE_LENGTH
from tournaments.selectors.entries import (
    entries_open_now,
    entry_counts,
    player_entry_state,
    takes_entries,
)


class EnterForm(forms.Form):
    partner = forms.CharField(
        label=_("Your partner's handle"), max_length=HANDLE_LENGTH + 1,
        help_text=_("As their player page shows it after the @, e.g. aino."))


def entry_context(request: HttpRequest, tournament: Tournament, *,
                  form: EnterForm | None = None, error: str = "") -> dict[str, Any]:
    """What the tournament page shows of entering: nothing for an invite-only tournament."""
    if not takes_entries(tournament):
        return {"entries_taken": False}
    player = (Player.objects.filter(user_id=request.user.pk).first()
              if request.user.is_authenticated else None)
    return {"entries_taken": True, "entries_open_now": entries_open_now(tournament),
            "entry_counts": entry_counts(tournament), "entry_player": player,
            "entry_state": player_entry_state(tournament, player),
            "enter_form": form or EnterForm(), "entry_error": error}
