"""The admin's own forms: the two ways an organiser enters a match's result (a game record,
or a score sheet), the reason for ending a live table, the tournament form's ordered
tie-breaks, a pairing to avoid, and inline formsets whose errors read as sentences."""

from __future__ import annotations

import re
from copy import copy
from typing import Any, TypeVar, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Field, Model
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import HANDS_PER_GAME, score_sheet_errors
from tournaments import selectors, services
from tournaments.formats.registry import unread_settings
from tournaments.models import Absence, CheckIn, ForbiddenPairing, Match, Tournament
from tournaments.standings import TIEBREAKS

_Row = TypeVar("_Row", bound=Absence | CheckIn)
_Child = TypeVar("_Child", bound=Model)
_Parent = TypeVar("_Parent", bound=Model)

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
    if exc.verdict == "malformed":
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
    """A hand's penalty points for each team, and who went out: the team that went out
    scores 0 (R9.1), so its box may be left empty; the other team's points are needed."""

    team_a = forms.IntegerField(min_value=0, max_value=10_000, required=False)
    team_b = forms.IntegerField(min_value=0, max_value=10_000, required=False)
    out_seat = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        team_a, team_b = selectors.side_names(match)
        self.fields["team_a"].label = _("%s (team 0: seats 0 and 2)") % team_a
        self.fields["team_b"].label = _("%s (team 1: seats 1 and 3)") % team_b
        self.fields["out_seat"].label = _("went out")
        out_seat = self.fields["out_seat"]
        assert isinstance(out_seat, forms.ChoiceField)
        out_seat.choices = [("", _("nobody (the stock ran out)"))] + [
            (seat.position, f"{_('seat')} {seat.position}: {seat}")
            for seat in match.seats.all()]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        out = data.get("out_seat")
        for team, field in enumerate(("team_a", "team_b")):
            if data.get(field) is not None or field in self.errors:
                continue
            if out is not None and out % 2 == team:
                data[field] = 0  # the team that went out (R9.1)
            else:
                self.add_error(field, _("Enter this team's penalty points."))
        return data


class BaseScoreSheet(forms.BaseFormSet[HandForm]):
    """Five hands; what no game of Push could produce is refused hand by hand (R9.1)."""

    default_error_messages = {
        "too_few_forms": gettext_lazy("Enter the scores of all %(num)d hands (R2.4)."),
        "too_many_forms": gettext_lazy("A game has %(num)d hands (R2.4): enter no more."),
    }

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        kwargs["form_kwargs"] = {**kwargs.get("form_kwargs", {}), "match": match}
        super().__init__(*args, **kwargs)
        self.teams = selectors.side_names(match)  # the errors name the teams

    def clean(self) -> None:
        if any(form.errors for form in self.forms):
            return
        rows = [form.cleaned_data for form in self.forms]
        for error in score_sheet_errors(*self.sheet(rows)):
            if error.hand is not None and error.hand <= len(self.forms):
                self.forms[error.hand - 1].add_error(None, error.message(_, self.teams))
            else:
                raise forms.ValidationError(error.located(_, self.teams))

    @staticmethod
    def sheet(rows: list[dict[str, Any]]) -> tuple[list[list[int]], list[int | None]]:
        return ([[row["team_a"], row["team_b"]] for row in rows],
                [row.get("out_seat") for row in rows])

    def cleaned_sheet(self) -> tuple[list[list[int]], list[int | None]]:
        return self.sheet([form.cleaned_data for form in self.forms])


# a subclass of BaseScoreSheet, which the stubs' formset_factory types as the base formset
ScoreSheetFormSet = cast(type[BaseScoreSheet], forms.formset_factory(
    HandForm, formset=BaseScoreSheet, extra=0, min_num=HANDS_PER_GAME, max_num=HANDS_PER_GAME,
    validate_min=True, validate_max=True))


class EndTableForm(forms.Form):
    """Why an organiser ends a match's live table (with the score sheet they decide)."""

    reason = forms.CharField(
        label=gettext_lazy("why the table is ended"), max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text=gettext_lazy("Required; shown with the result, on the public match page "
                               "too."))


class OrderedChoicesWidget(forms.MultiWidget):
    """One menu per place: the first tie-break, the second, ... (each may stay empty)."""

    # an app template, where Django's form renderer looks
    template_name = "tournaments/widgets/ordered_choices.html"

    def __init__(self, choices: list[tuple[str, Any]], places: int) -> None:
        super().__init__([forms.Select(choices=choices, attrs={"aria-label": place})
                          for place in ordinal_labels(places)])

    def decompress(self, value: Any) -> list[str]:
        keys = list(value) if isinstance(value, list | tuple) else []
        return keys + [""] * (len(self.widgets) - len(keys))


def _ordinal(place: int) -> str:
    return _("tie-break %(place)d") % {"place": place}


def ordinal_labels(places: int) -> list[Any]:
    """"tie-break 1", "tie-break 2", ... in the language of the page (lazy: the form's
    fields are made once, when the module is imported)."""
    return [lazy(_ordinal, str)(place) for place in range(1, places + 1)]


