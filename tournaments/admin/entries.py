"""The requests of players entering by themselves: the list (the tournaments the user
organises), and approving or refusing a team (``services.entries``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from tournaments import services
from tournaments.models import EntryRequest

from .scoping import TournamentFilter, TournamentScoped, run_for_each


@admin.register(EntryRequest)
class EntryRequestAdmin(TournamentScoped[EntryRequest], admin.ModelAdmin[EntryRequest]):
    """Read-only rows: a request changes only through its players' steps and the actions
    here, each of which tells the players."""

    list_display = ["tournament", "asker", "partner_handle", "team", "state", "number",
                    "created"]
    list_filter = [TournamentFilter, "state"]
    list_select_related = ["tournament", "asker", "team"]
    search_fields = ["asker__name", "partner_handle", "team__name"]
    ordering = ["tournament", "number", "id"]
    actions = ["approve", "refuse"]
    readonly_fields = ["tournament", "asker", "partner_handle", "partner", "team", "state",
                       "number", "created", "answered"]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        # the change page shows the row; the actions are the only changes
        return self.may_organise(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return bool(request.user.is_superuser)

    @admin.action(description=_("Approve the selected teams (a place, or the waiting list)"))
    def approve(self, request: HttpRequest, queryset: QuerySet[EntryRequest]) -> None:
        def approve_one(entry_request: EntryRequest) -> StrOrPromise:
            done = services.entry_approve(request=entry_request, user=request.user)
            return gettext("%(request)s: %(state)s.") % {
                "request": done, "state": done.get_state_display()}
        run_for_each(self, request, queryset, approve_one)

    @admin.action(description=_("Refuse the selected teams"))
    def refuse(self, request: HttpRequest, queryset: QuerySet[EntryRequest]) -> None:
        def refuse_one(entry_request: EntryRequest) -> StrOrPromise:
            done = services.entry_refuse(request=entry_request, user=request.user)
            return gettext("%(request)s: refused; its players are told.") % {"request": done}
        run_for_each(self, request, queryset, refuse_one)
