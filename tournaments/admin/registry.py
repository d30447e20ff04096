"""Players and teams: shared registries, not owned by any one tournament.

Any staff organiser may add and edit players and teams: a team plays in many organisers'
tournaments, and registering it once beats a copy per tournament. What protects other
organisers' tournaments is the database (a player or team that sits in a match or has an
entry is ``PROTECT``-ed) and the admin's delete check, which refuses a delete that would
cascade into another organiser's absences or into rating history. A player's login and
rating are left to superusers and to the ratings rebuild.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Player, Team
from tournaments.ratings import Rating

from .scoping import is_staff


class SharedRegistryAdmin(admin.ModelAdmin):
    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request)


@admin.register(Player)
class PlayerAdmin(SharedRegistryAdmin):
    list_display = ["name", "user", "rating"]
    search_fields = ["name", "user__username"]
    fields = ["name", "user", "rating_mu", "rating_sigma"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        derived = ["rating_mu", "rating_sigma"]  # rebuilt from results by "Recalculate ratings"
        return derived if request.user.is_superuser else ["user", *derived]

    @admin.display(description="rating")
    def rating(self, player: Player) -> str:
        return f"{Rating(player.rating_mu, player.rating_sigma).display:.1f}"


@admin.register(Team)
class TeamAdmin(SharedRegistryAdmin):
    list_display = ["name", "player_a", "player_b"]
    list_select_related = ["player_a", "player_b"]
    search_fields = ["name", "player_a__name", "player_b__name"]
    autocomplete_fields = ["player_a", "player_b"]
