"""Players, teams and clubs: shared registers, not owned by any one tournament.

Any staff organiser may look through the registers and add players, teams and clubs: a team
plays in many organisers' tournaments, and registering it once beats a copy per tournament.

Changing or deleting one is another matter, since every tournament it takes part in shows
its name. The rule: **a superuser may change or delete any player or team; an organiser
only one whose every tournament is one they organise, or that takes part in none.** A team
takes part in the tournaments it is entered in or has a match in; a player in those of
every team they are in, and those they sat in or are marked absent from. So an organiser
renames the teams of their own events freely, while a team that also plays in another
organiser's tournament is renamed by a superuser. An organiser still sees such a player or
team, read-only. The rule (``services.may_edit_register``) holds on every write path the
admin has: the change page, the delete page and the "delete selected" action; a new or
changed player, team or club is stored through ``services.register_save``, which the REST
API's ``POST /players/`` and ``POST /teams/`` call too. A club takes part in the
tournaments of its players and teams, and in those that keep its teams apart; the same rule
holds for it.
Bulk registration (``imports``) follows the same rule, row by row.
Besides, the database ``PROTECT``-s a player or team that has an entry or sits in a match.

A player's login (the account that reports and plays for them) is set by whoever may change
the player: by username, typed (the organiser sees no list of accounts), or by an **invite
link** from the player's page, which links the account that opens it
(``services.accounts``). An account belongs to one player at most. The rating is left to
the ratings rebuild.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import services
from tournaments.models import Club, Player, Team
from tournaments.ratings import Rating
from tournaments.services import accounts

from .imports import CsvImportExport, PlayerResource, TeamResource
from .scoping import change_url, is_staff, not_found

_M = TypeVar("_M", bound=Player | Team | Club)


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

    def save_model(self, request: HttpRequest, obj: _M, form: Any, change: bool) -> None:
        """Through the service the API calls too (``services.register_save``)."""
        services.register_save(item=obj, user=request.user)

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


class PlayerForm(forms.ModelForm[Player]):
    """The player's login given by its username, typed: an organiser is shown no list of
    the site's accounts."""

    user = forms.ModelChoiceField(
        queryset=User.objects.all(), to_field_name="username", required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
        label=gettext_lazy("login"),
        help_text=gettext_lazy("The username of the player's account, exactly as they "
                               "signed up with it; empty for none. Or send them an invite "
                               "link (above)."),
        error_messages={"invalid_choice": gettext_lazy("No account has this username.")})

    class Meta:
        model = Player
        fields = ["name", "handle", "user", "club"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.user is not None:  # shown by its username, not its id
            self.initial["user"] = self.instance.user.get_username()

    def clean_user(self) -> User | None:
        user: User | None = self.cleaned_data.get("user")
        if user is not None:
            try:
                accounts.require_free_account(user, self.instance)
            except accounts.AccountTaken as exc:
                raise forms.ValidationError(exc.message) from None
        return user


@admin.register(Player)
# ignore[misc]: the import-export stubs declare model and change_list_template unlike Django's
class PlayerAdmin(CsvImportExport[Player], SharedRegistryAdmin[Player]):  # type: ignore[misc]
    """Names may repeat; the handle, unique, tells two players apart (``Player.__str__``
    shows it in every choice, list and message)."""

    form = PlayerForm
    list_display = ["name", "handle", "user", "club", "rating"]
    list_select_related = ["user", "club"]
    search_fields = ["name", "handle", "user__username"]
    fields = ["name", "handle", "user", "club", "rating", "rating_mu", "rating_sigma"]
    autocomplete_fields = ["club"]
    # rebuilt from results by "Recalculate ratings"; shown on the site's scale, with the
    # model's mu and sigma it comes from
    readonly_fields = ["rating", "rating_mu", "rating_sigma"]
    resource_classes = [PlayerResource]

    def get_urls(self) -> list[Any]:
        return [path("<path:object_id>/invite/", self.admin_site.admin_view(self.invite_view),
                     name="tournaments_player_invite"), *super().get_urls()]

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        player = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if (player is not None and player.user_id is None
                and self.has_change_permission(request, player)):
            context["invite_url"] = reverse("admin:tournaments_player_invite", args=[player.pk])
        return super().change_view(request, object_id, form_url, context)

    def invite_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """A new invite link for a player without a login, to copy and send them."""
        player = self.get_object(request, object_id)
        if player is None:
            return not_found(self, request, object_id)
        if not self.has_change_permission(request, player):
            raise PermissionDenied
        if player.user is not None:
            self.message_user(request, _("%(player)s's login is %(username)s already: clear it "
                                         "first to invite another account.") % {
                "player": player, "username": player.user.get_username()}, messages.WARNING)
            return HttpResponseRedirect(change_url(player))
        link = request.build_absolute_uri(
            reverse("player_invite", args=[accounts.invite_token(player)]))
        return TemplateResponse(request, "admin/tournaments/player/invite.html", {
            **self.admin_site.each_context(request), "opts": self.opts, "original": player,
            "title": _("Invite link for %(player)s") % {"player": player}, "link": link,
            "expires": accounts.invite_expires(), "days": accounts.invite_days()})

    @admin.display(description=gettext_lazy("rating"))
    def rating(self, player: Player) -> str:
        return str(Rating(player.rating_mu, player.rating_sigma))


@admin.register(Team)
# ignore[misc]: the import-export stubs declare model and change_list_template unlike Django's
class TeamAdmin(CsvImportExport[Team], SharedRegistryAdmin[Team]):  # type: ignore[misc]
    list_display = ["name", "player_a", "player_b", "club"]
    list_select_related = ["player_a", "player_b", "club"]
    search_fields = ["name", "player_a__name", "player_b__name", "player_a__handle",
                     "player_b__handle"]
    resource_classes = [TeamResource]
    autocomplete_fields = ["player_a", "player_b", "club"]


@admin.register(Club)
class ClubAdmin(SharedRegistryAdmin[Club]):
    """A club's players and teams are set on their own pages; a tournament keeps clubs'
    teams apart on its own."""

    list_display = ["name", "player_count", "team_count"]
    search_fields = ["name"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).annotate(
            player_count=Count("players", distinct=True), team_count=Count("teams", distinct=True))

    @admin.display(description=gettext_lazy("players"), ordering="player_count")
    def player_count(self, club: Club) -> int:
        return getattr(club, "player_count", 0)

    @admin.display(description=gettext_lazy("teams (of their own club)"), ordering="team_count")
    def team_count(self, club: Club) -> int:
        return getattr(club, "team_count", 0)
