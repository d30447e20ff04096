"""A pairing format's refusal reaches a Finnish organiser in Finnish, with its numbers."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def test_a_swiss_round_with_one_active_team_is_refused_in_finnish(client: Client,
                                                                  finnish: None) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, format=Tournament.Format.SWISS,
                                       organisers=[organiser])
    tournament.entries.exclude(seed=1).update(withdrawn=True)
    client.force_login(organiser)

    response = client.post(reverse("admin:tournaments_tournament_changelist"),
                           {"action": "pair_next_round", "index": "0",
                            "_selected_action": [str(tournament.pk)]},
                           follow=True, HTTP_ACCEPT_LANGUAGE="fi")

    html = response.content.decode()
    assert response.status_code == 200
    assert "tarvitaan vähintään 2 mukana olevaa joukkuetta, nyt 1" in html
    assert "active teams are needed" not in html
    assert not Round.objects.filter(tournament=tournament).exists()


def test_the_knockout_tie_rules_are_offered_in_finnish(client: Client, finnish: None) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, format=Tournament.Format.KNOCKOUT,
                                       organisers=[organiser])
    client.force_login(organiser)

    html = client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]),
                      HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    assert ">eniten ulospääsyllä voitettuja jakoja</option>" in html
    assert "most hands won by going out" not in html
