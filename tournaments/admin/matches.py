"""Matches, their seats and their results; entering a result from a record or a score sheet.

A result is written only by the services, which verify it first: the admin's two result
pages are forms in front of ``match_submit_record`` and ``match_submit_score_sheet``, and a
refused submission comes back as form errors with nothing stored.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from games.live.models import LiveTable
from tournaments import selectors, services
from tournaments.bot_share import percent
from tournaments.models import Match, Result, Round, Seat

from .deals import deals_path, deals_url
from .forms import (
    EndTableForm,
    RecordUploadForm,
    ScoreSheetFormSet,
    SentenceInlineFormSet,
    rejection_message,
)
from .rounds import result_summary
from .scoping import (
    ScopedInline,
    TournamentFilter,
    TournamentScoped,
    console_url,
    link,
    not_found,
    run_for_each,
    safe_next,
    with_next,
)


class SeatFormSet(SentenceInlineFormSet[Seat, Match]):
    def clean(self) -> None:
        """A player sits once a round (the database refuses a second seat, but the form
        would not see it: the seat's round is not one of its fields)."""
        super().clean()
        match, seen = self.instance, dict[int, int]()
        for form in self.forms:
            player = form.cleaned_data.get("player")
            if player is None:
                continue
            if player.pk in seen:
                form.add_error("player", _("%(player)s already sits at seat %(seat)s") % {
                    "player": player, "seat": seen[player.pk]})
            seen[player.pk] = form.instance.position
            elsewhere = (Seat.objects.filter(round_id=match.round_id, player=player)
                         .exclude(match=match).select_related("match").first())
            if elsewhere is not None:
                form.add_error("player", _("%(player)s already plays in this round: "
                                           "%(match)s") % {"player": player,
                                                           "match": elsewhere.match})


class SeatInline(ScopedInline[Seat, Match], admin.TabularInline[Seat, Match]):
    model = Seat
    formset = SeatFormSet
    extra = 0
    fields = ["position", "player", "bot_level", "substitute"]
    readonly_fields = ["position"]
    autocomplete_fields = ["player"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a match has its four seats from pairing

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Seats change until the match has a result."""
        if obj is not None and Result.objects.filter(match=obj).exists():
            return False
        return super().has_change_permission(request, obj)


class DisputedFilter(admin.SimpleListFilter):
    """Matches whose result a player of the other team disputed: an organiser confirms or
    corrects it."""

    title = _("dispute")
    parameter_name = "disputed"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("disputed, waiting for an organiser"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(result__disputed_by__isnull=False, result__confirmed=False)
        return queryset


@admin.register(Match)
class MatchAdmin(TournamentScoped[Match], admin.ModelAdmin[Match]):
    tournament_path = "round__tournament"
    round_path = "round"
    list_display = ["__str__", "round_link", "table_number", "status", "result"]
    list_filter = [TournamentFilter, "status", DisputedFilter]
    list_select_related = ["round__tournament", "table", "team_a", "team_b", "result"]
    search_fields = ["team_a__name", "team_b__name"]
    readonly_fields = ["round_link", "table_number", "team_a", "team_b", "is_bye", "bot_opponent",
                       "bracket_slot", "status", "result", "ended", "bots_played", "dispute",
                       "hands"]
    fields = tuple(readonly_fields)
    inlines = [SeatInline]
    actions = ["confirm_result", "withdraw_result"]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False  # matches come from pairing

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Only with their draft round (or by a superuser)."""
        if (obj is not None and obj.round.status != Round.Status.DRAFT
                and not request.user.is_superuser):
            return False
        return self.may_organise(request, obj)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is Seat:
            # Seats are saved one by one, so two players trading seats would briefly sit
            # twice in the round; first turn every changed seat into a bot (the form's
            # values then overwrite it). The change page runs in one transaction.
            changed = [f.instance.pk for f in formset.forms if f.has_changed()]
            Seat.objects.filter(pk__in=changed).update(player=None, bot_level="random")
        super().save_formset(request, form, formset, change)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("<path:object_id>/record/", view(self.upload_record_view),
                 name="tournaments_match_record"),
            path("<path:object_id>/score-sheet/", view(self.score_sheet_view),
                 name="tournaments_match_score_sheet"),
            path("<path:object_id>/correct/", view(self.correct_view),
                 name="tournaments_match_correct"),
            path("<path:object_id>/end-table/", view(self.end_table_view),
                 name="tournaments_match_end_table"),
            deals_path(self),
            *super().get_urls(),
        ]

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        match = self.get_object(request, object_id)
        context = dict(extra_context or {})
        # the page the organiser came from (the console): the result pages return there
        back = safe_next(request)
        if match is not None:
            context["console_url"] = console_url(match.round.tournament_id)
        if (match is not None and not match.is_bye and not hasattr(match, "result")
                and self.has_change_permission(request, match)):
            context["result_links"] = {
                "record": with_next(reverse("admin:tournaments_match_record", args=[match.pk]),
                                    back),
                "sheet": with_next(reverse("admin:tournaments_match_score_sheet",
                                           args=[match.pk]), back)}
        result = getattr(match, "result", None)
        if (match is not None and result is not None and not result.confirmed
                and self.has_change_permission(request, match)):
            context["correct_url"] = with_next(reverse("admin:tournaments_match_correct",
                                                       args=[match.pk]), back)
        if (match is not None and table_in_play(match)
                and self.has_change_permission(request, match)):
            context["end_table_url"] = with_next(end_table_url(match), back)
        if (match is not None and not match.is_bye
                and match.round.tournament.dealing == match.round.tournament.Dealing.PLATFORM):
            context["deals_url"] = deals_url(match)
        return super().change_view(request, object_id, form_url, context)

    @admin.display(description=_("round"), ordering="round")
    def round_link(self, match: Match) -> SafeString:
        return link(match.round)

    @admin.display(description=_("table"))
    def table_number(self, match: Match) -> object:
        return match.table.number if match.table else "—"

    @admin.display(description=_("result"))
    def result(self, match: Match) -> SafeString | str:
        result = getattr(match, "result", None)
        return link(result, result_summary(match)) if result else result_summary(match)

    @admin.display(description=_("why the live table was ended"))
    def ended(self, match: Match) -> str:
        result = getattr(match, "result", None)
        return result.reason if result is not None and result.reason else "—"

    @admin.display(description=_("bots played"))
    def bots_played(self, match: Match) -> str:
        result = getattr(match, "result", None)
        return bots_played_text(result) if result is not None else "—"

    @admin.display(description=_("dispute"))
    def dispute(self, match: Match) -> str:
        result = getattr(match, "result", None)
        if result is None or result.disputed_by is None:
            return "—"
        settled = _("settled") if result.confirmed else _("waits for an organiser")
        return _("disputed by %(who)s (%(settled)s): %(reason)s") % {
            "who": result.disputed_by, "settled": settled,
            "reason": result.dispute_reason or _("no reason given")}

    @admin.display(description=_("hands"))
    def hands(self, match: Match) -> SafeString | str:
        result = getattr(match, "result", None)
        return hand_table(result) if result else "—"

    @admin.action(description=_("Withdraw result (the match waits for a new one)"))
    def withdraw_result(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        withdraw_results(self, request, Result.objects.filter(match__in=queryset))

    @admin.action(description=_("Confirm result (as a second organiser)"))
    def confirm_result(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        confirm_results(self, request, Result.objects.filter(match__in=queryset))

    # the two result pages

    def _match_for_result(self, request: HttpRequest, object_id: str) -> Match | HttpResponse:
        match = self.get_object(request, object_id)
        if match is None:
            return not_found(self, request, object_id)
        if not self.has_change_permission(request, match):
            raise PermissionDenied
        return match

    def _result_page(self, request: HttpRequest, match: Match, title: str,
                     **context: Any) -> TemplateResponse:
        return TemplateResponse(request, "admin/tournaments/match/result_form.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "original": match,
            "title": title, "seats": match.seats.all(),
            "back_url": self._back(request, match.pk),
            "console_url": console_url(match.round.tournament_id), **context})

    @staticmethod
    def _back(request: HttpRequest, match_id: int) -> str:
        """Where a stored result (or Cancel) leads: the page the organiser came from, the
        console say (``?next=``, when it is this site's), else the match's page."""
        return safe_next(request) or reverse("admin:tournaments_match_change",
                                             args=[match_id])

    def _stored(self, request: HttpRequest, result: Result) -> HttpResponseRedirect:
        waiting = "" if result.confirmed else " " + _("It waits for a second organiser to "
                                                      "confirm it.")
        self.message_user(request, _("The result %(result)s is stored.") % {
            "result": result} + waiting, messages.SUCCESS)
        return HttpResponseRedirect(self._back(request, result.match_id))

    def upload_record_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        match = self._match_for_result(request, object_id)
        if isinstance(match, HttpResponse):
            return match
        form = RecordUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                result = services.match_submit_record(
                    match=match, record=form.cleaned_data["record"], user=request.user)
            except services.ResultRejected as exc:
                form.add_error(None, rejection_message(exc))
            except services.TournamentUserError as exc:
                form.add_error(None, str(exc))
            else:
                return self._stored(request, result)
        return self._result_page(request, match, _("Upload game record: %s") % match,
                                 form=form, multipart=True)

    def score_sheet_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        match = self._match_for_result(request, object_id)
        if isinstance(match, HttpResponse):
            return match
        formset = ScoreSheetFormSet(request.POST or None, prefix="hand", match=match)
        errors: list[str] = []
        if request.method == "POST" and formset.is_valid():
            hand_scores, out_seats = formset.cleaned_sheet()
            try:
                result = services.match_submit_score_sheet(
                    match=match, hand_scores=hand_scores, out_seats=out_seats,
                    user=request.user)
            except services.TournamentUserError as exc:
                errors.append(str(exc))
            else:
                return self._stored(request, result)
        return self._result_page(request, match, _("Enter score sheet: %s") % match,
                                 formset=formset, errors=errors)

    def correct_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Settle an unconfirmed (say, disputed) result with the sheet the organiser finds
        right: it replaces the entered one and counts at once."""
        match = self._match_for_result(request, object_id)
        if isinstance(match, HttpResponse):
            return match
        result = Result.objects.filter(match=match).first()
        if result is None:
            return HttpResponseRedirect(reverse("admin:tournaments_match_change",
                                                args=[match.pk]))
        initial = [{"team_a": scores[0], "team_b": scores[1], "out_seat": out}
                   for scores, out in zip(result.hand_scores, result.out_seats, strict=False)]
        formset = ScoreSheetFormSet(request.POST or None, prefix="hand", initial=initial,
                                    match=match)
        errors: list[str] = []
        if request.method == "POST" and formset.is_valid():
            hand_scores, out_seats = formset.cleaned_sheet()
            try:
                corrected = services.result_correct(result=result, hand_scores=hand_scores,
                                                    out_seats=out_seats, user=request.user)
            except services.TournamentUserError as exc:
                errors.append(str(exc))
            else:
                return self._stored(request, corrected)
        return self._result_page(request, match, _("Correct the result: %s") % match,
                                 formset=formset, errors=errors)

    def end_table_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """End the match's live table whose game cannot finish, deciding its result with a
        score sheet and saying why (``services.match_end_live_table``)."""
        match = self._match_for_result(request, object_id)
        if isinstance(match, HttpResponse):
            return match
        form = EndTableForm(request.POST or None)
        formset = ScoreSheetFormSet(request.POST or None, prefix="hand", match=match)
        errors: list[str] = []
        if request.method == "POST" and all([form.is_valid(), formset.is_valid()]):
            hand_scores, out_seats = formset.cleaned_sheet()
            try:
                result = services.match_end_live_table(
                    match=match, hand_scores=hand_scores, out_seats=out_seats,
                    reason=form.cleaned_data["reason"], user=request.user)
            except services.TournamentUserError as exc:
                errors.append(str(exc))
            else:
                self.message_user(request, _("The live table of %(match)s is ended; the "
                                             "result %(result)s counts.") % {
                    "match": match, "result": result}, messages.SUCCESS)
                return HttpResponseRedirect(self._back(request, match.pk))
        return self._result_page(
            request, match, _("End the live table: %s") % match, form=form, formset=formset,
            errors=errors, intro=_(
                "Its game cannot finish? End the table: nobody can play on at it, and the "
                "score sheet below is the match's result, counted at once, with your "
                "reason beside it. A table whose game has finished has its result already."))


def table_in_play(match: Match) -> bool:
    """The match is being played at a live table, with no result yet."""
    table = match.live_table
    return (table is not None and table.status == LiveTable.Status.PLAYING
            and not hasattr(match, "result"))


def end_table_url(match: Match) -> str:
    return reverse("admin:tournaments_match_end_table", args=[match.pk])


def bots_played_text(result: Result) -> str:
    """``bots played 40% of a person's actions (left out of the standings and ratings)``."""
    if not result.bot_share:
        return "—"
    text = _("bots played %(percent)s%% of a person's actions") % {
        "percent": percent(result.bot_share)}
    if selectors.is_left_out(result, result.match.round.tournament):
        text += " " + _("(left out of the standings and the ratings)")
    return text


def hand_table(result: Result) -> SafeString:
    rows = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", (
        (hand, scores[0], scores[1], "—" if out is None else out)
        for hand, (scores, out) in enumerate(zip(result.hand_scores, result.out_seats,
                                                 strict=False), start=1)))
    return format_html("<table><tr><th>{}</th><th>A</th><th>B</th><th>{}</th></tr>{}"
                       "<tr><th>{}</th><th>{}</th><th>{}</th><th></th></tr></table>",
                       _("hand"), _("went out"), rows, _("total"), result.total_a,
                       result.total_b)


