"""A person's API keys page: the keys they hold, a form to make one (its key shown once, on
the answer to the form), and revoking one (``services.keys``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.models import ApiKey, Tournament
from tournaments.services import keys
from tournaments.services.errors import TournamentUserError


class KeyForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100,
                           help_text=_("What the key is for, e.g. the club's results board"))
    scopes = forms.MultipleChoiceField(label=_("Scopes"), choices=ApiKey.Scope.choices,
                                       widget=forms.CheckboxSelectMultiple)
    tournaments = forms.ModelMultipleChoiceField(
        label=_("Only in these tournaments"), required=False, queryset=Tournament.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None chosen: its writes in every tournament you may act in."))

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournaments"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = Tournament.objects.filter(organisers=user).order_by("name")


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required lets no one else by
    return user


def _page(request: HttpRequest, form: KeyForm, made: tuple[ApiKey, str] | None = None,
          status: int = 200, error: str = "") -> HttpResponse:
    held = ApiKey.objects.filter(user=_user(request)).prefetch_related("tournaments")
    return render(request, "tournaments/api_keys.html",
                  {"form": form, "keys": held, "made": made, "error": error}, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def api_keys(request: HttpRequest) -> HttpResponse:
    """The person's keys; a POST makes one and shows it, this once."""
    user = _user(request)
    if request.method != "POST":
        return _page(request, KeyForm(user))
    form = KeyForm(user, request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        made = keys.key_create(user=user, name=form.cleaned_data["name"],
                               scopes=form.cleaned_data["scopes"],
                               tournaments=form.cleaned_data["tournaments"])
    except TournamentUserError as exc:
        form.add_error(None, str(exc))
        return _page(request, form, status=400)
    return _page(request, KeyForm(user), made=made, status=201)


@login_required
@require_POST
def api_key_revoke(request: HttpRequest, key_id: int) -> HttpResponse:
    try:
        keys.key_revoke(user=_user(request), key_id=key_id)
    except TournamentUserError as exc:
        return _page(request, KeyForm(_user(request)), status=404, error=str(exc))
    return redirect("api_keys")
