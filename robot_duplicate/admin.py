"""Robot duplicate events: an organiser creates one (its kind, window, bots and how a board
a bot finished counts) and follows its entries; entries are written only by the entrants'
tables. Who sees which event is its ``organisers`` relation, as for a tournament
(``tournaments.admin.scoping``): an organiser sees their own events, a superuser every one."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from tournaments.admin.scoping import is_staff, scoped

from . import selectors
from .models import RobotEntry, RobotEvent


class RobotEntryInline(admin.TabularInline[RobotEntry, RobotEvent]):
    model = RobotEntry
    extra = 0
    fields = readonly_fields = ("player", "partner", "live_table", "started", "finished",
                                "hand_scores", "bot_hands")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RobotEvent)
class RobotEventAdmin(admin.ModelAdmin[RobotEvent]):
    list_display = ["name", "kind", "opens", "closes", "bot_level"]
    search_fields = ["name"]
    filter_horizontal = ["organisers"]
    inlines = [RobotEntryInline]
    fields = ["name", "organisers", "kind", "opens", "closes", "bot_level", "bot_boards",
              "turn_seconds", "grace_seconds"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[RobotEvent]:
        return scoped(super().get_queryset(request), request.user, "")

    def _organises(self, request: HttpRequest, obj: RobotEvent | None) -> bool:
        if not is_staff(request):
            return False
        return obj is None or selectors.organises_robot(obj, request.user)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._organises(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._organises(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._organises(request, obj)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "organisers":  # staff users, as a tournament's organisers
            kwargs["required"] = False
            kwargs["queryset"] = (get_user_model().objects
                                  .filter(Q(is_staff=True) | Q(robot_events__isnull=False))
                                  .distinct().order_by("username"))
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        if not change:  # whoever creates an event organises it
            form.instance.organisers.add(request.user)