def withdraw_results(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
                     results: QuerySet[Result]) -> None:
    def withdraw(result: Result) -> str:
        match = services.result_withdraw(result=result, user=request.user)
        return _("The result of %s is withdrawn; the match waits for a new one.") % match
    run_for_each(model_admin, request, results.select_related("match__round__tournament"),
                 withdraw, empty=_("None of the selected matches has a result to withdraw."))


def confirm_results(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
                    results: QuerySet[Result]) -> None:
    def confirm(result: Result) -> str:
        if result.confirmed:
            raise services.TournamentUserError(_("already confirmed"))
        services.result_confirm(result=result, user=request.user)
        return _("%s is confirmed.") % result
    run_for_each(model_admin, request, results.select_related("match__round__tournament"),
                 confirm, empty=_("None of the selected matches has a result of yours to "
                                  "confirm."))


@admin.register(Result)
class ResultAdmin(TournamentScoped[Result], admin.ModelAdmin[Result]):
    """Results are read here; they are written only through the match's result pages and
    the bot jobs, which verify them first."""

    tournament_path = "match__round__tournament"
    round_path = "match__round"
    list_display = ["match", "tournament", "source", "total_a", "total_b", "winner",
                    "confirmed", "entered_by", "created"]
    list_filter = [TournamentFilter, "confirmed", "source"]
    list_select_related = ["match__round__tournament", "match__team_a", "match__team_b",
                           "entered_by"]
    readonly_fields = ["match", "source", "reason", "hands", "winner", "decided_by",
                       "entered_by", "confirmed", "confirmed_by", "disputed_by",
                       "dispute_reason", "bots", "created", "record_kept"]
    fields = tuple(readonly_fields)
    actions = ["confirm", "withdraw"]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the Withdraw action takes a result back, and updates the standings

    @admin.display(description=_("tournament"))
    def tournament(self, result: Result) -> object:
        return result.match.round.tournament

    @admin.display(description=_("hands"))
    def hands(self, result: Result) -> SafeString:
        return hand_table(result)

    @admin.display(description=_("bots played"))
    def bots(self, result: Result) -> str:
        return bots_played_text(result)

    @admin.display(description=_("game record"))
    def record_kept(self, result: Result) -> str:
        if result.record is None:
            return "—"
        return _("kept (%d hands)") % len(result.record.get("hands", []))

    @admin.action(description=_("Confirm result (as a second organiser)"))
    def confirm(self, request: HttpRequest, queryset: QuerySet[Result]) -> None:
        confirm_results(self, request, queryset)

    @admin.action(description=_("Withdraw result (the match waits for a new one)"))
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Result]) -> None:
        withdraw_results(self, request, queryset)

