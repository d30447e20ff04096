"""A tournament's live table names everyone at it and says what it is played for: each seat
by its player's name, logged in or not ("bot for Bo" where a bot plays for Bo), the teams by
their names, and the tournament, round and match, linked, at the table (its player's and
its spectators' page), in its replay, in ``/tables/``, on the home page's "Your table" and
with a bot's mark on the round page. A secret duplicate round's tables show none of it to
anyone they are refused to."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live import service
from games.live.naming import names_of
from tournaments import services
from tournaments.models import Match, Tournament

from ..live import conftest as live
from ..live.conftest import FIRST, SEED
from ..live.test_pages import config_of, finish
from .factories import UserFactory
from .test_online import online

pytestmark = pytest.mark.django_db

act = live.act  # the fixture: table_act with the bots answering at once

# the players by their seat at the table (R1.1: seats 0 and 2 are team A's)
NAMES = ["Aino", "Bo", "Cai", "Dana"]
EVENT = "Spring Cup, round 1, table 1: Aces v Kings"


def seated(tag: str = "", **kwargs: Any) -> tuple[Match, Any]:
    """Spring Cup's round 1 published online: Aces (Aino, Cai) v Kings (Bo, Dana), dealt
    from the seeded deal, the player at the seat that moves first (whoever it is) logged in
    as "aino"; the others have no login, so bots play for them. The match and the user.
    ``tag`` ends the names that must be unique (the tournament's, the teams', the login),
    for a second such table."""
    organiser = UserFactory()
    tournament = online(organisers=[organiser], name=f"Spring Cup{tag}", turn_seconds=None,
                        **kwargs)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    match = round.matches.get(is_bye=False)
    Match.objects.filter(pk=match.pk).update(seed=SEED)
    match.team_a.name, match.team_b.name = f"Aces{tag}", f"Kings{tag}"
    match.team_a.save(), match.team_b.save()
    user = get_user_model().objects.create_user(f"aino{tag}", password="pw-aino-123")
    for seat in match.seats.select_related("player"):
        seat.player.name = NAMES[(seat.position - FIRST) % 4]
        if seat.position == FIRST:
            seat.player.user = user
        seat.player.save()
    services.round_publish(round=round, user=organiser)
    return Match.objects.select_related("live_table").get(pk=match.pk), user


def names_by_seat() -> list[str]:
    return [NAMES[(seat - FIRST) % 4] for seat in range(4)]


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text_of(response: Any) -> str:
    """The page's words, its tags taken out and its spaces run together."""
    return text_of_html(response.content.decode())


def text_of_html(fragment: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment))).strip()


def test_the_table_names_its_players_teams_and_event_to_its_player_and_spectators() -> None:
    match, aino = seated()
    table = match.live_table
    assert table is not None
    url = reverse("live:table", args=[table.pk])
    names = names_by_seat()
    links = [reverse("tournaments:tournament_detail", args=[match.round.tournament_id]),
             reverse("tournaments:round_detail", args=[match.round.tournament_id, 1]),
             reverse("tournaments:match_detail", args=[match.pk])]
    for client, seat in ((logged_in(aino), FIRST), (Client(), None)):
        page = client.get(url)
        assert page.status_code == 200
        config = config_of(page)
        assert config["seat"] == seat
        assert config["players"] == names  # never "Partner" nor "Bot in seat 2"
        assert config["marks"] == ["" if name == "Aino" else f"bot for {name}"
                                   for name in names]
        assert config["teams"] == ["Aces", "Kings"]  # whichever the viewer's is
        content = page.content.decode()
        assert '<th scope="col" data-team="0">Aces</th>' in content
        assert '<th scope="col" data-team="1">Kings</th>' in content
        assert f"<title>Table {table.pk} · {EVENT} · Push league</title>" in content
        event = re.search(r'<nav class="table-event"[^>]*>(.*?)</nav>', content, re.S)
        assert event is not None
        assert re.findall(r'href="([^"]+)"', event.group(1)) == links
        words = text_of(page)
        assert "You play with friends" not in words
        assert (f"You play in {EVENT}; the seats marked bot are played by bots" in words
                if seat is not None else
                f"You are watching {EVENT}: you see the table, not the hands." in words)


