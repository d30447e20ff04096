"""A person's notifications (the page, opening one, marking all read, the header's unread
count) and their mail: the address and what comes by mail, confirming the address, and the
unsubscribe link every mail carries (``services.notices``, ``services.mail``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.models import Notification
from tournaments.selectors.notices import (
    notice_view,
    unread_count,
    user_mail_address,
    user_notifications,
)
from tournaments.services import mail, notices
from tournaments.services.errors import TournamentUserError


def header_unread(request: HttpRequest) -> dict[str, Any]:
    """The context processor of the header's unread count: one indexed count, made only
    when a page shows it (to a logged-in person), none for a visitor."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notices": SimpleLazyObject(lambda: unread_count(user.pk))}


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required lets no one else by
    return user


@never_cache
@login_required
@require_http_methods(["GET"])
def notification_list(request: HttpRequest) -> HttpResponse:
    """The person's notifications, newest first; unread ones marked so."""
    rows = [notice_view(n) for n in user_notifications(_user(request).pk)]
    return render(request, "tournaments/notifications.html", {"rows": rows})


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    notices.notices_mark_read(user_id=_user(request).pk)
    return redirect("notifications")


@login_required
@require_http_methods(["GET", "POST"])
def notification_open(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Open one: it is marked read, and the page goes where it leads (or back to the list)."""
    opened = notices.notice_open(user_id=_user(request).pk, notification_id=notification_id)
    link = notice_view(opened).link if opened is not None else ""
    return redirect(link or "notifications")


class MailForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("E-mail address"), required=False,
                             help_text=gettext_lazy(
                                 "Mail goes to it once you open the link mailed to it. "
                                 "Leave it empty to get no mail at all."))
    kinds = forms.MultipleChoiceField(
        label=gettext_lazy("Notifications that come by mail"), required=False,
        choices=Notification.Kind.choices, widget=forms.CheckboxSelectMultiple)
    mail_off = forms.BooleanField(label=gettext_lazy("No mail at all"), required=False)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def mail_settings(request: HttpRequest) -> HttpResponse:
    """The person's address and which notifications come by mail."""
    user = _user(request)
    address = user_mail_address(user.pk)
    initial = ({"email": address.email, "kinds": address.kinds, "mail_off": address.mail_off}
               if address is not None else {"kinds": Notification.Kind.values})
    form = MailForm(request.POST if request.method == "POST" else None, initial=initial)
    saved = False
    if request.method == "POST" and "resend" in request.POST:
        mail.mail_confirmation_resend(user=user)
        saved = True
    elif request.method == "POST" and form.is_valid():
        language = translation.get_language() or "en"
        try:
            address = mail.mail_address_set(user=user, email=form.cleaned_data["email"],
                                            language=language)
            if address is not None:
                address = mail.mail_preferences_set(
                    user=user, kinds=form.cleaned_data["kinds"],
                    mail_off=form.cleaned_data["mail_off"], language=language)
        except TournamentUserError as exc:
            form.add_error("email", exc.message)
        else:
            saved = True
            form = MailForm(initial={"email": address.email, "kinds": address.kinds,
                                     "mail_off": address.mail_off} if address else None)
    return render(request, "tournaments/mail_settings.html",
                  {"form": form, "address": address, "saved": saved})


@never_cache
@require_http_methods(["GET", "POST"])
def mail_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to a new address: asks to confirm (a mail reader that opens links
    confirms nothing), and the POST confirms it."""
    if request.method == "POST":
        address = mail.mail_address_confirm(token=token)
        return render(request, "tournaments/mail_done.html", {
            "message": _("%(email)s is confirmed: the notifications you chose come to it by "
                         "mail.") % {"email": address.email}})
    address = mail.mail_address_of_token(token)
    return render(request, "tournaments/mail_confirm.html", {"address": address})


@never_cache
@csrf_exempt  # the one-click POST (RFC 8058) comes from a mail reader: the token is the key
@require_http_methods(["GET", "POST"])
def mail_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """A mail's unsubscribe link: GET asks, POST (the page's button, or a mail reader's
    one-click ``List-Unsubscribe=One-Click``) turns the kind's mail off, or all mail."""
    if request.method == "POST":
        address, kind = mail.mail_unsubscribe(token=token)
        message = (_("No more mail of this kind goes to %(email)s: “%(kind)s”.")
                   % {"email": address.email, "kind": Notification.Kind(kind).label}
                   if kind in Notification.Kind.values else
                   _("No more mail goes to %(email)s.") % {"email": address.email})
        return render(request, "tournaments/mail_done.html", {"message": message})
    address, kind = mail.unsubscribe_read(token)
    return render(request, "tournaments/mail_unsubscribe.html", {
        "address": address,
        "kind": Notification.Kind(kind).label if kind in Notification.Kind.values else None})
