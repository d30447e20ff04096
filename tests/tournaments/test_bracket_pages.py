"""Every bracket format's page and places draw at every stage, through the database: a
knockout and a double elimination of every size from 2 to 32 teams, paired, published and
played round by round with random games (some drawn on the total and decided by the tie
rule, R9.2), the bracket page and the API's standings (its places) fetched after every
pairing and every round, from the first pairing to the end. The pure formats' own walk is
``test_bracket_property.py``."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Round, Tournament

from .factories import UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db

FORMATS = (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION)


def a_sheet(rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """A score sheet (each hand's scores, and the seat that went out: 0 for the home team,
    1 for the away team, who then score 0); about one game in five is drawn on the total."""
    if rng.random() < 0.2:
        return [[0, 40], [40, 0], [0, 75], [65, 0], [10, 0]], [0, 1, 0, 1, 1]
    outs = [rng.choice((0, 1)) for _ in range(5)]
    hands = [[0, rng.choice((10, 40, 75))] if out == 0 else [rng.choice((10, 40, 75)), 0]
             for out in outs]
    return hands, outs


def fetch(client: Client, tournament: Tournament) -> dict[str, object]:
    """The bracket page (it draws every team) and the API's standings, with their places."""
    page = client.get(reverse("tournaments:bracket", args=[tournament.pk]))
    assert page.status_code == 200, page.content[:500]
    html = page.content.decode()
    for entry in tournament.entries.select_related("team"):
        assert entry.team.name in html
    answer = client.get(f"/api/v1/tournaments/{tournament.pk}/standings/")
    assert answer.status_code == 200, answer.content[:500]
    data: dict[str, object] = answer.json()
    return data


@pytest.mark.parametrize("size", range(2, 33))
@pytest.mark.parametrize("format", FORMATS)
def test_the_bracket_and_places_draw_at_every_stage(format: str, size: int) -> None:
    rng = random.Random(f"{format}-{size}")
    organiser = UserFactory()
    tournament = tournament_with_teams(size, format=format, organisers=[organiser])
    client = Client()
    assert fetch(client, tournament)["places"] == []
    rounds = 0
    while tournament.status != Tournament.Status.FINISHED:
        round = services.round_pair_next(tournament=tournament, user=organiser)
        assert fetch(client, tournament)["places"] == []
        services.round_publish(round=round, user=organiser)
        for match in round.matches.filter(is_bye=False):
            hands, outs = a_sheet(rng)
            services.match_submit_score_sheet(match=match, hand_scores=hands, out_seats=outs,
                                              user=organiser)
        services.round_complete(round=round, user=organiser)
        rounds += 1
        assert rounds <= 2 * (size - 1).bit_length() + 1
        tournament.refresh_from_db()
    assert Round.objects.filter(tournament=tournament).count() == rounds
    final = fetch(client, tournament)
    places = final["places"]
    assert isinstance(places, list)
    teams = set(tournament.entries.values_list("team_id", flat=True))
    assert sorted(place["team_id"] for place in places) == sorted(teams)
    assert places[0]["first"] == 1
    champion = final["champion"]
    assert isinstance(champion, dict) and champion["team_id"] == places[0]["team_id"]
