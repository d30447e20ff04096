"""The add-tournament form shows each format's settings only for that format: a round robin
no knockout tie rule or third place match, a knockout no points or tie-breaks (its whole
scoring fieldset goes), a Swiss its number of rounds; a saved round robin keeps the
defaults of the settings it does not read."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import Tournament

from . import browser_fixture, expect, page_fixture  # noqa: F401  (fixtures)
from .test_admin_registration import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_form_shows_the_settings_of_the_chosen_format(page: Any,
                                                          live_server: Any) -> None:
    log_in(page, live_server)
    page.goto(live_server.url + "/admin/tournaments/tournament/add/")

    def row(name: str) -> Any:
        return page.locator(f"div.form-row.field-{name}")

    scoring = page.locator("fieldset.module").filter(has=row("points_win"))
    expect(row("rounds_planned")).to_be_visible()  # the default format is Swiss
    expect(row("knockout_tie_rule")).to_be_hidden()

    page.get_by_label("Format").select_option("round_robin")
    for hidden in ("knockout_tie_rule", "third_place_match", "rounds_planned"):
        expect(row(hidden)).to_be_hidden()
    for shown in ("points_win", "tiebreaks", "bye_policy", "bot_level", "name"):
        expect(row(shown)).to_be_visible()

    page.get_by_label("Format").select_option("knockout")
    expect(row("knockout_tie_rule")).to_be_visible()
    expect(row("third_place_match")).to_be_visible()
    expect(scoring).to_be_hidden()  # points and tie-breaks: a bracket ranks the teams
    expect(row("bye_policy")).to_be_hidden()
    expect(row("bot_level")).to_be_visible()

    page.get_by_label("Format").select_option("double_elimination")
    expect(row("knockout_tie_rule")).to_be_visible()
    expect(row("third_place_match")).to_be_hidden()

    page.get_by_label("Format").select_option("round_robin")
    expect(scoring).to_be_visible()
    page.get_by_label("Name").fill("Robin Cup")
    page.locator('input[name="_save"]').click()
    expect(page.locator(".messagelist")).to_contain_text("Robin Cup")
    robin = Tournament.objects.get(name="Robin Cup")
    assert (robin.third_place_match, robin.rounds_planned) == (False, 5)