class TiebreakField(forms.MultiValueField):
    """The tournament's tie-breaks, in order, chosen from the metric registry
    (``standings.TIEBREAKS``): a list of keys, each at most once, gaps closed up."""

    def __init__(self, **kwargs: Any) -> None:
        choices = [("", "—")] + [(key, format_lazy("{} ({})", metric.name, key))
                                 for key, metric in TIEBREAKS.items()]
        places = len(TIEBREAKS)
        super().__init__(
            fields=[forms.ChoiceField(choices=choices, required=False) for _place in range(places)],
            widget=OrderedChoicesWidget(choices, places), require_all_fields=False,
            required=False, **kwargs)

    def compress(self, data_list: list[str]) -> list[str]:
        keys = [key for key in data_list if key]
        twice = sorted({str(TIEBREAKS[key].name) for key in keys if keys.count(key) > 1})
        if twice:
            raise forms.ValidationError(_("Choose each tie-break once; %(names)s is chosen "
                                          "more than once.") % {"names": ", ".join(twice)})
        return keys


class TournamentForm(forms.ModelForm[Tournament]):
    tiebreaks = TiebreakField(
        label=gettext_lazy("Tie-breaks"),
        help_text=gettext_lazy("Teams level on points are ordered by the first tie-break, "
                               "then the second, and so on."))

    class Meta:
        model = Tournament
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "entry_mode" in self.fields:
            # a form posted without the entry settings (a script, an older page) keeps the
            # tournament invite only, as every tournament was before players entered
            self.fields["entry_mode"].required = False

    def clean_entry_mode(self) -> str:
        return str(self.cleaned_data.get("entry_mode") or Tournament.EntryMode.INVITE)

    def clean(self) -> dict[str, Any]:
        """A setting the chosen format does not read (a round robin's knockout tie rule, a
        knockout's points) keeps the tournament's value, whatever was posted, and is not
        checked: the form's script hides it (``format_settings.js``), and a post without the
        script stores the same tournament."""
        data = super().clean() or {}
        chosen = data.get("format")  # a registered format's key, or absent (its error)
        if chosen:
            for name in unread_settings(chosen):
                if name in self.fields:
                    self.errors.pop(name, None)
                    data[name] = getattr(self.instance, name)
        return data


class ForbiddenPairingForm(forms.ModelForm[ForbiddenPairing]):
    """Two teams to keep apart, in either order: the row stores the lower id first
    (``ForbiddenPairing.save``), so the form puts them in that order before it checks, and
    B-A is then found to repeat A-B (here or already stored) instead of failing on save."""

    class Meta:
        model = ForbiddenPairing
        fields = ["team_a", "team_b"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("team_a"), data.get("team_b")
        if first is not None and second is not None and first.pk > second.pk:
            data["team_a"], data["team_b"] = second, first
        return data

    def validate_unique(self) -> None:
        super().validate_unique()
        # An inline leaves its tournament out of the model's checks (on the add page it is
        # not saved yet), and with it the pair's uniqueness: the formset finds a pair its
        # rows repeat, this one a pair stored since the page was opened (else the save fails).
        if self.instance.tournament_id is not None and not self.errors:
            try:
                self.instance.validate_constraints()
            except ValidationError as exc:
                self.add_error(None, exc)


class RoundPlayerForm(forms.ModelForm[_Row]):
    """An absence's or a check-in's form: its round must be one the tournament has and has
    not completed, and its player one of the tournament's (``selectors.check_round_player``),
    checked on the row as the form would store it (in an inline, the tournament's own)."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        row = copy(self.instance)  # its id and tournament, and whether it is new
        for name in ("tournament", "round_number", "player"):
            if name in data:
                setattr(row, name, data[name])
        selectors.check_round_player(row)
        return data


class SentenceInlineFormSet(forms.BaseInlineFormSet[_Child, _Parent]):
    """An inline formset whose repeated rows are named in words ("This team is entered
    twice."), not as Django's "Please correct the duplicate data for team"."""

    REPEATS = {
        frozenset({"team"}): gettext_lazy("This team is entered twice."),
        frozenset({"round_number", "player"}): gettext_lazy(
            "This player is marked twice for the same round."),
        frozenset({"position"}): gettext_lazy("Two seats have the same position."),
        frozenset({"team_a", "team_b"}): gettext_lazy(
            "These two teams are listed twice to keep apart."),
    }

    def get_unique_error_message(self, unique_check: Any) -> str:
        fields = frozenset(field for field in unique_check if field != self.fk.name)
        known = self.REPEATS.get(fields)
        if known is not None:
            return str(known)
        assert self.model is not None  # an inline's formset has its model
        names = []
        for name in sorted(fields):
            field = self.model._meta.get_field(name)
            assert isinstance(field, Field)  # a unique check names the model's own fields
            names.append(str(field.verbose_name))
        return _("Two rows have the same %(fields)s; each must differ.") % {
            "fields": _(" and ").join(names)}

    def get_form_error(self) -> str:
        return _("Correct the repeated rows below.")
