"""The players' mail addresses and notifications, for the site's operators (superusers).

They are a person's own, not a tournament's, so no organiser sees them: the scoping rule of
the tournament admins does not reach them. What an operator needs is to answer "why did I
get no mail?": whether the address is confirmed and which kinds it takes, what was told and
whether its mail went. The rows are read only, as the players and the services write them
(an address changes only through its owner's confirmation); an operator may resend a
confirmation link and send failed mails again, each through its service.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.models import MailAddress, Notification
from tournaments.notice_words import notice_text
from tournaments.services import mail
from tournaments.services.errors import TournamentUserError


class OperatorsOnly:
    """Seen by superusers alone, and never written in the admin."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MailAddress)
class MailAddressAdmin(OperatorsOnly, admin.ModelAdmin[MailAddress]):
    list_display = ["user", "email", "confirmed", "mail_off", "language"]
    list_filter = (("confirmed", admin.EmptyFieldListFilter), "mail_off", "language")
    search_fields = ["user__username", "email"]
    # the confirmation token is a secret: whoever holds it confirms the address
    fields = readonly_fields = ("user", "email", "confirmed", "kinds", "mail_off", "language")
    actions = ["resend_confirmation"]

    @admin.action(description=gettext_lazy("Send the confirmation link again"))
    def resend_confirmation(self, request: HttpRequest,
                            queryset: QuerySet[MailAddress]) -> None:
        sent = 0
        for address in queryset.filter(confirmed__isnull=True).select_related("user"):
            mail.mail_confirmation_resend(user=address.user)
            sent += 1
        self.message_user(request, ngettext(
            "The confirmation link goes to %(count)d address.",
            "The confirmation link goes to %(count)d addresses.", sent) % {"count": sent},
            messages.SUCCESS if sent else messages.WARNING)


@admin.register(Notification)
class NotificationAdmin(OperatorsOnly, admin.ModelAdmin[Notification]):
    list_display = ["created", "user", "kind", "words", "read", "mail", "mail_tries",
                    "mailed"]
    list_filter = ("kind", "mail", ("read", admin.EmptyFieldListFilter))
    search_fields = ["user__username", "key"]
    date_hierarchy = "created"
    list_select_related = ["user"]
    fields = readonly_fields = ("user", "kind", "key", "words", "params", "link", "created",
                                "read", "mail", "mail_tries", "mailed")
    actions = ["send_again"]

    @admin.display(description=gettext_lazy("words"))
    def words(self, notification: Notification) -> str:
        return notice_text(notification.kind, notification.params)

    @admin.action(description=gettext_lazy("Send the failed mails again"))
    def send_again(self, request: HttpRequest, queryset: QuerySet[Notification]) -> None:
        try:
            count = mail.mail_again(user=request.user,  # type: ignore[arg-type]
                                    notification_ids=list(queryset.values_list("pk",
                                                                               flat=True)))
        except TournamentUserError as exc:
            self.message_user(request, str(exc), messages.ERROR)
            return
        if count:
            self.message_user(request, ngettext(
                "%(count)d mail goes again.", "%(count)d mails go again.", count)
                % {"count": count}, messages.SUCCESS)
        else:
            self.message_user(request, _("None of them had failed: nothing goes again."),
                              messages.WARNING)
