"""The two ways an organiser enters a match's result: a game record, or a score sheet."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import HANDS_PER_GAME, score_sheet_errors
from tournaments import services
from tournaments.models import Match

MAX_RECORD_BYTES = 2_000_000  # a whole game's record is well under 100 kB
RULE = re.compile(r"^(R\d+\.\d+)")


def rejection_message(exc: services.ResultRejected) -> str:
    """What an organiser reads when a record is refused: where, which rule, and why."""
    if exc.hand is not None:
        rule = RULE.match(exc.reason)
        return _("Illegal game record at hand %(hand)s, action %(action)s (rule %(rule)s): "
                 "%(reason)s. Nothing was stored.") % {
            "hand": exc.hand, "action": exc.action,
            "rule": rule.group(1) if rule else "?", "reason": exc.reason}
    if exc.status == "malformed":
        return _("Malformed game record: %s. Nothing was stored.") % exc.reason
    return _("%s. Nothing was stored.") % exc.reason


class RecordUploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("record file"), required=False,
                           help_text=gettext_lazy("a push-record/1 JSON file"))
    text = forms.CharField(label=gettext_lazy("or paste the record"), required=False,
                           widget=forms.Textarea(attrs={"rows": 12, "cols": 90}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload, text = data.get("file"), (data.get("text") or "").strip()
        if bool(upload) == bool(text):
            raise forms.ValidationError(_("Give the record either as a file or as pasted "
                                          "text."))
        if upload:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("The file is larger than a game record can be "
                                              "(%d bytes at most).") % MAX_RECORD_BYTES)
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        data["record"] = text
        return data


class HandForm(forms.Form):
    team_a = forms.IntegerField(min_value=0, max_value=10_000)
    team_b = forms.IntegerField(min_value=0, max_value=10_000)
    out_seat = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team_a"].label = _("%s (team 0: seats 0 and 2)") % match.team_a
        team_b = match.team_b or _("bot team")
        self.fields["team_b"].label = _("%s (team 1: seats 1 and 3)") % team_b
        self.fields["out_seat"].label = _("went out")
        self.fields["out_seat"].choices = [("", _("nobody (the stock ran out)"))] + [
            (seat.position, f"{_('seat')} {seat.position}: {seat}")
            for seat in match.seats.all()]


class BaseScoreSheet(forms.BaseFormSet):
    """Five hands; what no game of Push could produce is refused hand by hand (R9.1)."""

    def clean(self) -> None:
        if any(form.errors for form in self.forms):
            return
        rows = [form.cleaned_data for form in self.forms]
        for error in score_sheet_errors(*self.sheet(rows)):
            if error.hand is not None and error.hand <= len(self.forms):
                self.forms[error.hand - 1].add_error(None, error.message(_))
            else:
                raise forms.ValidationError(error.located(_))

    @staticmethod
    def sheet(rows: list[dict[str, Any]]) -> tuple[list[list[int]], list[int | None]]:
        return ([[row["team_a"], row["team_b"]] for row in rows],
                [row.get("out_seat") for row in rows])

    def cleaned_sheet(self) -> tuple[list[list[int]], list[int | None]]:
        return self.sheet([form.cleaned_data for form in self.forms])


ScoreSheetFormSet = forms.formset_factory(HandForm, formset=BaseScoreSheet, extra=0,
                                          min_num=HANDS_PER_GAME, max_num=HANDS_PER_GAME,
                                          validate_min=True, validate_max=True)
