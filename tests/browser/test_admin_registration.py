"""An organiser registers teams from a CSV file (a refused row first), and checks players in
before a round: the player left unticked gets a bot in their seat."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Player, Seat, Team

from ..tournaments.factories import PlayerFactory, UserFactory, tournament_with_teams
from . import browser_fixture, expect, page_fixture  # noqa: F401  (fixtures)
from .test_organiser import run_action

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-test-password-2"


def log_in(page: Any, live_server: Any) -> None:
    """An organiser who is not a superuser: the scoped admin."""
    user = UserFactory(username="org")
    user.set_password(PASSWORD)
    user.save()
    page.goto(live_server.url + "/admin/")
    page.get_by_label("Username").fill("org")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def upload(page: Any, text: str) -> None:
    page.locator('input[name="import_file"]').set_input_files(
        files=[{"name": "teams.csv", "mimeType": "text/csv", "buffer": text.encode()}])
    page.get_by_role("button", name="Submit").click()


def test_a_csv_import_with_a_refused_row_stores_nothing_until_the_file_is_fixed(
        page: Any, live_server: Any) -> None:
    PlayerFactory(name="Aino", handle="aino")
    PlayerFactory(name="Aino", handle="aino-k")
    PlayerFactory(name="Bo", handle="bo")
    log_in(page, live_server)
    page.goto(live_server.url + "/admin/tournaments/team/import/")

    upload(page, "name,player_a,player_b\nNorth,aino,bo\nSouth,aino-k,aino-k\n")

    preview = page.locator(".import-preview")
    refused = preview.get_by_role("row").filter(has_text="South")
    expect(refused.get_by_text("A team needs two different players.")).to_be_visible()
    expect(refused.get_by_role("cell").first).to_have_text("3")  # the file's line 3
    expect(page.get_by_role("button", name="Confirm import")).to_have_count(0)
    assert not Team.objects.exists()

    upload(page, "name,player_a,player_b\nNorth,aino,bo\nSouth,aino-k,bo\n")
    expect(preview).to_contain_text("South")
    page.get_by_role("button", name="Confirm import").click()
    expect(page.locator(".messagelist")).to_contain_text("2 new")
    assert sorted(Team.objects.values_list("name", flat=True)) == ["North", "South"]


def test_a_player_not_checked_in_gets_a_bot_when_the_round_is_paired(
        page: Any, live_server: Any) -> None:
    log_in(page, live_server)
    tournament = tournament_with_teams(2, name="Check Cup")
    tournament.organisers.add(get_user_model().objects.get(username="org"))
    absent = Player.objects.get(pk=tournament.entries.get(seed=1).team.player_a_id)

    page.goto(live_server.url + "/admin/tournaments/tournament/")
    run_action(page, "Check players in", tournament.pk)
    expect(page.get_by_role("heading", name="Who is present for round 1")).to_be_visible()
    page.get_by_label(str(absent), exact=False).uncheck()
    page.get_by_role("button", name="Save check-in").click()
    expect(page.locator(".messagelist")).to_contain_text("3 present, 1 absent")

    page.goto(live_server.url + "/admin/tournaments/tournament/")
    run_action(page, "Pair next round", tournament.pk)
    expect(page.locator(".messagelist")).to_contain_text("draft")
    page.get_by_role("link", name="review it").click()
    expect(page.get_by_text("bot for an absent player")).to_have_count(1)
    seat = Seat.objects.get(substitute=True)
    assert seat.player is None and seat.match.team_a.player_a_id == absent.pk
