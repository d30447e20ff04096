"""Match deals through the API and the pages: a copied record is refused naming the pack, the
other team confirms a player's record, and no answer shows an unfinished match's deals."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.bots import make_bot
from games.engine import deal_from_seed, play_game
from tournaments.models import Match, Tournament

from .conftest import League, database_state, seated_user

pytestmark = pytest.mark.django_db


def result_url(match: Match, confirm: bool = False) -> str:
    return f"/api/v1/matches/{match.pk}/result/" + ("confirm/" if confirm else "")


def other_match(league: League) -> Match:
    return league.round2.matches.exclude(pk=league.match.pk).get(is_bye=False)


def test_another_matchs_record_is_a_400_naming_the_pack(league: League) -> None:
    copied = play_game([make_bot("random", seat) for seat in range(4)],
                       *deal_from_seed(other_match(league).seed)).to_json()
    player = seated_user(league.match, 0)
    before = database_state()
    response = league.client(player).post(result_url(league.match), {"record": copied},
                                          format="json")
    assert response.status_code == 400
    assert response.json()["status"] == "wrong_deal"
    assert response.json()["detail"].startswith("hand 1: the pack is not the one this match "
                                                "was dealt")
    assert database_state() == before


def test_the_other_team_confirms_a_players_record_and_the_partner_cannot(
        league: League, record: dict[str, Any]) -> None:
    Tournament.objects.filter(pk=league.tournament.pk).update(
        dealing=Tournament.Dealing.VENUE)
    submitter, partner, opponent = (seated_user(league.match, p) for p in (1, 3, 0))
    response = league.client(submitter).post(result_url(league.match), {"record": record},
                                             format="json")
    assert response.status_code == 201
    assert response.json()["status"] == "awaiting"
    assert response.json()["result"]["confirmed"] is False  # its players see it
    assert league.client().get(f"/api/v1/matches/{league.match.pk}/").json()["result"] is None

    waiting = database_state()
    for same_team in (partner, submitter):
        assert league.client(same_team).post(result_url(league.match, True)).status_code == 403
    assert database_state() == waiting

    confirmed = league.client(opponent).post(result_url(league.match, True))
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "done" and confirmed.json()["result"]["confirmed"]
    public = league.client().get(f"/api/v1/matches/{league.match.pk}/").json()
    assert public["result"]["totals"] == record["result"]["totals"]


def test_confirming_a_match_without_a_result_is_a_404(league: League) -> None:
    response = league.client(league.organiser).post(result_url(league.match, True))
    assert response.status_code == 404 and "no result to confirm" in response.json()["detail"]


def _secrets(match: Match) -> list[str]:
    """How an unfinished match's seed or packs would show: the seed, and the start of each
    pack in JSON, in a list and as text."""
    found = [str(match.seed)]
    for pack in deal_from_seed(match.seed)[1]:
        codes = [card.code for card in pack[:8]]
        found += [", ".join(f'"{c}"' for c in codes), ",".join(f'"{c}"' for c in codes),
                  "".join(f"<li>{c}</li>" for c in codes), " ".join(codes)]
    return found


def test_no_answer_shows_an_unfinished_matchs_seed_or_packs(league: League) -> None:
    match, player = league.match, seated_user(league.match, 0)
    api = [f"/api/v1/matches/{match.pk}/", f"/api/v1/matches/{match.pk}/?include=record",
           f"/api/v1/matches/?round={league.round2.pk}", f"/api/v1/rounds/{league.round2.pk}/",
           f"/api/v1/tournaments/{league.tournament.pk}/",
           f"/api/v1/matches/{match.pk}/record/"]
    pages = [f"/matches/{match.pk}/", f"/matches/{match.pk}/live/",
             f"/tournaments/{league.tournament.pk}/rounds/2/",
             f"/tournaments/{league.tournament.pk}/"]
    for user in (None, player, league.organiser):
        client = league.client(user)
        browser = Client()
        if user is not None:
            browser.force_login(user)
        for path in api:
            body = client.get(path).content.decode()
            assert not any(secret in body for secret in _secrets(match)), (path, user)
        for path in pages:
            response = browser.get(path)
            assert response.status_code == 200, path
            body = response.content.decode()
            assert not any(secret in body for secret in _secrets(match)), (path, user)
    detail = league.client(player).get(f"/api/v1/matches/{match.pk}/?include=record").json()
    assert "seed" not in detail and detail["record"] is None
