"""The API's tournament detail shows players' entries: the window, the places taken and the
teams waiting (reading only; entering is on the site)."""

from __future__ import annotations

from datetime import datetime

import pytest
from rest_framework.test import APIClient

from tests.tournaments.entering import enter_team, open_tournament, player_with_login
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_a_tournament_shows_its_entry_window_places_and_waiting_teams() -> None:
    tournament = open_tournament(capacity=2, waiting_list=True)
    for _ in range(3):
        enter_team(tournament, player_with_login(), player_with_login())

    data = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/").json()["entries"]

    assert data == {
        "mode": "open", "capacity": 2, "waiting_list": True, "places_taken": 2, "waiting": 1,
        "opens": data["opens"], "closes": data["closes"]}
    assert datetime.fromisoformat(data["opens"]) == tournament.entries_open
    assert datetime.fromisoformat(data["closes"]) == tournament.entries_close


def test_an_invite_only_tournament_shows_no_window() -> None:
    tournament = TournamentFactory()
    data = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/").json()["entries"]
    assert data == {"mode": "invite", "opens": None, "closes": None, "capacity": None,
                    "waiting_list": False, "places_taken": 0, "waiting": 0}
