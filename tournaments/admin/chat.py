"""The chat messages people reported at live tables (``games.live.chat``): an organiser
sees those of their tournaments' tables, a superuser every table's (practice and friends'
tables too). Looked at, never edited: what to do about a person is the organiser's call
(a superuser may delete a report, or the message through the table)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.live.models import ChatReport

from .scoping import ReadOnlyScoped, TournamentFilter, is_staff


@admin.register(ChatReport)
class ChatReportAdmin(ReadOnlyScoped[ChatReport], admin.ModelAdmin[ChatReport]):
    tournament_path = "message__table__match__round__tournament"
    # a secret round's tables have no chat (``tournaments.services.online.live_chat_open``)
    list_display = ["created", "reporter", "author", "text", "channel", "table"]
    list_filter = [TournamentFilter]
    list_select_related = ["reporter", "message__user", "message__table"]
    search_fields = ["message__text", "message__user__username", "reporter__username"]
    readonly_fields = ["created", "reporter", "author", "text", "channel", "table"]
    fields = tuple(readonly_fields)

    def may_organise(self, request: HttpRequest, obj: Model | None) -> bool:
        # a practice table's report reaches no tournament: a superuser's alone
        if is_staff(request) and request.user.is_superuser:
            return True
        return super().may_organise(request, obj)

    @admin.display(description=_("said by"), ordering="message__user__username")
    def author(self, report: ChatReport) -> str:
        return report.message.user.get_username()

    @admin.display(description=_("message"))
    def text(self, report: ChatReport) -> str:
        return report.message.text

    @admin.display(description=_("channel"))
    def channel(self, report: ChatReport) -> str:
        return report.message.get_channel_display()

    @admin.display(description=_("live table"))
    def table(self, report: ChatReport) -> str:
        return str(report.message.table)
