"""The director's view of an online round: every live table on one page (hand, score,
whose turn, seats' people and bots, connected or not, clocks) with no card of any hand;
pause and resume, pin a substitute and give the seat back, add time and message every
table; only the tournament's organisers; refusals say why and change nothing. And the
tournament's clock and grace reach its tables; the round page shows each table's game."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.live.models import LiveTable
from games.live.seating import load
from games.live.state import replay
from tournaments.models import Match, Tournament

from .factories import UserFactory
from .test_admin import logged_in, said
from .test_online import online, publish_first_round

pytestmark = pytest.mark.django_db


def page_url(tournament: Tournament) -> str:
    return reverse("admin:tournaments_tournament_director", args=[tournament.pk])


def do_url(tournament: Tournament) -> str:
    return reverse("admin:tournaments_tournament_director_do", args=[tournament.pk])


@pytest.fixture
def organiser() -> Any:
    return UserFactory()


@pytest.fixture
def match(organiser: Any) -> Match:
    """A published online round: alice (seat 0) and bob (seat 1) at their table."""
    tournament = online(organisers=[organiser], turn_seconds=45, reserve_seconds=200,
                        grace_seconds=90)
    home, away = (entry.team for entry in tournament.entries.order_by("seed"))
    home.player_a.user = get_user_model().objects.create_user("alice", password="pw-a-12345")
    away.player_a.user = get_user_model().objects.create_user("bob", password="pw-b-12345")
    home.player_a.save(), away.player_a.save()
    return publish_first_round(tournament, organiser)


def _table(match: Match) -> LiveTable:
    return LiveTable.objects.get(match=match)


def _do(client: Client, match: Match, **data: Any) -> str:
    response = client.post(do_url(match.round.tournament), data, follow=True)
    assert response.redirect_chain == [(page_url(match.round.tournament), 302)]
    return said(response)


def test_the_tournaments_clock_and_grace_reach_its_tables(match: Match) -> None:
    table = _table(match)
    assert (table.move_seconds, table.reserve_seconds, table.grace_seconds) == (45, 200, 90)
    assert [state.reserve for state in load(table.seating)] == [200.0] * 4
    substitutes = dict(table.seats.values_list("seat", "substitute"))
    assert substitutes[0] == substitutes[1] == "greedy"  # the tournament's bot level


def test_the_page_shows_every_table_and_no_card(organiser: Any, match: Match) -> None:
    page = logged_in(organiser).get(page_url(match.round.tournament)).content.decode()
    assert "Hand 1 of 5" in page and "score 0–0" in page
    assert "alice" in page and "bob" in page and "not connected" in page
    assert "reserve 200 s" in page and "Pause" in page
    assert "Seat a bot for the rest of the game" in page
    deal = replay(match.seed, []).game
    for seat in range(4):  # not one card of any hand
        for card in deal.observation(seat).hand:
            assert f">{card.code}<" not in page and f" {card.code} " not in page


def test_pause_pin_time_and_message_from_the_page(organiser: Any, match: Match) -> None:
    client, table = logged_in(organiser), _table(match)
    assert _do(client, match, do="pause", table=table.pk) == f"Done at table {table.pk}."
    assert _table(match).paused_at is not None
    assert _do(client, match, do="pause", table=table.pk) == (
        f"Nothing to change at table {table.pk}.")
    assert "paused" in client.get(page_url(match.round.tournament)).content.decode()
    _do(client, match, do="resume", table=table.pk)
    assert _table(match).paused_at is None
    _do(client, match, do="pin", table=table.pk, seat=1)
    assert load(_table(match).seating)[1].pinned
    page = client.get(page_url(match.round.tournament)).content.decode()
    assert "for the rest of the game" in page and "Give the seat back" in page
    _do(client, match, do="give_back", table=table.pk, seat=1)
    assert not load(_table(match).seating)[1].pinned
    _do(client, match, do="add_time", table=table.pk, seat=0, seconds=60)
    assert load(_table(match).seating)[0].reserve == 260.0
    assert _do(client, match, do="message", text="Ten minutes left") == (
        "The message went to 1 table(s).")
    assert _table(match).message == "Ten minutes left"


@pytest.mark.parametrize(("data", "says"), [
    ({"do": "pause"}, "Say which table"),
    ({"do": "pause", "table": "x1"}, "table must be a whole number"),
    ({"do": "explode", "table": "{table}"}, "Unknown action explode"),
    ({"do": "pin", "table": "{table}"}, "Say which seat"),
    ({"do": "pin", "table": "{table}", "seat": "2"}, "not a person's seat"),
    ({"do": "add_time", "table": "{table}", "seat": "0", "seconds": "0"}, "between 1 and"),
    ({"do": "pause", "table": "999999"}, "not one of round 1's live tables"),
    ({"do": "message", "text": " "}, "1 to 300 characters"),
])
def test_refusals_say_why_and_change_nothing(organiser: Any, match: Match,
                                             data: dict[str, str], says: str) -> None:
    table = _table(match)
    before = (table.seating, table.paused_at, table.message, table.deadline)
    filled = {key: value.format(table=table.pk) for key, value in data.items()}
    assert says in _do(logged_in(organiser), match, **filled)
    after = _table(match)
    assert (after.seating, after.paused_at, after.message, after.deadline) == before


@pytest.mark.parametrize("data", [
    {"do": "pause"}, {"do": "resume"}, {"do": "pin", "seat": 1}, {"do": "give_back", "seat": 1},
    {"do": "add_time", "seat": 0, "seconds": 60}])
def test_an_organiser_who_plays_at_the_table_does_not_direct_it(organiser: Any, match: Match,
                                                                data: dict[str, Any]) -> None:
    player = match.team_a.player_a
    player.user = organiser  # alice's seat is the organiser's now
    player.save()
    table = _table(match)
    before = (table.paused_at, table.seating)
    said_ = _do(logged_in(organiser), match, table=table.pk, **data)
    assert said_ == ("Not done: An organiser who plays at a table does not direct it; "
                     "another organiser does.")
    table.refresh_from_db()
    assert (table.paused_at, table.seating) == before


def test_only_the_tournaments_organisers_direct_it(match: Match) -> None:
    other = logged_in(UserFactory())  # staff, organising another tournament
    tournament = match.round.tournament
    assert other.get(page_url(tournament)).status_code == 404
    assert other.post(do_url(tournament), {"do": "pause", "table": _table(match).pk}
                      ).status_code == 404
    assert _table(match).paused_at is None
    player = Client()
    player.force_login(get_user_model().objects.get(username="alice"))
    response = player.post(do_url(tournament), {"do": "pause", "table": _table(match).pk})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert _table(match).paused_at is None


def test_the_round_page_shows_each_tables_game(client: Client, match: Match) -> None:
    url = reverse("tournaments:round_detail", args=[match.round.tournament.pk, 1])
    page = client.get(url).content.decode()
    assert "Hand 1 of 5" in page and "score 0–0" in page


def test_a_player_marked_absent_after_publishing_gets_their_substitute_for_good(
        organiser: Any, match: Match) -> None:
    """Checked in as absent once the round is played: their seat's bot plays at the live
    table for the rest of the game, and the match's seat says a bot played it."""
    from tournaments import services

    tournament = match.round.tournament
    alice = match.seats.get(position=0).player
    assert alice is not None
    present = {p.pk for p in (e.team.player_a for e in tournament.entries.all())} | {
        p.pk for p in (e.team.player_b for e in tournament.entries.all())}
    changed = services.check_in_roster(tournament=tournament, number=1,
                                       present=present - {alice.pk}, user=organiser)
    assert changed == 1
    state = load(_table(match).seating)[0]
    assert state.pinned and state.away
    assert match.seats.get(position=0).substitute


def test_the_console_of_an_online_tournament_links_the_directors_view(
        organiser: Any, match: Match) -> None:
    tournament = match.round.tournament
    console = logged_in(organiser).get(
        reverse("admin:tournaments_tournament_console", args=[tournament.pk])).content.decode()
    assert f'href="{page_url(tournament)}"' in console