def test_the_replay_names_the_players_and_teams_and_links_the_event(act: Any) -> None:
    match, aino = seated()
    table = match.live_table
    assert table is not None
    finish(table, act)
    page = Client().get(reverse("live:replay", args=[table.pk]))
    assert page.status_code == 200
    content = page.content.decode()
    for seat, name in enumerate(names_by_seat()):
        heading = re.search(rf'<h3 id="replay-seat-{seat}">(.*?)</h3>', content)
        assert heading is not None
        assert text_of_html(heading.group(1)) == (name if name == "Aino" else f"{name} bot")
    assert '<th scope="col" class="num">Aces</th><th scope="col" class="num">Kings</th>' \
        in content
    assert f'href="{reverse("tournaments:match_detail", args=[match.pk])}"' in content
    words = text_of(page)
    assert "Seats 0 and 2" not in words and "Bot in seat" not in words
    assert f"{EVENT}" in words


def test_the_list_of_tables_names_the_players_and_the_event() -> None:
    match, aino = seated()
    expected = ", ".join(name if name == "Aino" else f"{name} (bot for {name})"
                         for name in names_by_seat())
    for client, list_id in ((Client(), "watch-tables"), (logged_in(aino), "my-tables")):
        words = text_of(client.get(reverse("live:tables")))
        assert f"{EVENT} · hand 1 of 5 · {expected}" in words, list_id
        assert "bot (" not in words


def test_your_table_on_the_home_page_names_the_partner_and_opponents() -> None:
    _match, aino = seated()
    words = text_of(logged_in(aino).get("/"))
    partner, left, right = NAMES[2], NAMES[1], NAMES[3]
    assert (f"Partner: {partner} bot for {partner}. Opponents: {left} bot for {left}, "
            f"{right} bot for {right}.") in words
    assert "bot (" not in words


def test_the_round_page_marks_the_players_a_bot_plays_for() -> None:
    match, _aino = seated()
    words = text_of(Client().get(reverse("tournaments:round_detail",
                                         args=[match.round.tournament_id, 1])))
    for name in NAMES[1:]:
        assert f"{name} bot for {name} " in words
    assert "bot for Aino" not in words


def test_a_table_of_no_event_keeps_its_own_words() -> None:
    """A table of no event keeps its own words: the user's name, the bots by place."""
    user = get_user_model().objects.create_user("alice", password="pw-alice-123")
    table = service.create_practice_table(user, "greedy", seat=0, seed=SEED)
    page = logged_in(user).get(reverse("live:table", args=[table.pk]))
    config = config_of(page)
    assert config["players"] == ["alice", "Left opponent", "Partner", "Right opponent"]
    assert config["marks"] == ["", "bot", "bot", "bot"]
    assert 'class="table-event"' not in page.content.decode()


def test_a_secret_rounds_table_says_nothing_to_those_it_is_refused() -> None:
    match, aino = seated(duplicate=Tournament.Duplicate.MATCHPOINTS, tiebreaks=["butler"])
    table = match.live_table
    assert table is not None
    outsider = UserFactory(is_staff=False)
    for client in (Client(), logged_in(outsider)):
        for url in (reverse("live:table", args=[table.pk]),
                    reverse("live:replay", args=[table.pk])):
            response = client.get(url)
            assert response.status_code == 403, url
            assert "Aces" not in response.content.decode() and EVENT not in text_of(response)
        tables = text_of(client.get(reverse("live:tables")))
        assert "Spring Cup" not in tables and "bot for" not in tables
    round_page = text_of(Client().get(reverse("tournaments:round_detail",
                                              args=[match.round.tournament_id, 1])))
    assert "bot for" not in round_page
    # its own player sees where they play, and the boards the round deals
    seated_page = text_of(logged_in(aino).get(reverse("live:table", args=[table.pk])))
    assert f"You play in {EVENT}, boards 1 to 5;" in seated_page



def test_the_names_of_many_tables_take_no_more_queries_than_of_one() -> None:
    """``/tables/`` names up to sixty tables: each kind's describer is asked once for all."""
    tables = [seated(tag)[0].live_table for tag in ("", " 2", " 3")]
    seats = {table.pk: list(table.seats.select_related("user")) for table in tables}
    counts = []
    for some in (tables[:1], tables):
        with CaptureQueriesContext(connection) as queries:
            names = names_of(some, seats)
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert [names[t.pk].event_words for t in tables] == [
        EVENT, EVENT.replace("Cup", "Cup 2").replace("Aces v Kings", "Aces 2 v Kings 2"),
        EVENT.replace("Cup", "Cup 3").replace("Aces v Kings", "Aces 3 v Kings 3")]
