"""The services' errors reach a Finnish organiser in the admin, and a Finnish API client, in
Finnish: they are translated when raised, in the language of the request that caused them.
A game record's rule reason stays the engine's English (its rule number makes it
checkable); the frame around it is translated."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.bots import make_bot
from games.engine import deal_from_seed, play_game
from tests.pages import WIN_SHEET, published_round
from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments import services
from tournaments.models import Match, Result, Round

pytestmark = pytest.mark.django_db


def _complete(client: Client, round: Round) -> str:
    """Run the "Complete round" admin action in Finnish; the messages it leaves."""
    response = client.post(reverse("admin:tournaments_round_changelist"),
                           {"action": "complete", "_selected_action": [round.pk]},
                           follow=True, HTTP_ACCEPT_LANGUAGE="fi")
    return " | ".join(str(message) for message in response.context["messages"])


def test_an_organiser_completing_an_unfinished_round_is_told_why_in_finnish(
        client: Client, finnish: None) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament)
    client.force_login(organiser)

    said = _complete(client, round)
    assert "julkaise kierros 1 ennen kuin päätät sen" in said
    assert "publish round 1" not in said

    services.round_publish(round=round)
    said = _complete(client, round)
    assert "kierroksella 1 on vielä 2 ottelua ilman vahvistettua tulosta" in said
    assert "without a confirmed result" not in said
    round.refresh_from_db()
    assert round.status == Round.Status.PUBLISHED


def _api(user: Any) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="fi")
    client.force_authenticate(user)
    return client


def _submit(client: APIClient, match: Match, body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/matches/{match.pk}/result/", body, format="json")


def _sheet() -> dict[str, Any]:
    hand_scores, out_seats = WIN_SHEET
    return {"score_sheet": {"hand_scores": hand_scores, "out_seats": out_seats}}


def test_a_finnish_api_client_reads_the_409_and_the_400_in_finnish(finnish: None) -> None:
    organiser = UserFactory()
    match = published_round(tournament_with_teams(2, organisers=[organiser])).matches.get()
    client = _api(organiser)
    assert _submit(client, match, _sheet()).status_code == 201

    response = _submit(client, match, _sheet())
    assert response.status_code == 409
    assert response.json()["detail"] == f"{match}: ottelulla on jo tulos"

    draft = services.round_pair_next(tournament=tournament_with_teams(
        2, organisers=[organiser])).matches.get()
    response = _submit(client, draft, _sheet())
    assert response.status_code == 400
    assert response.json()["detail"] == "julkaise kierros ennen kuin syötät sen tuloksia"
    assert not Result.objects.filter(match=draft).exists()


def test_an_illegal_record_is_framed_in_finnish_around_the_engines_rule(
        finnish: None) -> None:
    organiser = UserFactory()
    match = published_round(tournament_with_teams(2, organisers=[organiser])).matches.get()
    record = play_game([make_bot("random", seat) for seat in range(4)],
                       *deal_from_seed(7)).to_json()
    action = record["hands"][1]["actions"][0]
    action["seat"] = (action["seat"] + 1) % 4  # out of turn (R6.1)

    response = _submit(_api(organiser), match, {"record": record})

    body = response.json()
    assert response.status_code == 400 and body["status"] == "illegal"
    assert body["reason"].startswith("R6.1")  # the engine's words, checkable by rule
    assert body["detail"] == f"jako 2, siirto 0: {body['reason']}"
    assert not Result.objects.filter(match=match).exists()
