from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Django's way: the models (and so the services) load only once the apps are ready.
        from games.live import inbox
        from games.live.kinds import (
            on_chat,
            on_describe,
            on_finished,
            on_substituted,
            on_watch,
        )
        from tournaments.models import LIVE_TABLE_KIND
        from tournaments.selectors.notices import notice_worded, unread_count
        from tournaments.selectors.online import describe_live_tables
        from tournaments.services.online import (
            live_chat_open,
            may_watch_live_match,
            record_live_result,
            tell_substituted,
        )

        on_finished(LIVE_TABLE_KIND, record_live_result)
        on_watch(LIVE_TABLE_KIND, may_watch_live_match)
        on_substituted(LIVE_TABLE_KIND, tell_substituted)
        on_describe(LIVE_TABLE_KIND, describe_live_tables)
        on_chat(LIVE_TABLE_KIND, live_chat_open)
        # a person's open pages are told of their notifications in their words
        inbox.register(inbox.Inbox(word=notice_worded, unread=unread_count))
