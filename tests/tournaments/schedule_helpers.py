"""A scheduled online tournament for the schedule's tests."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from tournaments import services
from tournaments.models import Schedule, Tournament

from .factories import UserFactory, tournament_with_teams


def scheduled(teams: int = 4, *, starts_at: datetime | None = None, organiser: Any = None,
              **schedule: Any) -> tuple[Tournament, Schedule]:
    """An online round robin of ``teams`` (no player has a login: bots play every seat),
    on a schedule starting ``starts_at`` (in an hour) and planned."""
    organiser = organiser or UserFactory()
    tournament = tournament_with_teams(teams, play=Tournament.Play.ONLINE,
                                       format=Tournament.Format.ROUND_ROBIN,
                                       bot_level="greedy", organisers=[organiser])
    row = Schedule(tournament=tournament,
                   starts_at=starts_at or timezone.now() + timedelta(hours=1), **schedule)
    services.schedule_save(schedule=row, user=organiser)
    row.refresh_from_db()
    return tournament, row
