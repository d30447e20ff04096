"""Importing a results file: a finished tournament exported, taken out of the database and
imported back writes the same file again (JSON and XML), whatever its shape; a bad file is
refused with each problem and where it is, and nothing is stored."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.conftest import database_state
from tests.tournaments.test_duplicate_secrecy import Round1, finish, played  # noqa: F401
from tournaments import selectors, services
from tournaments.exports import schema
from tournaments.models import Player, Team, Tournament
from tournaments.selectors.travellers import round_board_lines

from .events import finished, finished_swiss

pytestmark = pytest.mark.django_db


def take_out(tournament: Tournament) -> None:
    """The tournament, its teams and players gone: another installation."""
    teams = list(Team.objects.filter(entries__tournament=tournament).values_list("pk", flat=True))
    players = [handle for team in Team.objects.filter(pk__in=teams)
               for handle in (team.player_a_id, team.player_b_id)]
    tournament.delete()
    Team.objects.filter(pk__in=teams).delete()
    Player.objects.filter(pk__in=players).delete()


def test_an_exported_tournament_imported_elsewhere_writes_the_same_file() -> None:
    tournament = finished_swiss(5, 3)
    document = selectors.results_file(tournament, None)
    take_out(tournament)
    imported = services.results_file_import(source=json.dumps(document).encode())
    assert imported.status == Tournament.Status.FINISHED
    again = selectors.results_file(imported, None)
    assert again == document
    take_out(imported)
    from_xml = services.results_file_import(source=schema.write_xml(document))
    assert selectors.results_file(from_xml, None) == document


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=st.integers(2, 7), rounds=st.integers(1, 3), bot=st.booleans())
def test_any_swiss_shape_survives_the_round_trip(teams: int, rounds: int, bot: bool) -> None:
    with transaction.atomic():
        policy = "bot" if bot else "bye"
        tournament = finished_swiss(teams, min(rounds, teams - 1 + teams % 2),
                                    bye_policy=policy)
        document = selectors.results_file(tournament, None)
        take_out(tournament)
        imported = services.results_file_import(source=schema.write_xml(document))
        assert selectors.results_file(imported, None) == document
        transaction.set_rollback(True)


@pytest.fixture
def document() -> dict[str, Any]:
    tournament = finished_swiss(3, 2)
    exported = selectors.results_file(tournament, None)
    exported["event"]["name"] = "Moved Open"
    return exported


def refused(source: bytes) -> list[tuple[str, str]]:
    before = database_state()
    with pytest.raises(services.ResultsFileRefused) as caught:
        services.results_file_import(source=source)
    assert database_state() == before
    return [(problem.where, problem.what) for problem in caught.value.problems]


def test_it_names_where_each_problem_of_a_file_is(document: dict[str, Any]) -> None:
    bad = copy.deepcopy(document)
    match = next(m for m in bad["rounds"][1]["matches"] if not m["bye"])
    index = bad["rounds"][1]["matches"].index(match)
    match["team_a"] = 9
    match["result"]["totals"][0] += 1
    bad["teams"][0]["players"][1] = "nobody-here"
    bad["teams"][0]["name"] = "A team new here"
    problems = dict(refused(json.dumps(bad).encode()))
    assert problems.keys() == {f"/rounds/1/matches/{index}/team_a",
                               f"/rounds/1/matches/{index}/result/totals",
                               "/teams/0/players/1"}
    assert "no team is numbered 9" in problems[f"/rounds/1/matches/{index}/team_a"]


def test_it_refuses_a_score_sheet_the_rules_make_impossible(document: dict[str, Any]) -> None:
    bad = copy.deepcopy(document)
    index, match = next((i, m) for i, m in enumerate(bad["rounds"][0]["matches"])
                        if not m["bye"])
    result = match["result"]
    result["hand_scores"][2] = [0, 0]  # someone went out, yet nobody holds a card
    result["totals"] = [sum(h[0] for h in result["hand_scores"]),
                        sum(h[1] for h in result["hand_scores"])]
    problems = refused(json.dumps(bad).encode())
    assert {where for where, _ in problems} == {
        f"/rounds/0/matches/{index}/result/hand_scores/2"}


def test_it_refuses_a_file_its_schema_refuses(document: dict[str, Any]) -> None:
    bad = copy.deepcopy(document)
    bad["rounds"][0]["matches"][0]["seats"][0]["position"] = 7
    assert refused(json.dumps(bad).encode()) == [
        ("/rounds/0/matches/0/seats/0/position", "7 is greater than the maximum of 3")]
    xml = schema.write_xml(document).replace(b"<position>0</position>",
                                             b"<position>x</position>", 1)
    [(where, what)] = refused(xml)
    assert where.startswith("/push-results/rounds/round[1]/matches/match[1]/seats/seat[1]")
    assert refused(b"{not json")[0][0] == ""
    assert refused(b"<push-results><oops")[0][1].startswith("not well-formed XML")


def test_it_refuses_a_tournament_name_or_a_team_already_here(
        document: dict[str, Any]) -> None:
    taken = copy.deepcopy(document)
    taken["event"]["name"] = Tournament.objects.get().name
    assert [where for where, _ in refused(json.dumps(taken).encode())] == ["/event/name"]
    other = copy.deepcopy(document)
    other["teams"][0]["players"] = list(reversed(other["teams"][0]["players"]))
    assert [where for where, _ in refused(json.dumps(other).encode())] == ["/teams/0/name"]


def test_the_command_imports_a_file_and_explains_a_refusal(
        document: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text(json.dumps(document))
    call_command("import_results_file", str(path))
    assert Tournament.objects.filter(name="Moved Open").exists()
    with pytest.raises(CommandError, match="/event/name"):
        call_command("import_results_file", str(path))


@pytest.mark.parametrize("settings", [
    {"format": "knockout", "third_place_match": True},
    {"format": "double_elimination"},
    {"format": "round_robin", "points_win": "3", "points_draw": "1.5"},
], ids=["knockout", "double elimination", "round robin"])
def test_every_format_survives_the_round_trip(settings: dict[str, Any]) -> None:
    tournament = finished(5, **settings)
    document = selectors.results_file(tournament, None)
    assert document["places"]
    take_out(tournament)
    imported = services.results_file_import(source=schema.write_xml(document))
    assert selectors.results_file(imported, None) == document


def test_a_duplicate_round_survives_the_round_trip_with_its_boards(
        played: Round1) -> None:  # noqa: F811
    finish(played)
    document = selectors.results_file(played.tournament, None)
    boards = [(line.score.board, line.score.team and 1, line.score.matchpoints)
              for line in round_board_lines(played.round)]
    take_out(played.tournament)
    imported = services.results_file_import(source=json.dumps(document).encode())
    assert selectors.results_file(imported, None) == document
    round = imported.rounds.get()
    assert [(line.score.board, line.score.team and 1, line.score.matchpoints)
            for line in round_board_lines(round)] == boards


def test_an_xml_file_with_entities_is_refused_unexpanded() -> None:
    bomb = (b'<?xml version="1.0"?><!DOCTYPE push-results [<!ENTITY a "aaaaaaaaaa">'
            b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><push-results>&b;</push-results>')
    [(where, what)] = refused(bomb)
    assert where == "" and "not well-formed XML" in what
