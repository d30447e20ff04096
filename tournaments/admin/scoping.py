"""The organiser's permission boundary, shared by every tournament admin.

Staff status is what lets a user into the admin; *which* tournaments they may see and change
is the tournament's ``organisers`` relation, the same rule the services enforce
(``services.is_organiser``: superusers organise everything). Django's per-model permissions
are not consulted for tournament data, so there is one rule, not two that can disagree.

Every row reaches its tournament through ``tournament_path`` (``"round__tournament"`` for a
match); the changelist, the change page, foreign-key choices and list filters are all cut by
it, and a row outside it is "not found" (the admin redirects), never shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.contrib import admin, messages
from django.contrib.admin.options import BaseModelAdmin, InlineModelAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import ForeignKey, Model, QuerySet
from django.forms import ModelChoiceField
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from config.users import RequestUser
from tournaments import selectors, services
from tournaments.models import Job, Match, Round, Tournament

_M = TypeVar("_M", bound=Model)
_Parent = TypeVar("_Parent", bound=Model)


def is_staff(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff)


def scoped(queryset: QuerySet[_M], user: RequestUser, path: str) -> QuerySet[_M]:
    """``queryset`` cut to the rows of tournaments ``user`` organises (all, for a superuser)."""
    if user.is_superuser:
        return queryset
    return queryset.filter(**{f"{path}__organisers" if path else "organisers": user})


# The models a foreign key may point at that belong to a tournament, and the way there.
SCOPED_TARGETS: dict[type[Model], str] = {Tournament: "", Round: "tournament",
                                          Match: "round__tournament"}


def change_url(obj: Model) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def console_url(tournament: Tournament | int) -> str:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return reverse("admin:tournaments_tournament_console", args=[pk])


def safe_next(request: HttpRequest) -> str:
    """The page to go back to once a form is saved (``?next=``, which a page's links pass on,
    and a form's post keeps in its address), when it is one of this site's; else "". Never
    another site's: a crafted link must not send an organiser off the site."""
    url = request.GET.get("next", "")
    if url and url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
        return url
    return ""


def with_next(url: str, next_url: str) -> str:
    """``url`` that brings its reader back to ``next_url`` once its form is saved."""
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def not_found(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
              object_id: str) -> HttpResponse:
    """What the admin answers for an object it does not find (or that is outside the user's
    tournaments): a message, and back to the admin's index."""
    # Django's own step, which the stubs leave out
    response: HttpResponse = model_admin._get_obj_does_not_exist_redirect(  # type: ignore[attr-defined]
        request, model_admin.opts, object_id)
    return response


def link(obj: Model, text: object = None) -> SafeString:
    return format_html('<a href="{}">{}</a>', change_url(obj), obj if text is None else text)


def progress(job: Job) -> SafeString:
    """``done/total`` with a progress bar, for the job list, the job page and the round page."""
    return format_html('<progress value="{}" max="{}" style="vertical-align: middle"></progress>'
                       " {}/{} ({})", job.done, max(job.total, 1), job.done, job.total,
                       job.get_status_display())


def without_secret_games(rows: QuerySet[Any], user: RequestUser, round_path: str
                         ) -> QuerySet[Any]:
    """``rows`` (reached from their round through ``round_path``) less those of the secret
    rounds ``user`` plays in."""
    return rows.exclude(**{f"{round_path}__in": selectors.secret_rounds_played_by(user)})


class ScopedChoices(BaseModelAdmin[_M]):
    """Admin mixin: a foreign key to a tournament, round or match offers only the user's."""

    def formfield_for_foreignkey(self, db_field: ForeignKey[Any, Any], request: HttpRequest,
                                 **kwargs: Any) -> ModelChoiceField[Any] | None:
        path = SCOPED_TARGETS.get(db_field.related_model)
        if path is not None:
            kwargs["queryset"] = scoped(db_field.related_model._default_manager.all(),
                                        request.user, path)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ByOrganiser(ScopedChoices[_M]):
    """ModelAdmin mixin: any staff user may open the admin's page and add a row; a row is
    seen, changed and deleted by those who organise it (``may_organise``)."""

    def may_organise(self, request: HttpRequest, obj: Model | None) -> bool:
        raise NotImplementedError

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff(request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_staff(request)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self.may_organise(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self.may_organise(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self.may_organise(request, obj)


class TournamentScoped(ByOrganiser[_M]):
    """ModelAdmin mixin: the rows of the tournaments the user organises, and nothing else."""

    tournament_path = "tournament"
    # The path to the row's round, for rows of a game (a match, its result): those of a
    # secret round are left out for an organiser who plays in it (``selectors.visibility``).
    round_path: str | None = None

    def tournament_of(self, obj: Model) -> Tournament:
        for part in filter(None, self.tournament_path.split("__")):
            obj = getattr(obj, part)
        assert isinstance(obj, Tournament)
        return obj

    def may_organise(self, request: HttpRequest, obj: Model | None) -> bool:
        if not is_staff(request):
            return False
        return obj is None or services.is_organiser(request.user, self.tournament_of(obj))

    def get_queryset(self, request: HttpRequest) -> QuerySet[_M]:
        rows = scoped(super().get_queryset(request), request.user, self.tournament_path)
        return rows if self.round_path is None else without_secret_games(
            rows, request.user, self.round_path)



class ReadOnlyScoped(TournamentScoped[_M]):
    """Derived rows (standings, ratings, jobs): looked at, never edited. Only a superuser may
    delete them, which is what lets a superuser delete a whole tournament."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return bool(request.user.is_superuser)


# ScopedChoices[Any], as Django's stubs type an inline's base: its permissions take the parent
class ScopedInline(ScopedChoices[Any], InlineModelAdmin[_M, _Parent]):
    """Inline mixin: may do what the parent's admin may do with the parent object."""

    def parent_admin(self) -> admin.ModelAdmin[_Parent]:
        return self.admin_site.get_model_admin(self.parent_model)

    def has_view_permission(self, request: HttpRequest, obj: _Parent | None = None) -> bool:
        return bool(self.parent_admin().has_view_permission(request, obj))

    def has_change_permission(self, request: HttpRequest, obj: _Parent | None = None) -> bool:
        return bool(self.parent_admin().has_change_permission(request, obj))

    def has_add_permission(self, request: HttpRequest, obj: _Parent | None = None) -> bool:
        return self.has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: _Parent | None = None) -> bool:
        return self.has_change_permission(request, obj)


class TournamentFilter(admin.SimpleListFilter):
    """Filter by tournament, offering only the tournaments the user organises (the stock
    related-field filter would list every tournament's name)."""

    title = gettext_lazy("tournament")
    parameter_name = "tournament"

    def __init__(self, request: HttpRequest, params: Any, model: Any, model_admin: Any) -> None:
        self.path = model_admin.tournament_path or "pk"
        super().__init__(request, params, model, model_admin)

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        mine = scoped(Tournament.objects.all(), request.user, "")
        return [(str(t.pk), str(t)) for t in mine]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value():
            return queryset.filter(**{self.path: self.value()})
        return queryset


def run_for_each(model_admin: admin.ModelAdmin[_M], request: HttpRequest,
                 objects: Iterable[_M], do: Callable[[_M], StrOrPromise], *,
                 empty: StrOrPromise = "") -> None:
    """An admin action's loop: ``do(obj)`` for each selected row, reporting its message or
    the organiser-facing error it raised. ``objects`` comes from the scoped changelist, so a
    row the user does not organise never gets here; an empty selection says so."""
    count = 0
    for obj in objects:
        count += 1
        try:
            done = do(obj)
        except (services.TournamentUserError, PermissionDenied) as exc:
            model_admin.message_user(request, format_html("{}: {}", obj, exc), messages.ERROR)
        else:
            model_admin.message_user(request, done, messages.SUCCESS)
    if not count:
        model_admin.message_user(
            request, empty or _("Nothing was done: none of the selected items belongs to a "
                                "tournament you organise."), messages.ERROR)
