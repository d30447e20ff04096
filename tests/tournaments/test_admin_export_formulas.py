"""The admin's CSV exports of players, teams and entries write no cell a spreadsheet would
run as a formula, and an export imports back (preview, then confirm) leaving every row as
it was.

Which columns can hold such text: a player's name and a team's name hold anything, so they
are tried with every formula start; a handle is a slug, so of those it can only begin with
``-`` (a player's ``handle``, a team's ``player_a`` and ``player_b``); an entry's
``tournament`` and ``seed`` are whole numbers and ``withdrawn`` is yes or no, which stay as
they are."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.urls import reverse

from tournaments.csv_cells import FORMULA_STARTS, escape
from tournaments.models import Entry, Player, Team

from .factories import PlayerFactory, TournamentFactory, UserFactory
from .test_admin_import import confirm, logged_in, upload

pytestmark = pytest.mark.django_db

NAMES = ['=HYPERLINK("https://example.com/x","open me")', "+cmd|' /C calc'!A0", "-2+3",
         "@SUM(1+1)", "\tTab in front", "\rReturn in front", "'=quoted already", "'t Hooft",
         "Plain, with a comma"]
COLUMNS = {"player": ["handle", "name"], "team": ["name", "player_a", "player_b"],
           "entry": ["tournament", "team", "seed", "withdrawn"]}


def register() -> Any:
    """An organiser's tournament whose players, teams and entries carry every formula start:
    a player and a team of each name, the teams' first players with handles beginning
    ``-``, each team entered (one withdrawn). Returns the organiser."""
    organiser = UserFactory()
    cup = TournamentFactory(organisers=[organiser])
    for number, name in enumerate(NAMES, start=1):
        first = PlayerFactory(name=name, handle=f"-{number}")
        second = PlayerFactory(name=f"Partner {number}", handle=f"partner-{number}")
        team = Team.objects.create(name=name, player_a=first, player_b=second)
        Entry.objects.create(tournament=cup, team=team, seed=number, withdrawn=number == 3)
    return organiser


def stored() -> dict[str, list[list[str]]]:
    """Every row of the register as its columns hold it, in words (the export's order)."""
    return {
        "player": sorted([p.handle, p.name] for p in Player.objects.all()),
        "team": sorted([t.name, t.player_a.handle, t.player_b.handle]
                       for t in Team.objects.select_related("player_a", "player_b")),
        "entry": sorted([str(e.tournament_id), e.team.name, str(e.seed),
                         "yes" if e.withdrawn else "no"]
                        for e in Entry.objects.select_related("team")),
    }


def export(client: Any, model: str) -> str:
    """The CSV the admin's Export button gives, every column chosen."""
    response = client.post(reverse(f"admin:tournaments_{model}_export"), {
        "format": "0", "resource": "0",
        **{f"{model}resource_{column}": "on" for column in COLUMNS[model]}})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return response.content.decode("utf-8")


def cells(text: str) -> tuple[list[str], list[list[str]]]:
    header, *rows = list(csv.reader(io.StringIO(text, newline="")))
    return header, rows


def test_every_exported_cell_that_would_run_as_a_formula_has_a_leading_quote() -> None:
    client = logged_in(register())
    before = stored()

    for model, columns in COLUMNS.items():
        header, rows = cells(export(client, model))
        assert header == columns
        # each cell is the stored text, with one ' in front where it would run as a formula
        assert sorted(rows) == sorted([escape(cell) for cell in row] for row in before[model])
        assert not any(cell.startswith(FORMULA_STARTS) for row in rows for cell in row)

    _, players = cells(export(client, "player"))
    _, teams = cells(export(client, "team"))
    _, entries = cells(export(client, "entry"))
    for start in FORMULA_STARTS:  # every formula start came up in each name column ...
        for column in ([row[1] for row in players], [row[0] for row in teams],
                       [row[1] for row in entries]):
            assert any(cell.startswith(f"'{start}") for cell in column), (start, column)
    # ... a handle's - in each handle column (and plain handles as they are) ...
    assert {"'-1", "partner-1"} <= {row[0] for row in players}
    assert ["'-1", "partner-1"] in [row[1:] for row in teams]
    # ... and the numbers and yes/no stay as they are
    assert {row[0] for row in entries} == {before["entry"][0][0]}
    assert {row[2] for row in entries} == {str(n) for n in range(1, len(NAMES) + 1)}
    assert {row[3] for row in entries} == {"yes", "no"}
    # the OWASP page's examples, exactly; a ' before anything else is left as it is
    names = {row[1] for row in players}
    assert {'\'=HYPERLINK("https://example.com/x","open me")', "'+cmd|' /C calc'!A0",
            "'-2+3", "'@SUM(1+1)", "''=quoted already", "'t Hooft"} <= names

def test_an_export_imports_back_leaving_every_row_unchanged() -> None:
    client = logged_in(register())
    before = stored()
    files = {model: export(client, model) for model in COLUMNS}

    for model in COLUMNS:  # the same file over the same register: nothing to change
        preview = upload(client, model, files[model])
        assert "import_file_name" in preview.content.decode(), preview.content.decode()
        kinds = {row.import_type for row in preview.context["result"].rows}
        assert kinds == {"skip"}, (model, kinds)
        confirm(client, model, preview)
        assert stored() == before


def test_an_export_imported_into_an_empty_register_makes_the_same_rows() -> None:
    client = logged_in(register())
    before = stored()
    files = {model: export(client, model) for model in COLUMNS}
    Entry.objects.all().delete()
    Team.objects.all().delete()
    Player.objects.all().delete()

    for model in COLUMNS:  # players first, then teams, then entries
        preview = upload(client, model, files[model])
        assert {row.import_type for row in preview.context["result"].rows} == {"new"}
        response = confirm(client, model, preview)
        assert response.status_code == 200

    assert stored() == before
    assert Team.objects.filter(name=NAMES[0]).exists()  # read back without its quote


def test_a_quote_typed_before_a_formula_is_read_as_the_export_writes_it() -> None:
    client = logged_in(UserFactory())

    confirm(client, "player", upload(
        client, "player", "handle,name\n'-lead,'=1+1\nplain,'t Hooft\nnoquote,@home\n"))

    assert sorted(Player.objects.values_list("handle", "name")) == [
        ("-lead", "=1+1"), ("noquote", "@home"), ("plain", "'t Hooft")]
