"""The admin shows an organiser who plays in a secret duplicate round nothing of its games
(``admin/scoping.without_secret_games``): no match, result or score of the round's tables in
the lists, the round's page or a change page, while another organiser of the tournament sees
them all; once the boards are released, the organiser who played sees them too."""

from __future__ import annotations

import pytest
from django.test import Client

from games.live.models import LiveTable
from tournaments.models import Result

from .factories import UserFactory
from .secret_games import SecretGames

pytestmark = pytest.mark.django_db


def admin_pages(site: SecretGames) -> dict[str, str]:
    result = Result.objects.get(match=site.matches[0])
    return {"/admin/tournaments/match/": f"/admin/tournaments/match/{result.match_id}/change/",
            "/admin/tournaments/result/": f"/admin/tournaments/result/{result.pk}/change/",
            f"/admin/tournaments/round/{site.round.pk}/change/":
                f"/admin/tournaments/match/{result.match_id}/change/"}


def shown(client: Client, site: SecretGames) -> dict[str, bool]:
    seen = {page: link in client.get(page).content.decode()
            for page, link in admin_pages(site).items()}
    change = admin_pages(site)["/admin/tournaments/result/"]
    seen[change] = client.get(change).status_code == 200
    return seen


def organisers(site: SecretGames) -> tuple[Client, Client]:
    """Logged in at the admin: the organiser who plays in the secret round, and another
    organiser of the tournament, who does not."""
    player = site.users["organiser"]
    player.is_staff = True
    player.save()
    playing, directing = Client(), Client()
    playing.force_login(player)
    other = UserFactory(username="organiser-who-directs")
    site.tournament.organisers.add(other)
    directing.force_login(other)
    return playing, directing


def test_an_organiser_who_plays_sees_nothing_of_the_secret_rounds_games_in_the_admin(
        site: SecretGames) -> None:
    playing, directing = organisers(site)

    assert set(shown(directing, site).values()) == {True}  # the markers are there
    assert set(shown(playing, site).values()) == {False}
    site.release()
    assert set(shown(playing, site).values()) == {True}


def test_the_console_and_the_printed_deals_show_an_organiser_who_plays_nothing_of_the_round(
        site: SecretGames) -> None:
    """The organiser's console (its page and its live fragment) and the round's printed
    deals are the admin's too: while the round is secret, an organiser who plays in it (here
    on table 2, finished, their seat taken by a substitute) sees no result of its tables, no
    count of those done, and no pack; another organiser sees them all."""
    playing, directing = organisers(site)
    result = Result.objects.get(match=site.matches[0])
    t = site.tournament.pk
    markers = {f"/admin/tournaments/tournament/{t}/console/": f"{result.total_a}–{result.total_b}",
               f"/admin/tournaments/tournament/{t}/console/live/": "Results in: 2 of 3",
               f"/admin/tournaments/round/{site.round.pk}/deals/": "Board 1 (hand 1): seat"}

    def seen(client: Client) -> dict[str, bool]:
        return {page: marker in client.get(page).content.decode()
                for page, marker in markers.items()}

    assert set(seen(directing).values()) == {True}  # the markers are there
    assert seen(playing) == dict.fromkeys(markers, False)
    site.release()
    assert set(seen(playing).values()) == {True}


@pytest.mark.parametrize("data", [
    {"do": "pause"}, {"do": "pin", "seat": "1"}, {"do": "add_time", "seat": "0", "seconds": "60"},
    {"do": "message", "text": "Five minutes left"}])
def test_an_organiser_who_plays_in_a_secret_round_directs_none_of_its_tables(
        site: SecretGames, data: dict[str, str]) -> None:
    """The director's page shows an organiser who plays in the round none of its tables;
    its buttons' view refuses them as well, at table 3 too (not theirs): in a duplicate round
    every table's result is compared with their own, and a refusal ("no longer in play")
    or a count of the tables messaged would tell which tables have finished."""
    player = site.users["organiser"]
    player.is_staff = True
    player.save()
    client = Client()
    client.force_login(player)
    table = LiveTable.objects.get(pk=site.matches[2].live_table_id)
    before = (table.paused_at, table.seating, table.message, table.deadline)
    response = client.post(f"/admin/tournaments/tournament/{site.tournament.pk}/director/do/",
                           {"table": str(table.pk), **data}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Not done: You play in round 1, whose boards are secret until every table has "
        "finished: another organiser directs its tables."]
    table.refresh_from_db()
    assert (table.paused_at, table.seating, table.message, table.deadline) == before


def test_the_api_refuses_an_organiser_who_plays_the_rounds_steps_as_the_console_does(
        site: SecretGames) -> None:
    playing, directing = organisers(site)
    for step in ("fill-seats", "release-boards", "complete"):
        response = playing.post(f"/api/v1/rounds/{site.round.pk}/{step}/")
        assert response.status_code == 400, step
        assert response.json()["detail"] == (
            "you play in round 1, whose boards are secret until every table has finished: "
            "another organiser runs its steps")
    site.round.refresh_from_db()
    assert not site.round.boards_released
    released = directing.post(f"/api/v1/rounds/{site.round.pk}/release-boards/")
    assert released.status_code == 200
    site.round.refresh_from_db()
    assert site.round.boards_released
