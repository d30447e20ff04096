"""Read-only views of derived rows: standings, rating history, and the jobs that play
matches. They are rebuilt or advanced by tasks, never edited by hand."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from tournaments import services
from tournaments.models import Job, Match, RatingEntry, Standing
from tournaments.ratings import Rating
from tournaments.selectors import plain, tournament_metrics

from .rounds import REFRESH_SECONDS, RUNNING
from .scoping import ReadOnlyScoped, TournamentFilter, link, progress


@admin.register(Standing)
class StandingAdmin(ReadOnlyScoped[Standing], admin.ModelAdmin[Standing]):
    list_display = ["rank", "team", "tournament", "after", "points", "played", "wins", "draws",
                    "losses", "byes", "tiebreaks"]
    list_display_links = ["rank", "team"]
    list_filter = [TournamentFilter, "round_number"]
    list_select_related = ["tournament", "team"]

    @admin.display(description=_("after round"), ordering="round_number")
    def after(self, standing: Standing) -> object:
        return standing.round_number or _("current")

    @admin.display(description=_("tie-breaks"))
    def tiebreaks(self, standing: Standing) -> str:
        """Each tie-break's value under its name (the metric registry's), in order."""
        return "; ".join(f"{metric.name} {plain(standing.values.get(metric.key, 0))}"
                         for metric in tournament_metrics(standing.tournament)) or "—"


@admin.register(RatingEntry)
class RatingEntryAdmin(ReadOnlyScoped[RatingEntry], admin.ModelAdmin[RatingEntry]):
    tournament_path = "match__round__tournament"
    list_display = ["player", "match", "rating", "mu", "sigma"]
    list_select_related = ["player", "match__team_a", "match__team_b"]
    list_filter = [TournamentFilter]
    search_fields = ["player__name"]

    @admin.display(description=_("rating"))
    def rating(self, entry: RatingEntry) -> str:
        return str(Rating(entry.mu, entry.sigma))


class StalledFilter(admin.SimpleListFilter):
    title = _("stalled")
    parameter_name = "stalled"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("stalled"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Job]) -> QuerySet[Job]:
        if self.value() == "yes":
            return queryset.filter(pk__in=services.jobs_stalled().values("pk"))
        return queryset


@admin.register(Job)
class JobAdmin(ReadOnlyScoped[Job], admin.ModelAdmin[Job]):
    list_display = ["kind", "tournament", "status", "done_of_total", "progress_bar", "stalled",
                    "updated"]
    list_filter = [TournamentFilter, "status", StalledFilter]
    list_select_related = ["tournament"]
    readonly_fields = ["tournament", "kind", "status", "stalled", "progress_bar", "matches",
                       "message", "created", "updated"]
    fields = tuple(readonly_fields)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Job]:
        stalled = services.jobs_stalled().filter(pk=OuterRef("pk"))
        return super().get_queryset(request).annotate(is_stalled=Exists(stalled))

    @admin.display(description=_("stalled"), boolean=True)
    def stalled(self, job: Job) -> bool:
        """Unfinished and not moved for longer than a task may run: the sweep sends its
        matches again; if it stays so, see ``manage.py health``."""
        return bool(getattr(job, "is_stalled", False))

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        job = self.get_object(request, object_id)
        refresh = REFRESH_SECONDS if job is not None and job.status in RUNNING else None
        return super().change_view(request, object_id, form_url,
                                   {**(extra_context or {}), "auto_refresh": refresh})

    @admin.display(description=_("done/total"))
    def done_of_total(self, job: Job) -> str:
        return f"{job.done}/{job.total}"

    @admin.display(description=_("progress"))
    def progress_bar(self, job: Job) -> SafeString:
        return progress(job)

    @admin.display(description=_("matches"))
    def matches(self, job: Job) -> SafeString | str:
        matches = Match.objects.filter(pk__in=job.match_ids).select_related(
            "team_a", "team_b", "result")
        return format_html_join(", ", "{}", ((link(m, f"{m} ({m.get_status_display()})"),)
                                             for m in matches)) or "—"
