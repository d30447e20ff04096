"""Players and teams: shared registers, not owned by any one tournament.

Any staff organiser may look through the registers and add players and teams: a team plays
in many organisers' tournaments, and registering it once beats a copy per tournament.

Changing or deleting one is another matter, since every tournament it takes part in shows
its name. The rule: **a superuser may change or delete any player or team; an organiser
only one whose every tournament is one they organise, or that takes part in none.** A team
takes part in the tournaments it is entered in or has a match in; a player in those of
every team they are in, and those they sat in or are marked absent from. So an organiser
renames the teams of their own events freely, while a team that also plays in another
organiser's tournament is renamed by a superuser. An organiser still sees such a player or
team, read-only. The rule (``services.may_edit_register``) holds on every write path the
admin has: the change page, the delete page and the "delete selected" action. (The REST
API only reads the registers.)
Bulk registration (``imports``) follows the same rule, row by row.
Besides, the database ``PROTECT``-s a player or team that has an entry or sits in a match.
A player's login and rating are left to superusers and to the ratings rebuild.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournaments import services
from tournaments.models import Player, Team
from tournaments.ratings import Rating

from .imports import CsvImportExport, PlayerResource, TeamResource
from .scoping import is_staff

_M = TypeVar("_M", bound=Player | Team)


class SharedRegistryAdmin(admin.ModelAdmin[_M]):
    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_view_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return is_staff(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_change_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return is_staff(request) and (obj is None or services.may_edit_register(request.user, obj))

    def has_delete_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return self.has_change_permission(request, obj)

    def get_deleted_objects(self, objs: Sequence[_M] | QuerySet[_M], request: HttpRequest
                            ) -> tuple[list[str], dict[str, int], set[str], list[str]]:
        """Also what "delete selected" asks: a selection holding a player or team of another
        organiser's tournament is refused, naming it (Django then refuses the POST)."""
        deleted, counts, refused, protected = super().get_deleted_objects(objs, request)
        for item in objs:
            if not services.may_edit_register(request.user, item):
                refused.add(_("%(item)s, which takes part in a tournament you do not "
                              "organise") % {"item": item})
        return deleted, counts, refused, protected


@admin.register(Player)
# ignore[misc]: the import-export stubs declare model and change_list_template unlike Django's
class PlayerAdmin(CsvImportExport[Player], SharedRegistryAdmin[Player]):  # type: ignore[misc]
    """Names may repeat; the handle, unique, tells two players apart (``Player.__str__``
    shows it in every choice, list and message)."""

    list_display = ["name", "handle", "user", "rating"]
    search_fields = ["name", "handle", "user__username"]
    fields = ["name", "handle", "user", "rating_mu", "rating_sigma"]
    resource_classes = [PlayerResource]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        derived = ["rating_mu", "rating_sigma"]  # rebuilt from results by "Recalculate ratings"
        return derived if request.user.is_superuser else ["user", *derived]

    @admin.display(description="rating")
    def rating(self, player: Player) -> str:
        return f"{Rating(player.rating_mu, player.rating_sigma).display:.1f}"


@admin.register(Team)
# ignore[misc]: the import-export stubs declare model and change_list_template unlike Django's
class TeamAdmin(CsvImportExport[Team], SharedRegistryAdmin[Team]):  # type: ignore[misc]
    list_display = ["name", "player_a", "player_b"]
    list_select_related = ["player_a", "player_b"]
    search_fields = ["name", "player_a__name", "player_b__name", "player_a__handle",
                     "player_b__handle"]
    resource_classes = [TeamResource]
    autocomplete_fields = ["player_a", "player_b"]
