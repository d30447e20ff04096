"""Tournaments, their entries, absences and pairings to avoid, and the tournament-wide
actions."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Count, Model, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from tournaments import services
from tournaments.formats.registry import OPTIONAL_SETTINGS, formats, unread_settings
from tournaments.models import Absence, Entry, ForbiddenPairing, Schedule, Tournament

from .checkin import check_in_players
from .console import console_link, console_urls
from .director import director_urls
from .forms import (
    ForbiddenPairingForm,
    RoundPlayerForm,
    SentenceInlineFormSet,
    TournamentForm,
)
from .imports import CsvImportExport, EntryResource
from .results_files import results_import_urls
from .schedule import ScheduleInline, save_schedule
from .scoping import (
    ScopedInline,
    TournamentFilter,
    TournamentScoped,
    console_url,
    link,
    run_for_each,
)

_M = TypeVar("_M", bound=Model)


class EntryInline(ScopedInline[Entry, Tournament], admin.TabularInline[Entry, Tournament]):
    model = Entry
    formset = SentenceInlineFormSet[Entry, Tournament]
    extra = 0
    autocomplete_fields = ["team"]
    fields = ["team", "seed", "withdrawn"]


class AbsenceInline(ScopedInline[Absence, Tournament],
                    admin.TabularInline[Absence, Tournament]):
    model = Absence
    form = RoundPlayerForm[Absence]
    formset = SentenceInlineFormSet[Absence, Tournament]
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["round_number", "player"]
    verbose_name_plural = _("absences (a bot substitutes for the player in that round)")


class ForbiddenPairingInline(ScopedInline[ForbiddenPairing, Tournament],
                             admin.TabularInline[ForbiddenPairing, Tournament]):
    """Two teams the organiser asks the draw to keep apart (siblings, a couple): seen and
    changed, as every inline here, only by whoever may change the tournament."""

    model = ForbiddenPairing
    form = ForbiddenPairingForm
    formset = SentenceInlineFormSet[ForbiddenPairing, Tournament]
    extra = 0
    autocomplete_fields = ["team_a", "team_b"]
    fields = ["team_a", "team_b"]
    verbose_name_plural = _("pairings to avoid (Swiss keeps these two teams apart wherever a "
                            "draw can; a hand-made draft that pairs them warns)")


@admin.register(Tournament)
class TournamentAdmin(TournamentScoped[Tournament], admin.ModelAdmin[Tournament]):
    tournament_path = ""
    list_display = ["name", "format", "status", "entry_count", "round_links", "console"]
    list_filter = ["status", "format"]
    search_fields = ["name"]
    filter_horizontal = ["organisers"]
    autocomplete_fields = ["keep_apart_clubs"]
    inlines = [EntryInline, AbsenceInline, ForbiddenPairingInline, ScheduleInline]
    readonly_fields = ["round_links"]
    actions = ["pair_next_round", check_in_players, "recalculate_standings",
               "recalculate_ratings"]
    fieldsets = [
        (None, {"fields": ["name", "organisers", "format", "status", "starts_on", "ends_on",
                           "rounds_planned", "round_links"]}),
        (_("scoring"), {"fields": ["points_win", "points_draw", "points_loss", "points_bye",
                                   "duplicate", "tiebreaks"]}),
        (_("play"), {"fields": ["bye_policy", "keep_apart_clubs", "bot_level",
                                "knockout_tie_rule",
                                "third_place_match", "play", "spectators", "turn_seconds",
                                "reserve_seconds", "grace_seconds", "wait_for_players",
                                "bot_share_limit", "dealing", "confirm_score_sheets"]}),
        (_("players entering by themselves"), {
            "fields": ["entry_mode", "entries_open", "entries_close", "capacity",
                       "waiting_list"]}),
    ]
    form = TournamentForm
    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """Only the settings the tournament's format reads (on the add page, before the
        format is saved, every setting is in the form, and its script shows the chosen
        format's)."""
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        unused = unread_settings(obj.format)
        shown = [(name, {**options, "fields": [f for f in options["fields"] if f not in unused]})
                 for name, options in fieldsets]
        return [(name, options) for name, options in shown if options["fields"]]

    def render_change_form(self, request: HttpRequest, context: dict[str, Any],
                           *args: Any, **kwargs: Any) -> HttpResponse:
        """With the settings each format reads, for the form's script that shows only the
        chosen format's (``tournaments/format_settings.js``)."""
        context["format_settings"] = {
            "optional": sorted(OPTIONAL_SETTINGS),
            "formats": {spec.key: sorted(spec.settings) for spec in formats()}}
        return super().render_change_form(request, context, *args, **kwargs)

    def get_urls(self) -> list[Any]:
        return [*console_urls(self), *director_urls(self), *results_import_urls(self),
                *super().get_urls()]

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return super().change_view(request, object_id, form_url, {
            **(extra_context or {}), "console_url": console_url(int(object_id))
            if object_id.isdigit() else None})

    @admin.display(description=_("console"))
    def console(self, tournament: Tournament) -> SafeString:
        return console_link(tournament)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return (super().get_queryset(request).annotate(entry_count=Count("entries", distinct=True))
                .prefetch_related("rounds"))

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "organisers":
            # staff users (those who can use this admin), plus anyone already organising;
            # may be left empty, since the creator becomes an organiser anyway
            kwargs["required"] = False
            kwargs["queryset"] = (get_user_model().objects
                                  .filter(Q(is_staff=True) | Q(organised__isnull=False))
                                  .distinct().order_by("username"))
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        """Through the service the API calls too (``services.tournament_save``), which says
        what the change set going: teams moved up from the waiting list, and the standings
        and ratings recalculated for a changed bot-share limit."""
        saved = services.tournament_save(tournament=obj, user=request.user,
                                         changed=form.changed_data if change else ())
        if saved.moved_up:
            self.message_user(request, ngettext(
                "%(count)d team moved up from the waiting list and is told so.",
                "%(count)d teams moved up from the waiting list and are told so.",
                saved.moved_up) % {"count": saved.moved_up})
        if saved.recalculating:
            self.message_user(request, _("The bot-share limit changed: the standings and the "
                                         "ratings are being recalculated."))

    def get_inline_instances(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        """The schedule only on a saved online tournament's page (set "played" to online
        and save first): a venue's rounds are run from the console."""
        return [inline for inline in super().get_inline_instances(request, obj)
                if not isinstance(inline, ScheduleInline)
                or (obj is not None and obj.play == Tournament.Play.ONLINE)]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """The entries and the schedule through their services (the schedule's plans its
        next step from it)."""
        if formset.model is Entry:  # through the service the API calls too
            for entry in formset.save(commit=False):
                services.entry_save(entry=entry, user=request.user)
            for deleted in formset.deleted_objects:
                deleted.delete()
            return
        if formset.model is not Schedule:
            super().save_formset(request, form, formset, change)
            return
        schedules = formset.save(commit=False)  # (and the lists the change message reads)
        for deleted in formset.deleted_objects:  # the tournament's rounds are run by hand
            deleted.delete()
        for schedule in schedules:
            schedule.tournament = form.instance
            save_schedule(request, schedule)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        if not change:  # whoever creates a tournament organises it
            form.instance.organisers.add(request.user)

    @admin.display(description=_("entries"), ordering="entry_count")
    def entry_count(self, tournament: Tournament) -> int:
        return getattr(tournament, "entry_count", 0)

    @admin.display(description=_("rounds"))
    def round_links(self, tournament: Tournament) -> StrOrPromise:
        if not tournament.pk:  # not saved yet (the stubs type a primary key int)
            return "—"
        rounds = tournament.rounds.all()
        if not rounds:
            return _("none yet: use “Pair next round”")
        return format_html_join(", ", "{}", (
            (link(r, f"{r.number} ({r.get_status_display()})"),) for r in rounds))

    @admin.action(description=_("Pair next round (as a draft)"))
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def pair(tournament: Tournament) -> SafeString:
            round = services.round_pair_next(tournament=tournament, user=request.user)
            return format_html(gettext("{}: round {} is a draft: {} and publish it."), tournament,
                               round.number, link(round, _("review it")))
        run_for_each(self, request, queryset, pair)

    @admin.action(description=_("Recalculate standings"))
    def recalculate_standings(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        def enqueue(tournament: Tournament) -> SafeString:
            services.standings_recalculate(tournament=tournament, user=request.user)
            standings = reverse("admin:tournaments_standing_changelist")
            return format_html(gettext('{}: the <a href="{}?tournament={}">standings</a> are '
                                       "being recalculated."), tournament, standings,
                               tournament.pk)
        run_for_each(self, request, queryset, enqueue)

    @admin.action(description=_("Recalculate ratings (all players)"))
    def recalculate_ratings(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        """Ratings span every tournament, so one request (for a tournament of one's own) is
        enough."""
        def enqueue(tournament: Tournament) -> StrOrPromise:
            services.ratings_recalculate(tournament=tournament, user=request.user)
            return _("Every player's rating is being recalculated from the results.")
        run_for_each(self, request, queryset[:1], enqueue)


class TournamentPartAdmin(TournamentScoped[_M], admin.ModelAdmin[_M]):
    list_filter = [TournamentFilter]
    list_select_related = ["tournament"]


@admin.register(Entry)
# ignore[misc]: the import-export stubs declare model and change_list_template unlike Django's
class EntryAdmin(CsvImportExport[Entry], TournamentPartAdmin[Entry]):  # type: ignore[misc]
    list_display = ["team", "tournament", "seed", "withdrawn"]
    autocomplete_fields = ["team"]
    search_fields = ["team__name"]
    resource_classes = [EntryResource]

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        services.entry_save(entry=obj, user=request.user)


@admin.register(Absence)
class AbsenceAdmin(TournamentPartAdmin[Absence]):
    form = RoundPlayerForm[Absence]
    list_display = ["player", "tournament", "round_number"]
    list_filter = [TournamentFilter, "round_number"]
    autocomplete_fields = ["player"]
    search_fields = ["player__name"]
