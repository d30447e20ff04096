"""Players' accounts on the site: signing up, the password-reset mail, and opening an
organiser's invite link (``services.accounts`` decides what an invite may do).

A sign-up must not get round the login limits (docs/operating/login-limits.md): an address locked
out of logging in is refused a sign-up too, and every sign-up and reset request, made or
refused, counts towards ``SIGNUP_LIMIT`` per address (``services.accounts``).
"""

from __future__ import annotations

from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_ip_address
from django import forms
from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from tournaments.services import accounts, mail

# the backend a new account is logged in with: django-axes' own only guards authenticate()
_BACKEND = "django.contrib.auth.backends.ModelBackend"


class SignupForm(UserCreationForm[User]):
    """Django's sign-up form (username, password twice) with an optional e-mail address,
    for the password-reset mail and, once confirmed, the notifications' mail."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].help_text = _(
            "Optional: once you open the link mailed to it, for resetting a forgotten "
            "password and for the notifications you choose to get by mail.")

    def clean_username(self) -> str:
        # names go into the CSV exports, where a spreadsheet reads these as a formula
        if str(self.cleaned_data.get("username") or "")[:1] in ("+", "-", "@", "="):
            raise forms.ValidationError(_("A username may not begin with +, -, @ or =."))
        username: str = super().clean_username()
        return username


def _next_url(request: HttpRequest) -> str:
    """Where to go after signing up: the ``next`` asked for, if it is on this site."""
    wanted = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME, "")
    if url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return wanted
    return ""


def _too_many(request: HttpRequest, message: str, seconds: int) -> HttpResponse:
    response = render(request, "error.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def _over_limit(request: HttpRequest, kind: str) -> HttpResponse | None:
    """The answer to a sign-up or reset request over its address's limit, or None."""
    wait = accounts.within_request_limit(kind, str(get_client_ip_address(request)))
    if wait is None:
        return None
    return _too_many(request, _(
        "Too many requests from this address: try again in %(minutes)d minutes.")
        % {"minutes": -(-wait // 60)}, wait)


def _locked_out(request: HttpRequest, username: str) -> HttpResponse | None:
    """The answer to a sign-up from an address (or for a username) the failed-login limit
    has locked, or None. ``username`` is the form's, checked (the raw field could hold text
    the database cannot compare)."""
    if not AxesProxyHandler.is_locked(request, {"username": username}):
        return None
    minutes = settings.LOGIN_COOLOFF_MINUTES
    return _too_many(request, _(
        "Too many failed logins for this username or from this address: signing up is "
        "refused for %(minutes)d minutes.") % {"minutes": minutes}, minutes * 60)


@never_cache
@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new account, logged in at once; then home, or back to the page that asked."""
    next_url = _next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        refused = _over_limit(request, "signup")
        if refused is not None:
            return refused
        if form.is_valid():
            locked = _locked_out(request, form.cleaned_data["username"])
            if locked is not None:
                return locked
            try:
                with transaction.atomic():
                    user = form.save()
                    # its confirmation link is mailed after the commit (services.mail)
                    mail.mail_address_set(user=user, email=form.cleaned_data.get("email", ""),
                                          language=translation.get_language() or "en")
            except IntegrityError:  # the same username, signed up a moment before
                form.add_error("username", _("A user with that username already exists."))
            except mail.MailRefused as exc:  # an address another account has confirmed
                form.add_error("email", exc.message)
            else:
                login(request, user, backend=_BACKEND)
                return redirect(next_url or "home")
    return render(request, "registration/signup.html",
                  {"form": form, "next": next_url, "login_url": _with_next("login", next_url)})


def _with_next(name: str, next_url: str) -> str:
    url = reverse(name)
    return f"{url}?{urlencode({REDIRECT_FIELD_NAME: next_url})}" if next_url else url


#: What logging in leads to, by the name of the page that asked for it.
_LEADS = {
    "live:table": lambda: _("Log in to take your seat at your table."),
    "live:friends": lambda: _("Log in to take your seat at your friends' table."),
    "live:friends_join": lambda: _("Log in to take the seat your friend saved for you."),
    "player_invite": lambda: _("Log in (or sign up) to become the player this invitation "
                               "is for."),
    "tournaments:tournament_enter": lambda: _("Log in to enter the tournament with a "
                                              "partner."),
    "tournaments:entry_request": lambda: _("Log in to answer your partner's request."),
    "robot_duplicate:detail": lambda: _("Log in to play the boards against the bots."),
}


def login_lead(next_url: str) -> str:
    """The login page's first line: what logging in leads to, from the page that sent the
    person here (a seat link, an invitation), else what logging in is for."""
    try:
        name = resolve(next_url.split("?", 1)[0]).view_name if next_url else ""
    except Resolver404:
        name = ""
    lead = _LEADS.get(name)
    return lead() if lead else _("Log in to play at your tables, enter tournaments, and "
                                 "report and confirm your matches' results.")


class LoginView(auth_views.LoginView):
    """Django's login page, whose first line says what logging in leads to."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        return {**context, "lead": login_lead(str(context.get(REDIRECT_FIELD_NAME) or ""))}


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page, sending its mail only where mail is set up and within the
    request limit of the address, and from a worker (``accounts.password_reset_later``)."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs),
                "mail_configured": settings.MAIL_CONFIGURED}

    def form_valid(self, form: forms.Form) -> HttpResponse:
        request = self.request
        accounts.password_reset_later(email=form.cleaned_data["email"],
                                      domain=request.get_host(), use_https=request.is_secure(),
                                      language=translation.get_language())
        return HttpResponseRedirect(self.get_success_url())

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.MAIL_CONFIGURED:
            return self.get(request, *args, **kwargs)
        refused = _over_limit(request, "password_reset")
        return refused if refused is not None else super().post(request, *args, **kwargs)


@never_cache
@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponseBase:
    """An invite link: logged out, asks to log in or sign up and come back; logged in, asks
    to confirm, and the confirming POST links the account to the player. A link that
    cannot be used says why (400 or 410, from ``services.accounts``)."""
    player = accounts.invite_player(token, request.user)
    here = request.get_full_path()
    if not request.user.is_authenticated:
        return render(request, "registration/invite.html", {
            "player": player, "login_url": _with_next("login", here),
            "signup_url": _with_next("signup", here)})
    user = request.user
    accounts.require_free_account(user, player)
    if request.method == "POST":
        accounts.invite_accept(token=token, user=user)
        return redirect("tournaments:player_detail", player_id=player.pk)
    return render(request, "registration/invite.html", {"player": player})
