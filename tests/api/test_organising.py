"""An organiser's round steps through the API: pair the next round, publish it, fill seats,
release a duplicate round's boards, complete it; each as the console does it, refused with
the console's reasons, to the console's people, and within an API key's scope."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments import services
from tournaments.models import Absence, Round, Seat, Tournament

from .conftest import OUT, SHEET, League, database_state, key_client

pytestmark = pytest.mark.django_db


def step(client: APIClient, path: str, **headers: Any) -> Any:
    return client.post(f"/api/v1/{path}", format="json", **headers)


def test_a_cup_is_run_from_its_draft_to_its_end_through_the_api(league: League) -> None:
    client = league.client(league.cup_organiser)
    draft = league.draft_match.round
    published = step(client, f"rounds/{draft.pk}/publish/")
    assert published.status_code == 200, published.content
    assert published.json()["status"] == "published"
    assert [m["id"] for m in published.json()["matches"]] == [league.draft_match.pk]
    submitted = client.post(f"/api/v1/matches/{league.draft_match.pk}/result/",
                            copy.deepcopy({"score_sheet": {"hand_scores": SHEET,
                                                           "out_seats": OUT}}),
                            format="json")
    assert submitted.status_code == 201, submitted.content
    completed = step(client, f"rounds/{draft.pk}/complete/")
    assert completed.status_code == 200 and completed.json()["status"] == "complete"
    assert Tournament.objects.get(pk=league.cup.pk).status == Tournament.Status.FINISHED
    # a round robin of two teams has one round: nothing more to pair
    more = step(client, f"tournaments/{league.cup.pk}/pair-next/")
    assert more.status_code == 400
    assert more.json()["detail"] == "all 1 rounds of Autumn Cup are paired"


def test_pairing_again_while_the_draft_waits_answers_the_same_draft(league: League) -> None:
    client = league.client(league.cup_organiser)
    before = database_state()
    again = step(client, f"tournaments/{league.cup.pk}/pair-next/")
    assert again.status_code == 201 and again.json()["id"] == league.draft_match.round_id
    assert again.json()["status"] == "draft"
    assert database_state() == before


def test_a_next_round_waits_for_the_last_to_complete(league: League) -> None:
    before = database_state()
    response = step(league.client(league.organiser),
                    f"tournaments/{league.tournament.pk}/pair-next/")
    assert response.status_code == 400
    assert response.json()["detail"] == "complete round 2 before pairing the next"
    assert database_state() == before


def test_completing_a_round_with_matches_to_play_says_how_many(league: League) -> None:
    before = database_state()
    response = step(league.client(league.organiser), f"rounds/{league.round2.pk}/complete/")
    assert response.status_code == 400
    assert response.json()["detail"] == ("round 2 still has 2 matches without a confirmed "
                                         "result")
    assert database_state() == before


def test_release_boards_is_for_a_duplicate_round(league: League) -> None:
    response = step(league.client(league.organiser),
                    f"rounds/{league.round2.pk}/release-boards/")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("round 2 is not a duplicate round")


def test_fill_seats_seats_a_bot_for_a_player_marked_absent(league: League) -> None:
    seat = league.match.seats.get(position=1)
    Absence.objects.create(tournament=league.tournament, round_number=2, player=seat.player)
    response = step(league.client(league.organiser), f"rounds/{league.round2.pk}/fill-seats/")
    assert response.status_code == 200, response.content
    seat = Seat.objects.get(pk=seat.pk)
    assert seat.player is None and seat.substitute


@pytest.mark.parametrize("path", ["rounds/{round}/publish/", "rounds/{round}/complete/",
                                  "rounds/{round}/fill-seats/",
                                  "tournaments/{tournament}/pair-next/"])
def test_only_the_tournaments_organisers_take_a_step(league: League, path: str) -> None:
    target = path.format(round=league.round2.pk, tournament=league.tournament.pk)
    before = database_state()
    for user, code in ((league.cup_organiser, 403), (UserFactory(), 403)):
        response = step(league.client(user), target)
        assert response.status_code == code
        assert response.json()["detail"] == "only the organisers of Spring League may do this"
    assert step(league.client(), target).status_code == 401
    assert database_state() == before


def test_a_draft_is_no_one_elses_to_see_let_alone_publish(league: League) -> None:
    before = database_state()
    response = step(league.client(league.organiser),
                    f"rounds/{league.draft_match.round_id}/publish/")
    assert response.status_code == 404
    assert Round.objects.get(pk=league.draft_match.round_id).status == Round.Status.DRAFT
    assert database_state() == before


def test_an_api_key_takes_a_step_only_with_the_organise_scope_and_tournament(
        league: League) -> None:
    organiser = league.cup_organiser
    draft = league.draft_match.round_id
    league.tournament.organisers.add(organiser)

    def with_key(scopes: list[str], tournaments: list[Tournament]) -> APIClient:
        return key_client(organiser, scopes, tournaments)

    before = database_state()
    refused = step(with_key(["read", "results"], []), f"rounds/{draft}/publish/")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "this API key lacks the organise scope"
    elsewhere = step(with_key(["read", "organise"], [league.tournament]),
                     f"rounds/{draft}/publish/")
    assert elsewhere.status_code == 403
    assert elsewhere.json()["detail"] == "this API key does not act in this tournament"
    assert {k: v for k, v in database_state().items() if k != "ApiKey"} == \
        {k: v for k, v in before.items() if k != "ApiKey"}
    done = step(with_key(["read", "organise"], [league.cup]), f"rounds/{draft}/publish/")
    assert done.status_code == 200 and done.json()["status"] == "published"


def test_a_step_retried_with_its_idempotency_key_is_answered_as_the_first(
        league: League) -> None:
    client = league.client(league.cup_organiser)
    draft = league.draft_match.round_id
    first = step(client, f"rounds/{draft}/publish/", HTTP_IDEMPOTENCY_KEY="publish-1")
    again = step(client, f"rounds/{draft}/publish/", HTTP_IDEMPOTENCY_KEY="publish-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"


def test_a_drafts_teams_seats_and_tables_are_edited_as_the_console_edits_them(
        league: League) -> None:
    tournament = league.tournament
    league.round2.matches.all().delete()  # round 2 was paired for the test's other needs
    Round.objects.filter(pk=league.round2.pk).delete()
    services_round = step(league.client(league.organiser),
                          f"tournaments/{tournament.pk}/pair-next/").json()
    draft = services_round["id"]
    first, second = services_round["matches"][:2]
    client = league.client(league.organiser)
    moved = client.post(f"/api/v1/rounds/{draft}/move-table/",
                        {"match": second["id"], "table": 1}, format="json")
    assert moved.status_code == 200, moved.content
    assert moved.json()["description"].startswith("moved table 2 (")
    assert [m["id"] for m in sorted(moved.json()["round"]["matches"],
                                    key=lambda m: m["table"])] == [second["id"], first["id"]]
    seats = client.post(f"/api/v1/rounds/{draft}/swap-seats/",
                        {"match": first["id"], "side": 1}, format="json")
    assert seats.status_code == 200 and seats.json()["description"].startswith(
        "swapped the seats of ")
    teams = client.post(f"/api/v1/rounds/{draft}/swap-teams/",
                        {"team_1": first["team_a"]["id"], "team_2": second["team_a"]["id"]},
                        format="json")
    assert teams.status_code == 200, teams.content
    assert isinstance(teams.json()["warnings"], list)


@pytest.mark.parametrize("path, body, field", [
    ("move-table", {"match": 1}, "table"),
    ("move-table", {"match": 1, "table": 0}, "table"),
    ("swap-seats", {"match": 1, "side": 2}, "side"),
    ("swap-teams", {"team_1": "x", "team_2": 1}, "team_1"),
])
def test_a_malformed_edit_names_the_field_and_changes_nothing(
        league: League, path: str, body: dict[str, Any], field: str) -> None:
    before = database_state()
    response = league.client(league.cup_organiser).post(
        f"/api/v1/rounds/{league.draft_match.round_id}/{path}/", body, format="json")
    assert response.status_code == 400 and field in response.json(), response.content
    assert database_state() == before


def test_a_published_rounds_draw_is_not_edited(league: League) -> None:
    before = database_state()
    response = league.client(league.organiser).post(
        f"/api/v1/rounds/{league.round2.pk}/move-table/",
        {"match": league.match.pk, "table": 1}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == ("round 2 is published: only a draft's draw can be "
                                         "changed")
    assert database_state() == before


def test_the_check_in_roster_marks_who_is_present(league: League) -> None:
    players = sorted({seat.player_id for match in league.draft_match.round.matches.all()
                      for seat in match.seats.all() if seat.player_id})
    client = league.client(league.cup_organiser)
    response = client.post(f"/api/v1/tournaments/{league.cup.pk}/check-in/",
                           {"round": 2, "present": players[:3]}, format="json")
    assert response.status_code == 400  # a round robin of two teams has no round 2
    before = database_state()
    stranger = client.post(f"/api/v1/tournaments/{league.cup.pk}/check-in/",
                           {"round": 1, "present": [league.match.seats.first().player_id]},
                           format="json")
    assert stranger.status_code == 400
    assert stranger.json()["detail"] == "Only the players of Autumn Cup can be checked in."
    assert database_state() == before


def test_the_check_in_roster_seats_a_bot_for_who_is_not_present(league: League) -> None:
    seats = list(league.draft_match.seats.order_by("position"))
    present = [seat.player_id for seat in seats[:3]]
    response = league.client(league.cup_organiser).post(
        f"/api/v1/tournaments/{league.cup.pk}/check-in/", {"round": 1, "present": present},
        format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {"round": 1, "present": 3, "seats_changed": 1}
    absent = Seat.objects.get(pk=seats[3].pk)
    assert absent.player is None and absent.substitute


@pytest.mark.parametrize("step", ["publish", "complete"])
def test_a_step_through_the_api_costs_no_more_queries_than_the_consoles(step: str) -> None:
    def ready() -> tuple[Any, Round]:
        organiser = UserFactory(is_staff=True)
        cup = tournament_with_teams(8, organisers=[organiser],
                                    format=Tournament.Format.ROUND_ROBIN)
        round = services.round_pair_next(tournament=cup, user=organiser)
        if step == "complete":
            services.round_publish(round=round, user=organiser)
            for match in round.matches.all():
                services.match_submit_score_sheet(match=match, hand_scores=SHEET,
                                                  out_seats=OUT, user=organiser)
        return organiser, round

    organiser, round = ready()
    console = Client()
    console.force_login(organiser)
    with CaptureQueriesContext(connection) as by_console:
        done = console.post(reverse("admin:tournaments_tournament_console_do",
                                    args=[round.tournament_id]),
                            {"step": step, "round": round.pk})
    assert done.status_code == 302
    assert Round.objects.get(pk=round.pk).status == step.replace("publish", "published")
    organiser, round = ready()
    api = APIClient()
    api.force_authenticate(organiser)
    with CaptureQueriesContext(connection) as by_api:
        assert api.post(f"/api/v1/rounds/{round.pk}/{step}/").status_code == 200
    assert Round.objects.get(pk=round.pk).status == step.replace("publish", "published")
    assert len(by_api) <= len(by_console), (len(by_api), len(by_console))
