"""The standings: shared ranks, tie-break columns in the tournament's order, the tie line."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.models import Standing

from . import LOSS_SHEET, enter_sheet, swiss_cup

pytestmark = pytest.mark.django_db


def rows(html: str) -> list[str]:
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
            for row in body.split("</tr>") if "<td" in row]


def test_it_ranks_the_teams_with_shared_ranks_for_ties(client: Client) -> None:
    cup = swiss_cup()
    tournament = cup["tournament"]

    html = client.get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()

    lines = rows(html)
    assert [" ".join(line.split()[:2]) for line in lines] == ["1 =", "1 =", "3 =", "3 ="]
    winners = {m.team_a.name for m in cup["round"].matches.select_related("team_a")}
    assert all(any(name in line for line in lines[:2]) for name in winners)
    assert "(shared)" in html
    assert all(" 2 1 1 0 0 0 200 " in f" {line} " for line in lines[:2])  # pts P W D L byes diff


def test_it_has_one_column_per_tie_break_in_the_tournaments_order(client: Client) -> None:
    cup = swiss_cup()
    tournament = cup["tournament"]
    tournament.tiebreaks = ["buchholz", "score_diff"]
    tournament.save()

    html = client.get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()

    head = html[html.index("<thead>"):html.index("</thead>")]
    assert head.index("Buchholz") < head.index("Game score difference")
    assert ("ties are broken by Buchholz (opponents&#x27; points), then game score difference"
            in html)
    assert "Teams still level share a rank." in html


def test_each_tiebreak_heading_is_its_metrics_name_abbreviation_and_direction(
        client: Client, finnish: None) -> None:
    tournament = swiss_cup()["tournament"]
    tournament.tiebreaks = ["fewest_penalty", "score_diff"]
    tournament.save()

    html = client.get(reverse("tournaments:standings", args=[tournament.pk]),
                      HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    head = html[html.index("<thead>"):html.index("</thead>")]
    penalty = re.search(r'data-sort-first="(\w+)"><button type="button"><abbr '
                        r'title="Vähiten sakkopisteitä" aria-hidden="true">Sakko</abbr>', head)
    difference = re.search(r'data-sort-first="(\w+)"><button type="button"><abbr '
                           r'title="Piste-ero" aria-hidden="true">Ero</abbr>', head)
    assert penalty is not None and difference is not None
    assert (penalty[1], difference[1]) == ("asc", "desc")  # fewer penalty points rank higher
    assert "vähiten sakkopisteitä, sitten piste-ero" in html


def test_the_admins_standings_name_each_tiebreak_as_the_pages_do(client: Client,
                                                                 finnish: None) -> None:
    cup = swiss_cup()
    client.force_login(cup["user"])

    html = client.get(reverse("admin:tournaments_standing_changelist"),
                      HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    assert "tasapisteiden ratkaisijat" in html.lower()
    # the two winners, in the current table and in the one after round 1
    assert html.count("Piste-ero 200; Buchholz (vastustajien pisteet) ") == 4
    assert "score_diff" not in html


def test_the_headings_are_sort_buttons(client: Client) -> None:
    cup = swiss_cup()

    html = client.get(reverse("tournaments:standings",
                              args=[cup["tournament"].pk])).content.decode()

    assert "data-sortable" in html and 'aria-sort="ascending"' in html
    assert html.count('<button type="button">') >= 10
    assert "tournaments/sortable.js" in html


def test_standings_after_an_earlier_round_can_be_chosen(client: Client) -> None:
    cup = swiss_cup()
    tournament = cup["tournament"]
    assert Standing.objects.filter(tournament=tournament, round_number=1).exists()

    html = client.get(reverse("tournaments:standings", args=[tournament.pk]),
                      {"round": 1}).content.decode()

    assert "Standings after round 1" in html
    assert "data-live-url" not in html  # a past table does not change
    assert '<option value="1" selected>' in html


@pytest.mark.parametrize("value, status, message", [
    ("x", 400, "round: expected a whole number from 1 to 32767, not 'x'"),
    ("0", 400, "round: expected a whole number from 1 to 32767, not '0'"),
    ("-1", 400, "not '-1'"),
    ("99999999999999999999999", 400, "round: expected a whole number"),
    ("2", 404, "round 2 of Sheet Cup is not complete (or does not exist)"),
    ("7", 404, "round 7 of Sheet Cup is not complete (or does not exist)"),
])
def test_a_bad_round_is_an_error_page_not_the_current_table(client: Client, value: str,
                                                            status: int, message: str) -> None:
    tournament = swiss_cup()["tournament"]  # round 1 complete, round 2 a draft
    url = reverse("tournaments:standings", args=[tournament.pk])

    response = client.get(url, {"round": value})
    api = client.get(f"/api/v1/tournaments/{tournament.pk}/standings/", {"round": value})

    html = response.content.decode()
    assert response.status_code == status and api.status_code == status  # as the API says
    assert 'role="alert"' in html and message in html.replace("&#x27;", "'")
    assert "<tbody>" not in html and "Current standings" not in html
    assert client.get(reverse("tournaments:standings_live", args=[tournament.pk]),
                      {"round": value}).status_code == status


def test_the_forms_now_is_the_current_table(client: Client) -> None:
    tournament = swiss_cup()["tournament"]
    html = client.get(reverse("tournaments:standings", args=[tournament.pk]),
                      {"round": ""}).content.decode()
    assert "Current standings" in html and '<option value="" selected>' in html


def test_withdrawn_teams_and_provisional_results_are_marked(client: Client) -> None:
    cup = swiss_cup()
    tournament, user = cup["tournament"], cup["user"]
    services.round_publish(round=cup["draft"], user=user)
    match = cup["draft"].matches.filter(is_bye=False).order_by("table__number").first()
    enter_sheet(match, LOSS_SHEET, user)  # round 2 is still being played
    services.standings_rebuild(tournament=tournament, full=False)
    entry = tournament.entries.exclude(team__in=[match.team_a, match.team_b]).first()
    entry.withdrawn = True
    entry.save()
    url = reverse("tournaments:standings", args=[tournament.pk])

    table = rows(client.get(url).content.decode())
    lines = {name: next(line for line in table if f" {name} " in line)
             for name in tournament.entries.values_list("team__name", flat=True)}

    played = {match.team_a.name, match.team_b.name}
    assert {name for name, line in lines.items() if "provisional" in line} == played
    assert {name for name, line in lines.items() if "withdrawn" in line} == {entry.team.name}
    after_1 = rows(client.get(url, {"round": 1}).content.decode())
    assert not [line for line in after_1 if "provisional" in line]  # a completed round's
    assert len([line for line in after_1 if "withdrawn" in line]) == 1


def test_without_results_it_says_so(client: Client) -> None:
    from ..tournaments.factories import tournament_with_teams

    tournament = tournament_with_teams(4)

    html = client.get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()
    assert "No results yet" in html


def test_a_table_read_again_comes_from_the_cache_without_reading_its_rows(
        client: Client) -> None:
    tournament = swiss_cup()["tournament"]
    url = reverse("tournaments:standings", args=[tournament.pk])
    first = client.get(url).content.decode()

    with CaptureQueriesContext(connection) as queries:
        again = client.get(url).content.decode()

    assert rows(again) == rows(first)
    assert not [q for q in queries.captured_queries
                if '"tournaments_team"' in q["sql"] and "tournaments_standing" in q["sql"]]


def test_a_new_result_shows_at_once_though_the_table_was_cached(client: Client) -> None:
    cup = swiss_cup()
    tournament, user = cup["tournament"], cup["user"]
    services.round_publish(round=cup["draft"], user=user)
    match = cup["draft"].matches.filter(is_bye=False).order_by("table__number").first()
    url = reverse("tournaments:standings", args=[tournament.pk])

    def played(name: str) -> str:  # the team's points and matches played, as shown
        line = next(line for line in rows(client.get(url).content.decode()) if name in line)
        return " ".join(line.split(name)[1].replace("provisional", "").split()[:2])

    before = played(match.team_b.name)
    enter_sheet(match, LOSS_SHEET, user)  # team B wins 0-200
    services.standings_rebuild(tournament=tournament, full=False)  # as the follow-up does

    assert before in ("0 1", "2 1") and played(match.team_b.name) == f"{int(before[0]) + 2} 2"
