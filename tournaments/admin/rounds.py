"""Rounds: looked at here, changed only through their actions (publish, fill seats with
bots, play the bot matches, complete), each of which is a service call."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import selectors, services
from tournaments.models import Job, Match, Round

from .deals import deals_path, deals_url
from .scoping import (
    ScopedInline,
    TournamentFilter,
    TournamentScoped,
    link,
    progress,
    run_for_each,
    without_secret_games,
)

REFRESH_SECONDS = 3  # while a job runs, its page and its round's page reload this often
RUNNING = (Job.Status.QUEUED, Job.Status.RUNNING)


def seats_summary(match: Match) -> str:
    """``0 Ann · 1 bot (greedy) · 2 Cleo · 3 bot for an absent player``, seat by seat."""
    parts = []
    for seat in match.seats.all():
        if seat.player_id is not None:
            who = str(seat.player)
        elif seat.substitute:
            who = gettext("bot for an absent player")
        else:
            who = _("bot (%s)") % seat.get_bot_level_display()
        parts.append(f"{seat.position} {who}")
    return " · ".join(parts) or "—"


def result_summary(match: Match) -> str:
    result = getattr(match, "result", None)
    if result is None:
        return gettext("bye") if match.is_bye else "—"
    text = f"{result.total_a}–{result.total_b} ({result.get_winner_display()})"
    return text if result.confirmed else text + " " + _("awaiting confirmation")


class MatchInline(ScopedInline[Match, Round], admin.TabularInline[Match, Round]):
    model = Match
    extra = 0
    readonly_fields = ["table_number", "seats", "status", "result"]
    fields = tuple(readonly_fields)
    can_delete = False
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return (without_secret_games(super().get_queryset(request), request.user, "round")
                .select_related("table", "team_a", "team_b", "result")
                .prefetch_related("seats__player"))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("table"))
    def table_number(self, match: Match) -> object:
        return match.table.number if match.table else "—"

    @admin.display(description=_("seats"))
    def seats(self, match: Match) -> str:
        return seats_summary(match)

    @admin.display(description=_("result"))
    def result(self, match: Match) -> str:
        return result_summary(match)


@admin.register(Round)
class RoundAdmin(TournamentScoped[Round], admin.ModelAdmin[Round]):
    list_display = ["__str__", "tournament", "number", "status", "match_count"]
    list_filter = [TournamentFilter, "status"]
    list_select_related = ["tournament"]
    readonly_fields = ["tournament", "number", "status", "job", "draw_note"]
    fields = tuple(readonly_fields)
    inlines = [MatchInline]
    actions = ["publish", "fill_seats", "play_bot_matches", "complete", "release_boards"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        return super().get_queryset(request).annotate(match_count=Count("matches"))

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False  # rounds come from "Pair next round" on the tournament

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """A draft may be thrown away and paired again; a published round has been seen."""
        if obj is not None and obj.status != Round.Status.DRAFT and not request.user.is_superuser:
            return False
        return self.may_organise(request, obj)

    def get_urls(self) -> list[Any]:
        return [deals_path(self), *super().get_urls()]

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        round = self.get_object(request, object_id)
        job = selectors.round_job(round) if round is not None else None
        refresh = REFRESH_SECONDS if job is not None and job.status in RUNNING else None
        deals = (deals_url(round) if round is not None
                 and round.tournament.dealing == round.tournament.Dealing.PLATFORM else None)
        console = (reverse("admin:tournaments_tournament_console", args=[round.tournament_id])
                   if round is not None else None)
        publish = (reverse("admin:tournaments_tournament_console_do", args=[round.tournament_id])
                   if round is not None and round.status == Round.Status.DRAFT
                   and self.may_organise(request, round) else None)
        return super().change_view(request, object_id, form_url, {
            **(extra_context or {}), "auto_refresh": refresh, "deals_url": deals,
            "console_url": console, "publish_url": publish})

    @admin.display(description=_("matches"), ordering="match_count")
    def match_count(self, round: Round) -> int:
        return getattr(round, "match_count", 0)

    @admin.display(description=_("latest bot job"))
    def job(self, round: Round) -> SafeString | str:
        job = selectors.round_job(round)
        return format_html("{} {}", link(job, job.kind), progress(job)) if job else "—"

    @admin.action(description=_("Publish round"))
    def publish(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        def publish(round: Round) -> str:
            job = services.round_publish(round=round, user=request.user)
            if round.status != Round.Status.PUBLISHED:
                raise services.TournamentUserError(
                    _("only a draft can be published; this round is %s")
                    % round.get_status_display())
            if job is None:
                return _("%s is published.") % round
            return _("%(round)s is published; its %(n)d bot match(es) are being played.") % {
                "round": round, "n": job.total}
        run_for_each(self, request, queryset.select_related("tournament"), publish)

    @admin.action(description=_("Fill empty seats with bots"))
    def fill_seats(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        def fill(round: Round) -> str:
            changed = services.round_fill_seats(round=round, user=request.user)
            return _("%(round)s: %(n)d seat(s) of absent players now have a bot.") % {
                "round": round, "n": changed}
        run_for_each(self, request, queryset.select_related("tournament"), fill)

    @admin.action(description=_("Play bot matches"))
    def play_bot_matches(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        def play(round: Round) -> SafeString:
            job = services.job_play_round_bots(round=round, user=request.user)
            return format_html(gettext("{}: {} bot match(es) are being played: {}."), round,
                               job.total, link(job, _("follow the job")))
        run_for_each(self, request, queryset.select_related("tournament"), play)

    @admin.action(description=_("Complete round"))
    def complete(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        def complete(round: Round) -> str:
            round = services.round_complete(round=round, user=request.user)
            return _("%s is complete; the standings are updated.") % round
        run_for_each(self, request, queryset.select_related("tournament"), complete)


    @admin.action(description=_("Release the boards (duplicate)"))
    def release_boards(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        def release(round: Round) -> str:
            round = services.round_release_boards(round=round, user=request.user)
            return _("%s: its boards and results are shown; the standings count it.") % round
        run_for_each(self, request, queryset.select_related("tournament"), release)
