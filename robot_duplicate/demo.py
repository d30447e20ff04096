"""The demo's robot duplicate event (``manage.py setup_demo``, ``tournaments.demo``): open
for a week, organised by the demo's organiser, so the player logins can each play its
boards once."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.utils import timezone

from .models import RobotEvent

if TYPE_CHECKING:
    from django.contrib.auth.models import User

DEMO_EVENT_NAME = "Demo robot duplicate"


def build_demo_event(organiser: User) -> None:
    """The event, once: one kept from an earlier demo stays as it is (names are unique)."""
    if RobotEvent.objects.filter(name__iexact=DEMO_EVENT_NAME).exists():
        return
    now = timezone.now()
    event = RobotEvent.objects.create(name=DEMO_EVENT_NAME, opens=now,
                                      closes=now + timedelta(days=7), bot_level="greedy")
    event.organisers.add(organiser)
