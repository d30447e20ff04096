"""A player's login: an organiser who may change the player sets it by username, or sends an
invite link, which links the account that opens it once, while it has not expired."""

from __future__ import annotations

import time
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils.http import urlencode
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.factories import (
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Entry, Player
from tournaments.services import accounts

from .test_markup import Audit

pytestmark = pytest.mark.django_db
User = get_user_model()
DAY = 24 * 60 * 60


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def player_account() -> Any:
    return UserFactory(is_staff=False)


def links() -> list[tuple[int, int | None]]:
    return sorted(Player.objects.values_list("pk", "user_id"))


@pytest.fixture
def organiser_and_player() -> tuple[Any, Player, Player]:
    """An organiser; a player who plays only in the organiser's cup, and one who also plays
    in another organiser's."""
    organiser = UserFactory()
    mine = TournamentFactory(organisers=[organiser])
    theirs = TournamentFactory(organisers=[UserFactory()])
    own_team, shared_team = TeamFactory(), TeamFactory()
    Entry.objects.create(tournament=mine, team=own_team)
    Entry.objects.create(tournament=mine, team=shared_team)
    Entry.objects.create(tournament=theirs, team=shared_team)
    return (organiser, Player.objects.get(pk=own_team.player_a_id),
            Player.objects.get(pk=shared_team.player_a_id))


def set_login(client: Client, player: Player, username: str) -> Any:
    return client.post(reverse("admin:tournaments_player_change", args=[player.pk]),
                       {"name": player.name, "handle": player.handle, "user": username})


# The organiser sets the login by username

def test_an_organiser_who_may_change_the_player_sets_their_login(
        organiser_and_player: Any) -> None:
    organiser, player, _shared = organiser_and_player
    account = UserFactory(username="ville", is_staff=False)
    client = logged_in(organiser)

    assert set_login(client, player, "ville").status_code == 302

    player.refresh_from_db()
    assert player.user == account
    page = client.get(reverse("admin:tournaments_player_change", args=[player.pk]))
    assert 'name="user" value="ville"' in page.content.decode()  # shown by its username
    assert set_login(client, player, "").status_code == 302  # and cleared again
    player.refresh_from_db()
    assert player.user is None


def test_an_organiser_cannot_set_the_login_of_another_organisers_player(
        organiser_and_player: Any) -> None:
    organiser, _own, shared = organiser_and_player
    UserFactory(username="ville", is_staff=False)

    assert set_login(logged_in(organiser), shared, "ville").status_code == 403

    shared.refresh_from_db()
    assert shared.user is None
    superuser = logged_in(UserFactory(is_superuser=True))
    assert set_login(superuser, shared, "ville").status_code == 302


@pytest.mark.parametrize("username, error", [
    ("nobody", "No account has this username."),
    ("v" * 10_000, "No account has this username."),
    ("ville\x00", "Null characters are not allowed."),
])
def test_a_username_no_account_has_is_refused(organiser_and_player: Any, username: str,
                                              error: str) -> None:
    organiser, player, _shared = organiser_and_player
    UserFactory(username="ville", is_staff=False)
    before = links()

    response = set_login(logged_in(organiser), player, username)

    assert response.status_code == 200
    assert error in response.content.decode()
    assert links() == before


def test_an_account_that_is_another_players_login_is_refused(
        organiser_and_player: Any) -> None:
    organiser, player, _shared = organiser_and_player
    account = UserFactory(username="ville", is_staff=False)
    PlayerFactory(name="Ville Virtanen", user=account)
    before = links()

    response = set_login(logged_in(organiser), player, "ville")

    assert response.status_code == 200
    assert ("The account ville is linked to Ville Virtanen" in response.content.decode()
            and "an account belongs to one player at most" in response.content.decode())
    assert links() == before


# The invite link in the admin

def test_the_player_page_offers_an_invite_link_that_names_the_player(
        organiser_and_player: Any) -> None:
    organiser, player, _shared = organiser_and_player
    client = logged_in(organiser)
    invite_page = reverse("admin:tournaments_player_invite", args=[player.pk])

    change = client.get(reverse("admin:tournaments_player_change", args=[player.pk]))
    assert f'href="{invite_page}"' in change.content.decode()

    html = client.get(invite_page).content.decode()
    assert "http://testserver/accounts/invite/" in html and "It works once, for 7 days" in html
    token = html.split("http://testserver/accounts/invite/")[1].split("/")[0]
    assert accounts.invite_player(token) == player


def test_no_invite_link_for_another_organisers_player_or_a_linked_one(
        organiser_and_player: Any) -> None:
    organiser, player, shared = organiser_and_player
    client = logged_in(organiser)

    assert client.get(reverse("admin:tournaments_player_invite",
                              args=[shared.pk])).status_code == 403
    player.user = player_account()
    player.save()
    change = client.get(reverse("admin:tournaments_player_change", args=[player.pk]))
    assert "Invite link" not in change.content.decode()
    linked = client.get(reverse("admin:tournaments_player_invite", args=[player.pk]),
                        follow=True)
    assert "clear it first to invite another account" in linked.content.decode()


# Opening an invite link

def invite_url(player: Player) -> str:
    return reverse("player_invite", args=[accounts.invite_token(player)])


def test_an_invite_links_the_account_that_confirms_it_once() -> None:
    player = PlayerFactory(name="Ville")
    url = invite_url(player)
    account = player_account()
    client = logged_in(account)

    page = client.get(url)
    assert page.status_code == 200 and "Yes, I am Ville" in page.content.decode()
    player.refresh_from_db()
    assert player.user is None  # opening it links nothing

    confirmed = client.post(url)

    assert confirmed["Location"] == reverse("tournaments:player_detail", args=[player.pk])
    player.refresh_from_db()
    assert player.user == account
    again = client.post(url)
    assert again.status_code == 410 and "has been used" in again.content.decode()
    other = logged_in(player_account()).post(url)
    assert other.status_code == 410 and "Ville is linked to an account now" in \
        other.content.decode()
    player.refresh_from_db()
    assert player.user == account


def test_logged_out_it_asks_to_log_in_or_sign_up_and_comes_back() -> None:
    player = PlayerFactory(name="Ville")
    url = invite_url(player)
    client = Client()

    html = client.get(url).content.decode()
    back_here = urlencode({"next": url})
    assert f'href="/accounts/login/?{back_here}"' in html
    signup = f"/accounts/signup/?{back_here}"
    assert f'href="{signup}"' in html
    assert client.post(url).status_code == 200  # nothing to confirm yet
    player.refresh_from_db()
    assert player.user is None

    back = client.post(signup, {"username": "ville", "password1": "lazy-otter-stacks-9",
                                "password2": "lazy-otter-stacks-9", "next": url})
    assert back["Location"] == url
    assert client.post(url).status_code == 302
    player.refresh_from_db()
    assert player.user is not None and player.user.username == "ville"


def test_an_expired_invite_is_refused() -> None:
    player = PlayerFactory()
    with mock.patch("time.time", return_value=time.time() - 8 * DAY):
        old = reverse("player_invite", args=[accounts.invite_token(player)])
    with mock.patch("time.time", return_value=time.time() - 6 * DAY):
        recent = reverse("player_invite", args=[accounts.invite_token(player)])
    client = logged_in(player_account())

    response = client.post(old)

    assert response.status_code == 410 and "has expired" in response.content.decode()
    player.refresh_from_db()
    assert player.user is None
    assert client.get(recent).status_code == 200


@pytest.mark.parametrize("forge", [
    lambda token, other: token.replace(f"{token.split('.')[0]}.", f"{other}.", 1),
    lambda token, other: token[:-1] + ("A" if token[-1] != "A" else "B"),
    lambda token, other: f"{other}.0",
    lambda token, other: "garbage",
])
def test_a_forged_invite_is_refused(forge: Any) -> None:
    player, other = PlayerFactory(), PlayerFactory()
    token = forge(accounts.invite_token(player), other.pk)
    client = logged_in(player_account())
    before = links()

    response = client.post(reverse("player_invite", args=[token]))

    assert response.status_code == 400
    assert "not a valid invite link" in response.content.decode()
    assert links() == before


@pytest.mark.parametrize("path", ["%00", "1.0%00:x:y", "%ED%A0%80", "%FF", "x" * 100_000])
def test_an_invite_path_of_bad_bytes_is_a_400(path: str) -> None:
    PlayerFactory()
    before = links()

    response = logged_in(player_account()).post(f"/accounts/invite/{path}/")

    assert response.status_code == 400
    assert links() == before


def test_an_invite_for_a_player_linked_since_is_refused() -> None:
    player = PlayerFactory(name="Ville")
    url = invite_url(player)
    player.user = player_account()  # the organiser linked someone meanwhile
    player.save()
    before = links()

    response = logged_in(player_account()).post(url)

    assert response.status_code == 410 and "Ville is linked to an account now" in \
        response.content.decode()
    assert links() == before


def test_an_account_that_is_another_players_cannot_take_an_invite() -> None:
    account = player_account()
    PlayerFactory(name="Kaisa", user=account)
    player = PlayerFactory(name="Ville")
    before = links()

    response = logged_in(account).post(invite_url(player))

    assert response.status_code == 400
    assert "is linked to Kaisa (@kaisa) already; an account belongs to one player at most" \
        in response.content.decode()
    assert links() == before


def test_confirming_needs_the_csrf_token() -> None:
    player = PlayerFactory()
    client = Client(enforce_csrf_checks=True)
    client.force_login(player_account())

    assert client.post(invite_url(player)).status_code == 403
    player.refresh_from_db()
    assert player.user is None


@given(st.integers(1, 2**63 - 1), st.one_of(st.none(), st.integers(1, 2**63 - 1)))
def test_an_invites_value_reads_back(player_id: int, user_id: int | None) -> None:
    assert accounts.read_invite_value(accounts.invite_value(player_id, user_id)) == (
        player_id, user_id)


@pytest.mark.parametrize("value", ["", "1", "1.", ".1", "1.2.3", "-1.0", "1.x", "¹.0"])
def test_a_value_no_invite_has_reads_as_none(value: str) -> None:
    assert accounts.read_invite_value(value) is None


def test_the_account_pages_pass_the_markup_audit() -> None:
    player = PlayerFactory()
    pages = [(Client(), "/accounts/signup/"), (Client(), "/accounts/password_reset/"),
             (Client(), "/accounts/password_reset/done/"),
             (Client(), "/accounts/password_reset/x/y/"), (Client(), invite_url(player)),
             (logged_in(player_account()), invite_url(player))]
    for client, url in pages:
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        audit = Audit()
        audit.feed(response.content.decode())
        assert audit.h1 == 1, url
        assert [i for i, n in audit.ids.items() if n > 1] == [], url
        assert [c for c in audit.controls if c not in audit.labels] == [], url
        assert all(audit.buttons) and audit.external == [], url
