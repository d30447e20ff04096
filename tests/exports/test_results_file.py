"""The results file (push-results/1) as the API serves it: valid against its JSON Schema
and its XSD, the same content in both, and nothing of a secret duplicate round in it."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
import xmlschema
from rest_framework.test import APIClient

from tests.tournaments.factories import UserFactory, tournament_with_teams
from tests.tournaments.test_duplicate_secrecy import Round1, finish, played  # noqa: F401
from tournaments import services
from tournaments.exports import schema, xml_form
from tournaments.models import Result, Tournament

from .events import finished_swiss, sheet

pytestmark = pytest.mark.django_db


def fetch(tournament: Tournament, user: Any = None, **query: str) -> Any:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client.get(f"/api/v1/tournaments/{tournament.pk}/results-file/", query)


def test_it_writes_a_finished_tournament_valid_against_both_schemas() -> None:
    tournament = finished_swiss(5, 3)
    document = fetch(tournament).json()
    jsonschema.Draft202012Validator(schema.json_schema()).validate(document)
    xml = fetch(tournament, format="xml")
    assert xml["Content-Type"] == "application/xml; charset=utf-8"
    assert 'filename="tournament-' in xml["Content-Disposition"]
    xmlschema.XMLSchema(str(schema.XSD)).validate(xml.content)
    root = xmlschema.XMLResource(xml.content, defuse="always").root
    assert xml_form.from_xml(root, schema.json_schema()) == document
    assert schema.read(xml.content) == schema.read(json.dumps(document).encode())


def test_it_holds_every_round_match_seat_and_result_by_handle_and_number() -> None:
    tournament = finished_swiss(5, 3)
    document = fetch(tournament).json()
    assert document["schema"] == "push-results/1"
    event = document["event"]
    assert (event["name"], event["format"], event["status"], event["starts_on"],
            event["play"]) == (tournament.name, "swiss", "finished", "2026-05-02", "venue")
    assert [team["number"] for team in document["teams"]] == [1, 2, 3, 4, 5]
    handles = {player["handle"] for player in document["players"]}
    assert {h for team in document["teams"] for h in team["players"]} == handles
    assert [r["number"] for r in document["rounds"]] == [1, 2, 3]
    for round in document["rounds"]:
        byes = [m for m in round["matches"] if m["bye"]]
        assert len(byes) == 1 and byes[0]["result"] is None and byes[0]["team_b"] is None
        for match in round["matches"]:
            if match["bye"]:
                continue
            stored = Result.objects.get(match__round__number=round["number"],
                                        match__round__tournament=tournament,
                                        match__table__number=match["table"])
            assert match["result"]["totals"] == [stored.total_a, stored.total_b]
            assert match["result"]["hand_scores"] == stored.hand_scores
            assert {seat["player"] for seat in match["seats"]} <= handles
    assert sorted(place["team"] for place in document["places"]) == [1, 2, 3, 4, 5]
    assert not {key for key in keys(document) if key == "id" or key.endswith("_id")}


def keys(node: Any) -> set[str]:
    """Every key of every object in ``node``."""
    if isinstance(node, dict):
        return set(node).union(*(keys(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(keys(value) for value in node))
    return set()


def test_it_leaves_out_a_secret_round_until_every_table_has_finished(
        played: Round1) -> None:  # noqa: F811
    assert [r["number"] for r in fetch(played.tournament).json()["rounds"]] == []
    assert [r["number"] for r in fetch(played.tournament, played.player).json()["rounds"]] == []
    # the organiser, who does not play in it, sees it as the boards export does
    assert [r["number"] for r in
            fetch(played.tournament, played.organiser).json()["rounds"]] == [1]
    finish(played)
    rounds = fetch(played.tournament).json()["rounds"]
    assert [r["number"] for r in rounds] == [1]
    assert rounds[0]["boards_seed"] == played.round.seed
    assert all(match["result"] is not None for match in rounds[0]["matches"])


def test_it_answers_a_format_it_does_not_have_with_the_ones_it_has() -> None:
    tournament = finished_swiss(3, 1)
    response = fetch(tournament, format="csv")
    assert response.status_code == 406
    assert response.json()["formats"] == ["json", "xml"]


def test_an_unconfirmed_result_is_shown_only_to_who_may_see_it() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(3, organisers=[organiser], confirm_score_sheets=True)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    match = round.matches.get(is_bye=False)
    hands, outs = sheet(1, 1)
    services.match_submit_score_sheet(match=match, hand_scores=hands, out_seats=outs,
                                      user=organiser)  # another organiser confirms it
    shown = [m for m in fetch(tournament, organiser).json()["rounds"][0]["matches"]
             if not m["bye"]]
    assert [m["result"]["confirmed"] for m in shown] == [False]
    public = [m for m in fetch(tournament).json()["rounds"][0]["matches"] if not m["bye"]]
    assert [m["result"] for m in public] == [None]


def test_it_answers_xml_to_an_accept_header() -> None:
    tournament = finished_swiss(3, 1)
    response = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/results-file/",
                               HTTP_ACCEPT="application/xml")
    assert response["Content-Type"] == "application/xml; charset=utf-8"
    assert schema.read(response.content) == fetch(tournament).json()
