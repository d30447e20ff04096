"""An organiser pairs and publishes a round in the admin, and the public sees it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Round

from ..tournaments.factories import tournament_with_teams
from . import browser_fixture, expect, page_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-test-password-1"


def run_action(page: Any, label_start: str, row_value: int) -> None:
    """Tick the row, choose the action whose label starts with ``label_start``, press Go."""
    page.locator(f'input[name="_selected_action"][value="{row_value}"]').check()
    select = page.locator('select[name="action"]')
    labels = select.locator("option").all_inner_texts()
    label = next((text for text in labels if text.startswith(label_start)), None)
    assert label is not None, f"no admin action {label_start!r} among {labels}"
    select.select_option(label=label)
    page.get_by_role("button", name="Go").click()


def test_an_organiser_pairs_and_publishes_a_round_in_the_admin(page: Any,
                                                               live_server: Any) -> None:
    get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD)
    tournament = tournament_with_teams(4, name="Admin Cup")
    public_round = f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/"

    page.goto(live_server.url + "/admin/")
    page.get_by_label("Username").fill("boss")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/admin/tournaments/tournament/")
    run_action(page, "Pair next round", tournament.pk)

    expect(page.locator(".messagelist")).to_contain_text("draft")  # the action has run
    round = Round.objects.get(tournament=tournament, number=1)
    assert round.status == Round.Status.DRAFT
    assert page.goto(public_round).status == 404  # a draft is not public yet

    page.goto(live_server.url + "/admin/tournaments/round/")
    run_action(page, "Publish round", round.pk)
    expect(page.locator(".messagelist")).to_contain_text("published")
    round.refresh_from_db()
    assert round.status == Round.Status.PUBLISHED

    response = page.goto(public_round)
    assert response.status == 200
    expect(page.locator(".table-card")).to_have_count(2)
    for entry in tournament.entries.select_related("team"):
        expect(page.get_by_role("link", name=entry.team.name)).to_have_count(1)
