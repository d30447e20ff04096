"""An organiser's webhooks in the admin: their own subscriptions (a superuser's: everyone's),
made here as through the API (``services.webhooks.webhook_create``, the secret shown once),
tested with a ``ping``, enabled again once their receiver is mended; and each one's delivery
log (status, time, response code, attempts), whose deliveries can be sent again."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.models import WebhookDelivery, WebhookSubscription
from tournaments.selectors.visibility import organised_tournaments
from tournaments.services import webhooks
from tournaments.services.errors import TournamentUserError

#: the deliveries a subscription's page lists (the log has them all)
RECENT = 20


class OwnRows:
    """Staff see their own subscriptions and deliveries; superusers everyone's."""

    owner_path = "organiser"

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def own(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{self.owner_path: request.user})


class SubscriptionForm(forms.ModelForm[WebhookSubscription]):
    url = forms.URLField(label=gettext_lazy("URL"), max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(choices=WebhookSubscription.Event.choices,
                                       widget=forms.CheckboxSelectMultiple,
                                       label=gettext_lazy("events"))

    class Meta:
        model = WebhookSubscription
        fields = ["url", "format", "tournament", "events"]

    user: Any = None  # the organiser making it (``WebhookSubscriptionAdmin.get_form``)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            try:
                webhooks.webhook_check(user=self.user, url=data["url"], format=data["format"],
                                       events=data["events"], tournament=data.get("tournament"))
            except (TournamentUserError, PermissionDenied) as exc:
                raise forms.ValidationError(str(exc)) from None
        return data


@admin.register(WebhookSubscription)
class WebhookSubscriptionAdmin(OwnRows, admin.ModelAdmin[WebhookSubscription]):
    form = SubscriptionForm
    list_display = ["url", "format", "tournament", "active", "consecutive_failures",
                    "disabled_reason", "created"]
    list_filter = ["active", "format"]
    list_select_related = ["tournament"]
    readonly_fields = ["organiser", "url", "format", "tournament", "events", "active",
                       "consecutive_failures", "disabled_at", "disabled_reason", "created",
                       "recent_deliveries"]
    actions = ["send_test_event", "enable_again"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[WebhookSubscription]:
        return self.own(request, super().get_queryset(request))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self.has_module_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request) and (
            obj is None or obj.organiser_id == request.user.pk or request.user.is_superuser)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ["url", "format", "tournament", "events"] if obj is None else self.readonly_fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [] if obj is None else self.readonly_fields

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest,
                                 **kwargs: Any) -> Any:
        if db_field.name == "tournament":  # only those the organiser organises
            kwargs["queryset"] = organised_tournaments(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: WebhookSubscription, form: Any,
                   change: bool) -> None:
        made = webhooks.webhook_create(
            user=request.user, url=obj.url, format=obj.format,
            events=form.cleaned_data["events"], tournament=obj.tournament)
        obj.pk, obj.secret = made.pk, made.secret
        self.message_user(request, _("Its secret, shown this once: %(secret)s. Verify each "
                                     "delivery's signature with it.") % {"secret": made.secret},
                          messages.WARNING)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False,
                 **kwargs: Any) -> Any:
        # the form checks with the service, which asks who makes the subscription
        return type("Form", (super().get_form(request, obj, change, **kwargs),),
                    {"user": request.user})

    def delete_model(self, request: HttpRequest, obj: WebhookSubscription) -> None:
        webhooks.webhook_delete(user=request.user, subscription=obj)

    @admin.display(description=gettext_lazy("recent deliveries"))
    def recent_deliveries(self, obj: WebhookSubscription) -> SafeString:
        rows = obj.deliveries.order_by("-created", "-id")[:RECENT]
        log = reverse("admin:tournaments_webhookdelivery_changelist") + "?" + urlencode(
            {"subscription__id__exact": obj.pk})
        table = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                                     "<td>{}</td><td>{}</td></tr>",
                                 ((d.created.strftime("%Y-%m-%d %H:%M:%S"), d.event_type,
                                   d.get_status_display(), d.response_code or "–", d.attempts,
                                   d.last_error) for d in rows))
        return format_html('<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th>'
                           '<th>{}</th><th>{}</th></tr>{}</table><p><a href="{}">{}</a></p>',
                           _("time"), _("event"), _("status"), _("response code"),
                           _("attempts"), _("last error"), table, log, _("the whole log"))

    @admin.action(description=gettext_lazy("Send a test event"))
    def send_test_event(self, request: HttpRequest,
                        queryset: QuerySet[WebhookSubscription]) -> None:
        for subscription in queryset:
            webhooks.webhook_ping(user=request.user, subscription=subscription)
        self.message_user(request, ngettext(
            "A test event goes to %(count)d webhook.", "A test event goes to %(count)d "
            "webhooks.", len(queryset)) % {"count": len(queryset)}, messages.SUCCESS)

    @admin.action(description=gettext_lazy("Enable again"))
    def enable_again(self, request: HttpRequest,
                     queryset: QuerySet[WebhookSubscription]) -> None:
        count = webhooks.webhooks_enable(user=request.user, subscriptions=queryset)
        self.message_user(request, ngettext(
            "%(count)d webhook is enabled again.", "%(count)d webhooks are enabled again.",
            count) % {"count": count}, messages.SUCCESS)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(OwnRows, admin.ModelAdmin[WebhookDelivery]):
    owner_path = "subscription__organiser"
    list_display = ["created", "event_type", "subscription", "status", "response_code",
                    "attempts", "next_attempt", "delivered_at", "last_error"]
    # the subscriptions among the rows shown (the person's own), not every one there is
    list_filter = ["status", "event_type", ("subscription", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["subscription"]
    fields = readonly_fields = ("subscription", "event_id", "event_type", "created", "status",
                                "attempts", "next_attempt", "response_code", "last_error",
                                "delivered_at", "payload")
    actions = ["send_again"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[WebhookDelivery]:
        return self.own(request, super().get_queryset(request))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=gettext_lazy("Send again"))
    def send_again(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        try:
            count = webhooks.webhook_send_again(user=request.user, deliveries=queryset)
        except PermissionDenied as exc:
            self.message_user(request, str(exc), messages.ERROR)
            return
        self.message_user(request, ngettext(
            "%(count)d delivery is sent again.", "%(count)d deliveries are sent again.",
            count) % {"count": count}, messages.SUCCESS)
