"""A published match whose four players have accounts: the setting of players reporting their
own result at the venue, shared by the service, page and browser tests."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.apps import apps
from django.contrib.auth.hashers import make_password

from tournaments import services
from tournaments.models import Match, Tournament

from .factories import UserFactory, tournament_with_teams

PASSWORD = "a-long-test-password-1"
# R9.1: the team whose player went out scores 0; the other holds at least two cards (R2.4)
SHEET = [[0, 40], [30, 0], [0, 50], [40, 0], [0, 25]]
OUT = [0, 1, 2, 3, 0]


@dataclass
class Venue:
    organiser: Any
    tournament: Tournament
    match: Match
    players: list[Any]  # the users in seats 0..3: seats 0 and 2 are team A, 1 and 3 team B


@cache
def hashed_password() -> str:
    """``PASSWORD`` hashed once (a hash takes about a second; every user may share it)."""
    return make_password(PASSWORD)


def venue_match(**settings: Any) -> Venue:
    organiser = UserFactory(username="organiser", password=hashed_password())
    tournament = tournament_with_teams(2, organisers=[organiser], **settings)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    match = round.matches.get()
    users = []
    for seat in match.seats.select_related("player").order_by("position"):
        user = UserFactory(username=f"seat{seat.position}", is_staff=False,
                           password=hashed_password())
        seat.player.user = user
        seat.player.save()
        users.append(user)
    return Venue(organiser, tournament, match, users)


def database_state() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every tournament model, to compare before and after."""
    return {model.__name__: sorted(map(tuple, model.objects.values_list()), key=repr)
            for model in apps.get_app_config("tournaments").get_models()}
