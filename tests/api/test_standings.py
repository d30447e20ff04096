"""Standings through the API, and their export as JSON, CSV and NDJSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments import selectors, services
from tournaments.api.renderers import CSVRenderer
from tournaments.csv_cells import unescape
from tournaments.models import Standing

from ..pages import finished_knockout
from .conftest import OUT, SHEET, League

pytestmark = pytest.mark.django_db

INTEGER_COLUMNS = {"rank", "team_id", "played", "wins", "draws", "losses", "byes"}


def number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() and "." not in text else value


def text(cell: str) -> str:
    """A text cell as docs/api/exports.md says to read it: a ' before a formula was added,
    drop it."""
    return unescape(cell)


def from_csv(body: bytes) -> tuple[list[str], list[dict[str, Any]]]:
    """Parse the CSV back: the team's name is text, every other column a number."""
    reader = csv.DictReader(io.StringIO(body.decode("utf-8"), newline=""))
    rows = [{key: text(value) if key == "team" else number(value)
             for key, value in row.items()} for row in reader]
    return list(reader.fieldnames or []), rows


def from_ndjson(body: bytes) -> list[dict[str, Any]]:
    text = body.decode("utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def complete_round_two(league: League) -> None:
    for match in league.round2.matches.all():
        services.match_submit_score_sheet(match=match, hand_scores=SHEET, out_seats=OUT,
                                          user=league.organiser)
    services.round_complete(round=league.round2, user=league.organiser)


def test_it_shows_the_current_standings_with_tiebreaks_in_order(league: League) -> None:
    league.tournament.tiebreaks = ["buchholz", "score_diff"]
    league.tournament.save()
    services.standings_rebuild(tournament=league.tournament)
    data = league.client().get(f"/api/v1/tournaments/{league.tournament.pk}/standings/").json()
    assert data["round"] is None and data["tiebreaks"] == ["buchholz", "score_diff"]
    assert data["columns"] == ["rank", "team_id", "team", "points", "played", "wins", "draws",
                               "losses", "byes", "buchholz", "score_diff"]
    assert [list(row) for row in data["rows"]] == [data["columns"]] * 4
    winners = {m.team_a_id for m in league.round1.matches.all()}
    top = data["rows"][:2]
    assert {row["team_id"] for row in top} == winners
    assert all((row["rank"], row["points"], row["wins"], row["score_diff"]) == (1, 2, 1, 45)
               for row in top)
    assert all((r["rank"], r["points"], r["losses"]) == (3, 0, 1) for r in data["rows"][2:])


def test_it_describes_each_tiebreak_from_the_metric_registry(league: League) -> None:
    league.tournament.tiebreaks = ["fewest_penalty", "score_diff"]
    league.tournament.save()
    url = f"/api/v1/tournaments/{league.tournament.pk}/standings/"

    data = league.client().get(url).json()

    assert data["metrics"] == [
        {"key": "fewest_penalty", "name": "Fewest penalty points", "abbreviation": "Pen",
         "higher_is_better": False},
        {"key": "score_diff", "name": "Game score difference", "abbreviation": "Diff",
         "higher_is_better": True}]
    assert data["columns"][-2:] == data["tiebreaks"] == ["fewest_penalty", "score_diff"]
    header = league.client().get(url, HTTP_ACCEPT="text/csv").content.decode().splitlines()[0]
    assert header.split(",") == data["columns"]


def test_it_shows_the_standings_after_any_completed_round(league: League) -> None:
    complete_round_two(league)
    url = f"/api/v1/tournaments/{league.tournament.pk}/standings/"
    client = league.client()
    after_one = client.get(url + "?round=1").json()
    after_two = client.get(url + "?round=2").json()
    current = client.get(url).json()
    assert after_one["round"] == 1 and after_two["round"] == 2
    assert [r["played"] for r in after_one["rows"]] == [1, 1, 1, 1]
    assert [r["played"] for r in after_two["rows"]] == [2, 2, 2, 2]
    assert current["rows"] == after_two["rows"]
    stored = Standing.objects.filter(tournament=league.tournament, round_number=1)
    assert sorted(r["team_id"] for r in after_one["rows"]) == sorted(
        stored.values_list("team_id", flat=True))


@pytest.mark.parametrize("query, status", [
    ("?round=2", 404),  # published, not complete
    ("?round=9", 404),
    ("?round=0", 400),
    ("?round=abc", 400),
    ("?round=99999999999999999999", 400),
    ("?format=xml", 406),  # tests/api/test_formats.py
])
def test_it_refuses_a_round_that_is_not_complete_or_not_a_number(league: League, query: str,
                                                                 status: int) -> None:
    response = league.client().get(
        f"/api/v1/tournaments/{league.tournament.pk}/standings/{query}")
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"


def test_an_error_is_answered_in_json_to_a_csv_request(league: League) -> None:
    response = league.client().get(
        f"/api/v1/tournaments/{league.tournament.pk}/standings.csv?round=2")
    assert response.status_code == 404
    assert "not complete" in response.json()["detail"]
    assert league.client().get("/api/v1/tournaments/999999/standings.csv").status_code == 404


@pytest.mark.parametrize("round_query", ["", "?round=1", "?round=2"])
def test_json_csv_and_ndjson_exports_parse_back_to_the_same_table(
        league: League, round_query: str) -> None:
    complete_round_two(league)
    client = league.client()
    base = f"/api/v1/tournaments/{league.tournament.pk}/standings"
    joiner = "&" if round_query else "?"
    table = client.get(f"{base}.json{round_query}").json()
    assert table["rows"] and table["tiebreaks"] == ["score_diff", "buchholz"]

    for url in (f"{base}.csv{round_query}", f"{base}/{round_query}{joiner}format=csv"):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"].endswith('.csv"')
        columns, rows = from_csv(response.content)
        assert columns == table["columns"] and rows == table["rows"]

    for url in (f"{base}.ndjson{round_query}", f"{base}/{round_query}{joiner}format=ndjson"):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "application/x-ndjson; charset=utf-8"
        rows = from_ndjson(response.content)
        assert rows == table["rows"] and [list(r) for r in rows] == [table["columns"]] * 4

    assert client.get(f"{base}/{round_query}{joiner}format=json").json() == table


def test_the_export_format_can_be_chosen_by_the_accept_header(league: League) -> None:
    url = f"/api/v1/tournaments/{league.tournament.pk}/standings/"
    response = league.client().get(url, HTTP_ACCEPT="text/csv")
    assert response["Content-Type"].startswith("text/csv")
    response = league.client().get(url, HTTP_ACCEPT="application/x-ndjson")
    assert response["Content-Type"].startswith("application/x-ndjson")


def test_a_team_name_with_commas_quotes_and_accents_survives_csv(league: League) -> None:
    team = league.match.team_a
    team.name = 'Les "Rois", de Liège\nEst'
    team.save()
    url = f"/api/v1/tournaments/{league.tournament.pk}/standings"
    table = league.client().get(f"{url}.json").json()
    _, rows = from_csv(league.client().get(f"{url}.csv").content)
    assert rows == table["rows"]
    assert team.name in {row["team"] for row in rows}
    assert from_ndjson(league.client().get(f"{url}.ndjson").content) == table["rows"]


FORMULAS = ['=HYPERLINK("https://example.com/x","open me")', "-minus", "+1", "@SUM(A1)",
            "\tTab", "\rReturn", "'=quoted"]


def test_text_a_spreadsheet_would_run_is_escaped_and_numbers_stay_numbers(
        league: League) -> None:
    teams = [entry.team for entry in league.tournament.entries.order_by("seed")]
    for team, name in zip(teams, FORMULAS, strict=False):
        team.name = name
        team.save()
    url = f"/api/v1/tournaments/{league.tournament.pk}/standings"
    body = league.client().get(f"{url}.csv").content.decode()
    cells = list(csv.DictReader(io.StringIO(body, newline="")))
    # every name begins with a formula character: each gets one leading '
    assert sorted(row["team"] for row in cells) == sorted(f"'{team.name}" for team in teams)
    # a negative score difference is written as the number it is, not escaped as text
    diffs = [row["score_diff"] for row in cells]
    assert "-45" in diffs and not any(d.startswith("'") for d in diffs)
    # and read as docs/api/exports.md says, the CSV is the JSON table again
    table = league.client().get(f"{url}.json").json()
    assert from_csv(body.encode())[1] == table["rows"]


def test_each_formula_start_is_escaped_once_and_plain_text_is_not() -> None:
    names = [*FORMULAS, "Plain team", "a=b", "Jäät 1-0", "'t Hooft"]
    rows = [{"team": name, "score_diff": -20, "points": 1.5} for name in names]
    body = CSVRenderer().render({"columns": ["team", "score_diff", "points"], "rows": rows})
    cells = list(csv.DictReader(io.StringIO(body.decode(), newline="")))
    assert [row["team"] for row in cells] == [f"'{name}" for name in FORMULAS] + names[-4:]
    assert [text(row["team"]) for row in cells] == names
    assert {(row["score_diff"], row["points"]) for row in cells} == {("-20", "1.5")}


def test_standings_of_a_tournament_without_results_are_an_empty_table(league: League) -> None:
    data = league.client().get(f"/api/v1/tournaments/{league.cup.pk}/standings/").json()
    assert data["rows"] == []
    body = league.client().get(f"/api/v1/tournaments/{league.cup.pk}/standings.csv").content
    assert body.decode().splitlines() == [",".join(data["columns"])]
    assert league.client().get(
        f"/api/v1/tournaments/{league.cup.pk}/standings.ndjson").content == b""


def test_a_finished_knockout_gives_its_places_and_champion_as_the_site_does() -> None:
    tournament = finished_knockout()
    site = selectors.final_places_of(tournament)
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"

    data = APIClient().get(url).json()

    ranks = {row["team_id"]: row["rank"] for row in data["rows"]}
    # on points the finalist (seed 2) is third, behind the winner of the third-place match
    assert ranks[site[1].team.pk] != 2
    assert data["places"] == [{"first": p.first, "last": p.last, "team_id": p.team.pk,
                               "team": p.team.name} for p in site]
    assert [(p["first"], p["last"]) for p in data["places"]] == [
        (1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (5, 6)]
    champion = site[0].team
    assert data["champion"] == {"team_id": champion.pk, "team": champion.name}
    html = Client().get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()
    assert f"{champion.name}</a> <span class=\"badge badge-champion\">" in html
    after = APIClient().get(f"{url}?round=3").json()  # a past table has no places
    assert (after["places"], after["champion"]) == ([], None)


def test_a_running_tournament_has_no_places_yet(league: League) -> None:
    services.standings_rebuild(tournament=league.tournament)
    data = league.client().get(f"/api/v1/tournaments/{league.tournament.pk}/standings/").json()
    assert (data["places"], data["champion"]) == ([], None)
