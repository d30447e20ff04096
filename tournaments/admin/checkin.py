"""Check-in: before a round, the organiser marks who is present on one page (the roster),
and opens a window in which players check themselves in from their player page.

The roster page is ``checkin/roster/<tournament>/?round=<n>``, reached from the tournament
list's "Check players in" action and from the check-in list. Saving it checks the ticked
players in and marks every other player of the tournament absent (a bot plays for them,
``services.check_in_roster``); a round already paired gets its bots at once.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import selectors, services
from tournaments.formats import PairingError
from tournaments.models import CheckIn, Round, Tournament

from .forms import RoundPlayerForm
from .scoping import TournamentFilter, TournamentScoped, scoped

LOCAL_MINUTE = "%Y-%m-%dT%H:%M"  # what a browser's datetime-local input sends


class RosterForm(forms.Form):
    required = forms.BooleanField(
        label=gettext_lazy("Players must check in"), required=False,
        help_text=gettext_lazy("A player not checked in when a round is paired is absent, "
                               "and a bot plays in their seat."))
    closes = forms.DateTimeField(
        label=gettext_lazy("Players may check themselves in until"), required=False,
        input_formats=[LOCAL_MINUTE],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_MINUTE),
        help_text=gettext_lazy("On their player page, for the next round to be paired. "
                               "Empty: only organisers check players in."))
    present = forms.MultipleChoiceField(label=gettext_lazy("Present"), required=False,
                                        widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        present = self.fields["present"]
        assert isinstance(present, forms.ChoiceField)
        present.choices = players


def roster_url(tournament: Tournament, number: int | None = None) -> str:
    url = reverse("admin:tournaments_checkin_roster", args=[tournament.pk])
    return f"{url}?round={number}" if number else url


@admin.action(description=gettext_lazy("Check players in (the next round's roster)"))
def check_in_players(model_admin: Any, request: HttpRequest,
                     queryset: QuerySet[Tournament]) -> HttpResponse | None:
    """A tournament list action: open the first selected tournament's roster."""
    tournament = queryset.first()
    if tournament is None:
        return None
    return HttpResponseRedirect(roster_url(tournament))


@admin.register(CheckIn)
class CheckInAdmin(TournamentScoped[CheckIn], admin.ModelAdmin[CheckIn]):
    form = RoundPlayerForm[CheckIn]
    list_display = ["player", "tournament", "round_number", "by_player", "created"]
    list_filter = [TournamentFilter, "round_number", "by_player"]
    list_select_related = ["tournament", "player"]
    search_fields = ["player__name", "player__handle"]
    autocomplete_fields = ["player"]
    fields = ["tournament", "round_number", "player"]

    def get_urls(self) -> list[Any]:
        return [path("roster/<int:tournament_id>/", self.admin_site.admin_view(self.roster_view),
                     name="tournaments_checkin_roster"), *super().get_urls()]

    def changelist_view(self, request: HttpRequest,
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        rosters = [(t, roster_url(t)) for t in scoped(
            Tournament.objects.exclude(status=Tournament.Status.FINISHED), request.user, "")]
        return super().changelist_view(request, {**(extra_context or {}), "rosters": rosters})

    def roster_view(self, request: HttpRequest, tournament_id: int) -> HttpResponse:
        tournament = get_object_or_404(scoped(Tournament.objects.all(), request.user, ""),
                                       pk=tournament_id)
        if not services.is_organiser(request.user, tournament):
            raise PermissionDenied
        number = self._round_number(request, tournament)
        players = list(selectors.tournament_players(tournament, withdrawn=False))
        teams = selectors.player_team_names(tournament)
        choices = [(p.pk, f"{p} · {teams.get(p.pk, '')}") for p in players]
        form = RosterForm(request.POST or None, players=choices,
                          initial=self._initial(tournament, number, players))
        if request.method == "POST" and number is not None and form.is_valid():
            try:
                services.check_in_settings(tournament=tournament,
                                           required=form.cleaned_data["required"],
                                           closes=form.cleaned_data["closes"], user=request.user)
                seats = services.check_in_roster(
                    tournament=tournament, number=number, user=request.user,
                    present={int(pk) for pk in form.cleaned_data["present"]})
            except services.TournamentUserError as exc:
                form.add_error(None, str(exc))
            else:
                present = len(form.cleaned_data["present"])
                self.message_user(request, _(
                    "Round %(number)d: %(present)d present, %(absent)d absent; %(seats)d "
                    "seat(s) now have a bot.") % {"number": number, "present": present,
                                                  "absent": len(players) - present,
                                                  "seats": seats}, messages.SUCCESS)
                return HttpResponseRedirect(roster_url(tournament, number))
        return TemplateResponse(request, "admin/tournaments/checkin/roster.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "form": form,
            "tournament": tournament, "number": number,
            "title": _("Check-in: %(tournament)s") % {"tournament": tournament},
            "rounds": self._open_rounds(tournament), "players": players,
            "round": None if number is None else Round.objects.filter(
                tournament=tournament, number=number).first(),
            "self_round": selectors.self_check_in_round(tournament)})

    @staticmethod
    def _open_rounds(tournament: Tournament) -> list[int]:
        """The rounds whose roster may still change: those not complete."""
        try:
            total = selectors.rounds_total(tournament)
        except PairingError:
            return []
        complete = set(tournament.rounds.filter(status=Round.Status.COMPLETE)
                       .values_list("number", flat=True))
        return [n for n in range(1, total + 1) if n not in complete]

    def _round_number(self, request: HttpRequest, tournament: Tournament) -> int | None:
        asked = request.GET.get("round", "")
        rounds = self._open_rounds(tournament)
        if asked.isdigit() and int(asked) in rounds:
            return int(asked)
        if asked:
            messages.error(request, _("Round %(round)s cannot be checked in: choose one of "
                                      "the rounds listed.") % {"round": asked[:10]})
        number = selectors.check_in_round_number(tournament)
        return number if number in rounds else None

    @staticmethod
    def _initial(tournament: Tournament, number: int | None,
                 players: list[Any]) -> dict[str, Any]:
        present: list[int] = []
        if number is not None:
            absent = selectors.absent_player_ids(tournament, number)
            present = [p.pk for p in players if p.pk not in absent]
        return {"required": tournament.check_in_required,
                "closes": tournament.check_in_closes, "present": present}
