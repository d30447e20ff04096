"""The standings CSV writes no cell a spreadsheet would run as a formula: a team's name that
begins as one gets a leading ``'`` (the same rule as the admin's exports,
``tournaments.csv_cells``), and every number, a negative one too, is written as it is."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import services
from tournaments.api.renderers import CSVRenderer
from tournaments.csv_cells import FORMULA_STARTS, unescape

from .conftest import League

NAMES = {"=": '=HYPERLINK("https://example.com/x","open me")', "+": "+cmd|' /C calc'!A0",
         "-": "-2+3", "@": "@SUM(1+1)", "\t": "\tTab in front", "\r": "\rReturn in front"}


def rows_of(body: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(body.decode("utf-8"), newline="")))


@pytest.mark.django_db
@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_a_team_named_as_a_formula_is_escaped_in_every_column(league: League,
                                                              start: str) -> None:
    team = league.tournament.entries.order_by("seed").first().team
    team.name = NAMES[start]
    team.save()
    services.standings_rebuild(tournament=league.tournament)
    url = f"/api/v1/tournaments/{league.tournament.pk}/standings"
    table = league.client().get(f"{url}.json").json()

    rows = rows_of(league.client().get(f"{url}.csv").content)

    assert [row["team"] for row in rows if row["team_id"] == str(team.pk)] == [
        f"'{NAMES[start]}"]
    for row, stored in zip(rows, table["rows"], strict=True):
        for column in table["columns"]:
            cell, value = row[column], stored[column]
            if isinstance(value, str):  # text: never a formula, read back as it was
                assert not cell.startswith(FORMULA_STARTS), (column, cell)
                assert unescape(cell) == value
            else:  # a number as it is, a negative one too (not escaped as text)
                assert cell == str(value), (column, cell, value)
    assert any(row["score_diff"].startswith("-") for row in rows)


TABLE_TEXT = st.text(alphabet=st.sampled_from(["'", *FORMULA_STARTS, "a", ",", '"', "\n"]))
NUMBER = st.one_of(st.integers(-10**6, 10**6), st.floats(-1e6, 1e6, allow_nan=False))


@given(st.lists(st.tuples(st.one_of(TABLE_TEXT, st.text()), NUMBER), max_size=8))
def test_any_table_reads_back_and_no_cell_begins_as_a_formula(
        cells: list[tuple[str, int | float]]) -> None:
    rows = [{"team": name, "score_diff": number} for name, number in cells]
    body = CSVRenderer().render({"columns": ["team", "score_diff"], "rows": rows})

    read = rows_of(body)

    assert [unescape(row["team"]) for row in read] == [name for name, _ in cells]
    assert [row["score_diff"] for row in read] == [str(number) for _, number in cells]
    assert not any(row["team"].startswith(FORMULA_STARTS) for row in read)
