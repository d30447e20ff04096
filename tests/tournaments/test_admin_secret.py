"""The admin shows an organiser who plays in a secret duplicate round nothing of its games
(``admin/scoping.without_secret_games``): no match, result or score of the round's tables in
the lists, the round's page or a change page, while another organiser of the tournament sees
them all; once the boards are released, the organiser who played sees them too."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.robot_duplicate.test_robot_duplicate import act  # noqa: F401  (a fixture)
from tournaments.models import Result

from .factories import UserFactory
from .secret_games import SecretGames, build

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(act: Any, django_capture_on_commit_callbacks: Any) -> SecretGames:  # noqa: F811
    return build(act, django_capture_on_commit_callbacks)


def admin_pages(games: SecretGames) -> dict[str, str]:
    result = Result.objects.get(match=games.matches[0])
    return {"/admin/tournaments/match/": f"/admin/tournaments/match/{result.match_id}/change/",
            "/admin/tournaments/result/": f"/admin/tournaments/result/{result.pk}/change/",
            f"/admin/tournaments/round/{games.round.pk}/change/":
                f"/admin/tournaments/match/{result.match_id}/change/"}


def shown(client: Client, games: SecretGames) -> dict[str, bool]:
    seen = {page: link in client.get(page).content.decode()
            for page, link in admin_pages(games).items()}
    change = admin_pages(games)["/admin/tournaments/result/"]
    seen[change] = client.get(change).status_code == 200
    return seen


def test_an_organiser_who_plays_sees_nothing_of_the_secret_rounds_games_in_the_admin(
        games: SecretGames) -> None:
    player = games.users["organiser"]
    player.is_staff = True
    player.save()
    playing, directing = Client(), Client()
    playing.force_login(player)
    other = UserFactory(username="organiser-who-directs")
    games.tournament.organisers.add(other)
    directing.force_login(other)

    assert set(shown(directing, games).values()) == {True}  # the markers are there
    assert set(shown(playing, games).values()) == {False}
    games.release()
    assert set(shown(playing, games).values()) == {True}
