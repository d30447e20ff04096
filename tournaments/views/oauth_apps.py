"""A person's apps page (``accounts/apps/``): the third-party apps they allowed to act for
them, each withdrawn with a button; the apps they registered, with their client ids; and a
form to register one, its client secret shown once, on the answer to the form
(``services.oauth_apps``). The consent page itself is DOT's view (``api.oauth``)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from oauth2_provider.models import Application

from tournaments.selectors.oauth_apps import apps_allowed, apps_registered
from tournaments.services import oauth_apps
from tournaments.services.errors import TournamentUserError


class AppForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=255,
                           help_text=_("Shown to people when the app asks for their consent"))
    client_type = forms.ChoiceField(
        label=_("Kind of app"), widget=forms.RadioSelect,
        choices=[(Application.CLIENT_CONFIDENTIAL,
                  _("confidential: runs on a server, which keeps its client secret")),
                 (Application.CLIENT_PUBLIC,
                  _("public: runs on a person's device or in a browser, with no secret"))])
    redirect_uris = forms.CharField(
        label=_("Redirect URIs"), widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Where a person is sent back with the code after the consent, one "
                    "address a line; the app must name one of them exactly."))


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required lets no one else by
    return user


def _page(request: HttpRequest, form: AppForm, made: tuple[Application, str] | None = None,
          status: int = 200, error: str = "") -> HttpResponse:
    user = _user(request)
    return render(request, "tournaments/oauth_apps.html",
                  {"form": form, "allowed": apps_allowed(user),
                   "registered": apps_registered(user), "made": made, "error": error,
                   "confidential": Application.CLIENT_CONFIDENTIAL}, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def apps_page(request: HttpRequest) -> HttpResponse:
    """The person's apps; a POST registers one and shows its secret, this once."""
    if request.method != "POST":
        return _page(request, AppForm())
    form = AppForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        made = oauth_apps.app_register(user=_user(request), **form.cleaned_data)
    except TournamentUserError as exc:
        form.add_error(None, str(exc))
        return _page(request, form, status=400)
    return _page(request, AppForm(), made=made, status=201)


@login_required
@require_POST
def oauth_app_delete(request: HttpRequest, app_id: int) -> HttpResponse:
    try:
        oauth_apps.app_delete(user=_user(request), app_id=app_id)
    except TournamentUserError as exc:
        return _page(request, AppForm(), status=404, error=str(exc))
    return redirect("oauth_apps")


@login_required
@require_POST
def oauth_app_withdraw(request: HttpRequest, app_id: int) -> HttpResponse:
    oauth_apps.app_withdraw(user=_user(request), app_id=app_id)
    return redirect("oauth_apps")
