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
team, read-only. The rule holds on every write path the admin has: the change page, the
delete page and the "delete selected" action. (The REST API only reads the registers.)
Bulk registration (``imports``) follows the same rule, row by row.
Besides, the database ``PROTECT``-s a player or team that has an entry or sits in a match.
A player's login and rating are left to superusers and to the ratings rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournaments.models import Absence, Entry, Match, Player, Seat, Team, Tournament
from tournaments.ratings import Rating

from .imports import CsvImportExport, PlayerResource, TeamResource
from .scoping import is_staff


def tournaments_of(item: Player | Team) -> QuerySet[Tournament]:
    """The tournaments a team or player takes part in (see the module's docstring)."""
    if isinstance(item, Team):
        teams = Team.objects.filter(pk=item.pk)
    else:
        teams = Team.objects.filter(Q(player_a=item) | Q(player_b=item))
    matches = Match.objects.filter(Q(team_a__in=teams) | Q(team_b__in=teams))
    where = (Q(pk__in=Entry.objects.filter(team__in=teams).values("tournament"))
             | Q(pk__in=matches.values("round__tournament")))
    if isinstance(item, Player):
        where |= (Q(pk__in=Seat.objects.filter(player=item).values("round__tournament"))
                  | Q(pk__in=Absence.objects.filter(player=item).values("tournament")))
    return Tournament.objects.filter(where)


def may_edit(user: Any, item: Player | Team) -> bool:
    """The register's rule: a superuser edits everything; an organiser a player or team that
    takes part in no tournament but theirs."""
    return bool(user.is_superuser) or not tournaments_of(item).exclude(organisers=user).exists()


class SharedRegistryAdmin(admin.ModelAdmin):
    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff(request) and (obj is None or may_edit(request.user, obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

    def get_deleted_objects(self, objs: Iterable[Any], request: HttpRequest) -> Any:
        """Also what "delete selected" asks: a selection holding a player or team of another
        organiser's tournament is refused, naming it (Django then refuses the POST)."""
        deleted, counts, refused, protected = super().get_deleted_objects(objs, request)
        for item in objs:
            if not may_edit(request.user, item):
                refused.add(_("%(item)s, which takes part in a tournament you do not "
                              "organise") % {"item": item})
        return deleted, counts, refused, protected


@admin.register(Player)
class PlayerAdmin(CsvImportExport, SharedRegistryAdmin):
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
class TeamAdmin(CsvImportExport, SharedRegistryAdmin):
    list_display = ["name", "player_a", "player_b"]
    list_select_related = ["player_a", "player_b"]
    search_fields = ["name", "player_a__name", "player_b__name", "player_a__handle",
                     "player_b__handle"]
    resource_classes = [TeamResource]
    autocomplete_fields = ["player_a", "player_b"]
