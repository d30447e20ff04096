"""Leagues and their seasons: a league is its organisers' (a superuser's: everyone's), as a
tournament is. A season's divisions and events are tournaments the user organises; the next
season is drafted from the last by an action, changed through its tournaments' entries, and
confirmed by another action (``services.leagues``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import ForeignKey, Model, QuerySet
from django.forms import ModelChoiceField
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Division, League, Season, SeriesEvent
from tournaments.selectors.leagues import is_league_organiser, organised_leagues
from tournaments.services import leagues as services

from .scoping import ByOrganiser, ScopedInline, is_staff, run_for_each


class LeagueScoped(ByOrganiser[Any], admin.ModelAdmin[Any]):
    """The rows of the leagues the user organises (``league_path`` leads there)."""

    league_path = ""

    def league_of(self, obj: Model) -> League:
        for part in filter(None, self.league_path.split("__")):
            obj = getattr(obj, part)
        assert isinstance(obj, League)
        return obj

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rows = super().get_queryset(request)
        if request.user.is_superuser:
            return rows
        path = f"{self.league_path}__organisers" if self.league_path else "organisers"
        return rows.filter(**{path: request.user})

    def may_organise(self, request: HttpRequest, obj: Model | None) -> bool:
        return is_staff(request) and (obj is None
                                      or is_league_organiser(request.user, self.league_of(obj)))


@admin.register(League)
class LeagueAdmin(LeagueScoped):
    list_display = ["name", "slug", "promote", "relegate"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]

    def save_model(self, request: HttpRequest, obj: League, form: Any, change: bool) -> None:
        services.league_save(league=obj, user=request.user)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        if not change:  # the form's organisers replaced the service's: its creator stays one
            form.instance.organisers.add(request.user)


class DivisionInline(ScopedInline[Division, Season], admin.TabularInline[Division, Season]):
    """A division: a tournament the user organises (the choices offer only those)."""

    model = Division
    extra = 0
    fields = ["level", "tournament"]


class SeriesEventInline(ScopedInline[SeriesEvent, Season],
                        admin.TabularInline[SeriesEvent, Season]):
    model = SeriesEvent
    extra = 0
    fields = ["tournament"]


@admin.register(Season)
class SeasonAdmin(LeagueScoped):
    league_path = "league"
    list_display = ["__str__", "kind", "status"]
    list_filter = ["status", "kind"]
    inlines = [DivisionInline, SeriesEventInline]
    actions = ["draft_next", "confirm"]
    fieldsets = [
        (None, {"fields": ["league", "number", "name", "kind", "status"]}),
        (gettext_lazy("A series"), {"fields": ["place_points", "best_of"]}),
    ]

    def save_model(self, request: HttpRequest, obj: Season, form: Any, change: bool) -> None:
        services.season_save(season=obj, user=request.user)

    def formfield_for_foreignkey(self, db_field: ForeignKey[Any, Any], request: HttpRequest,
                                 **kwargs: Any) -> ModelChoiceField[Any] | None:
        if db_field.name == "league":
            kwargs["queryset"] = organised_leagues(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    @admin.action(description=gettext_lazy("Draft the next season (who goes up and down)"))
    def draft_next(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        def draft(season: Season) -> str:
            following = services.season_draft_next(season=season, user=request.user)
            return _("%(draft)s is drafted: change its divisions' entries, then confirm it.") \
                % {"draft": following}
        run_for_each(self, request, queryset.select_related("league"), draft)

    @admin.action(description=gettext_lazy("Confirm the drafted season"))
    def confirm(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        def confirm(season: Season) -> str:
            services.season_confirm(season=season, user=request.user)
            return _("%(season)s is the league's current season.") % {"season": season}
        run_for_each(self, request, queryset.select_related("league"), confirm)
