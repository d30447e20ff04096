"""The tournament domain's tables, one module a part:

- ``core``: players, teams, tournaments, their entries, absences and check-ins, rounds,
  tables, matches, seats and results (the source of truth);
- ``entries``: players' requests to enter a tournament with a partner, until the place;
- ``leagues``: leagues, their seasons, divisions and series events; clubs, and the pairings
  an organiser forbids;
- ``notices``: what the platform tells each person; ``calendars``: their private feeds;
  ``keys``: their API keys, and the answers kept for writes sent with an idempotency key;
- ``schedule``: when an online tournament's rounds are played, and where its scheduler stands;
- ``webhooks``: the organisers' webhook subscriptions and their deliveries;
- ``derived``: standings and rating history, rebuilt from the results at any time;
- ``work``: the background work's jobs and the tasks owed to the broker.

Robot duplicate events are an app of their own, ``robot_duplicate``.
"""

from .calendars import CalendarKey
from .core import (
    BOT_LEVELS,
    HANDLE_LENGTH,
    LIVE_TABLE_KIND,
    Absence,
    CheckIn,
    Entry,
    Match,
    Player,
    Result,
    Round,
    Seat,
    Table,
    Team,
    Tournament,
    new_deal_seed,
    new_handle,
)
from .derived import RatingEntry, Standing
from .entries import EntryRequest
from .keys import ApiKey, IdempotentRequest
from .leagues import Club, Division, ForbiddenPairing, League, Season, SeriesEvent
from .mail import MailAddress
from .notices import Notification
from .schedule import Schedule
from .webhooks import WebhookDelivery, WebhookSubscription
from .work import Job, OutboxTask

__all__ = [
    "BOT_LEVELS", "HANDLE_LENGTH", "LIVE_TABLE_KIND", "Absence", "ApiKey", "CalendarKey", "CheckIn",
    "Club", "Division", "Entry", "EntryRequest", "ForbiddenPairing", "IdempotentRequest", "Job",
    "League",
    "MailAddress", "Match", "Notification", "OutboxTask", "Player", "RatingEntry", "Result",
    "Round", "Schedule", "Seat", "Season", "SeriesEvent", "Standing", "Table", "Team",
    "Tournament", "WebhookDelivery", "WebhookSubscription", "new_deal_seed", "new_handle",
]
