"""Tables for friends (games/live/friends.py): a host opens a table, keeping seats for
friends and bots; each friend's seat has a signed link; whoever opens it, logged in, takes
the seat while it is free (one person, one seat); the host starts the game (or it starts
by itself once every friend's seat is taken) and it plays as a practice table does, bots in
the friends' seats nobody took. The pages: opening a table, the waiting page and its live
part, the links.

The races (two people on one link, a take and the start) are played out on PostgreSQL, the
other side waiting on the waiting table's row lock in a thread of its own; on SQLite they
skip, saying so."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from config.worker_process import database_url
from games.bots import BOT_NAMES
from games.live import friends, limits, service
from games.live.friends import FriendTableError
from games.live.models import FriendSeat, FriendTable, LiveTable

from ..pages.test_markup import Audit
from .conftest import in_thread

pytestmark = pytest.mark.django_db

# seconds: how long a thread waiting for a row lock is given to show it waits
WAITS = 0.5


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(name, password=f"pw-{name}-12345")


@pytest.fixture
def bob(db: None) -> Any:
    return _user("bob")


@pytest.fixture
def carol(db: None) -> Any:
    return _user("carol")


def _logged_in(user: Any, **options: Any) -> Client:
    client = Client(**options)
    client.force_login(user)
    return client


def _open(host: Any, seat: int = 0, friends_at: tuple[int, ...] = (2,), bot: str = "greedy",
          auto_start: bool = False) -> FriendTable:
    return friends.open_friend_table(host, seat=seat, friends=friends_at, bot=bot,
                                     auto_start=auto_start)


def _token(table: FriendTable, seat: int) -> str:
    return friends.seat_tokens(table, list(table.seats.order_by("seat")))[seat]


def _taken() -> list[tuple[int, int, int | None]]:
    """Every seat of every waiting table: (table, seat, user)."""
    return list(FriendSeat.objects.order_by("friend_table", "seat")
                .values_list("friend_table", "seat", "user"))


# ---- opening a table and its links ----

def test_a_table_for_friends_keeps_seats_and_holds_no_game(player: Any) -> None:
    table = _open(player, seat=1, friends_at=(3, 0))
    assert [(s.seat, s.kind, s.user) for s in table.seats.order_by("seat")] == [
        (0, "friend", None), (1, "host", player), (2, "bot", None), (3, "friend", None)]
    assert table.status == "waiting" and table.table is None
    assert not LiveTable.objects.exists()  # no deal, no seed, nothing to play or watch
    assert "seed" not in {field.name for field in FriendTable._meta.get_fields()}


@pytest.mark.parametrize(("seat", "friends_at", "bot", "says"), [
    (4, (2,), "greedy", "A seat is 0, 1, 2 or 3, not 4."),
    (0, (), "greedy", "Keep at least one of the other seats for a friend"),
    (0, (0, 2), "greedy", "Keep at least one of the other seats for a friend"),
    (0, (5,), "greedy", "Keep at least one of the other seats for a friend"),
    (0, (2,), "genius", f"Unknown bot level genius; choose from {', '.join(BOT_NAMES)}."),
])
def test_a_table_that_cannot_be_seated_is_refused_and_nothing_stored(
        player: Any, seat: int, friends_at: tuple[int, ...], bot: str, says: str) -> None:
    with pytest.raises(FriendTableError) as refused:
        friends.open_friend_table(player, seat=seat, friends=friends_at, bot=bot)
    assert refused.value.message.startswith(says) and refused.value.status == 400
    assert not FriendTable.objects.exists() and not FriendSeat.objects.exists()


def test_each_free_friends_seat_has_a_link_of_its_own(player: Any, bob: Any) -> None:
    table = _open(player, friends_at=(1, 2, 3))
    seats = list(table.seats.order_by("seat"))
    tokens = friends.seat_tokens(table, seats)
    assert sorted(tokens) == [1, 2, 3] and len(set(tokens.values())) == 3
    for seat, token in tokens.items():
        found = friends.invitation(token)
        assert (found.table, found.seat) == (table, seat)
    friends.take_seat(bob, tokens[2])
    assert sorted(friends.seat_tokens(table, list(table.seats.order_by("seat")))) == [1, 3]
    # another table's links lead to its own seats, though both have a seat 2
    other = _open(player, friends_at=(2,))
    assert friends.invitation(_token(other, 2)).table == other


def _forged(table: FriendTable) -> list[str]:
    """Links a person might try: mangled, re-signed for another seat or table without the
    site's key, signed for something else, made for a table whose key differs."""
    real = _token(table, 2)
    value, signature = real.split(":")
    unsigned = signing.Signer(salt=friends.SALT).unsign_object(real)
    other_seat = signing.b64_encode(
        signing.JSONSerializer().dumps([table.pk, 1, unsigned[2]])).decode()
    return [
        "", "nonsense", real[:-1], real + "x", f"{other_seat}:{signature}",
        signing.Signer(salt="another.purpose").sign_object([table.pk, 2, table.key]),
        signing.Signer(key="not-the-site-key", salt=friends.SALT).sign_object(
            [table.pk, 2, table.key]),
        signing.Signer(salt=friends.SALT).sign_object([table.pk, 2, "an old key"]),
        signing.Signer(salt=friends.SALT).sign_object([table.pk + 1, 2, table.key]),
        signing.Signer(salt=friends.SALT).sign_object([table.pk, 0, table.key]),  # the host's
        signing.Signer(salt=friends.SALT).sign_object([table.pk, 1, table.key]),  # a bot's
        signing.Signer(salt=friends.SALT).sign_object([table.pk, 7, table.key]),
        signing.Signer(salt=friends.SALT).sign_object({"table": table.pk}),
        value,
    ]


def test_a_bad_or_forged_link_is_refused_clearly_and_nothing_stored(
        player: Any, bob: Any) -> None:
    table = _open(player, friends_at=(2,))
    before = _taken()
    for token in _forged(table):
        with pytest.raises(FriendTableError) as refused:
            friends.take_seat(bob, token)
        assert refused.value.status == 404, token
        assert refused.value.message == (
            "This link does not lead to a seat. Check that it was copied whole, or ask the "
            "friend who sent it for a new one."), token
    assert _taken() == before


# ---- taking a seat ----

def test_a_friend_takes_the_seat_once_and_one_person_holds_one_seat(
        player: Any, bob: Any, carol: Any) -> None:
    table = _open(player, friends_at=(1, 2))
    assert friends.take_seat(bob, _token(table, 2)) == table
    assert friends.take_seat(bob, friends.seat_token(table, 2)) == table  # again: no change
    with pytest.raises(FriendTableError, match=r"^Someone has taken this seat already\.$"):
        friends.take_seat(carol, friends.seat_token(table, 2))
    with pytest.raises(FriendTableError,
                       match=r"^You already have seat 2 at this table: one person, one seat"):
        friends.take_seat(bob, _token(table, 1))
    with pytest.raises(FriendTableError, match=r"^You already have seat 0 at this table"):
        friends.take_seat(player, _token(table, 1))  # the host takes no second seat
    assert [(s.seat, s.user) for s in table.seats.order_by("seat")] == [
        (0, player), (1, None), (2, bob), (3, None)]
    assert not LiveTable.objects.exists()


def test_the_table_starts_by_itself_once_every_friend_is_seated(
        player: Any, bob: Any, carol: Any) -> None:
    table = _open(player, friends_at=(1, 3), auto_start=True)
    friends.take_seat(bob, _token(table, 1))
    assert FriendTable.objects.get(pk=table.pk).status == "waiting"
    started = friends.take_seat(carol, _token(table, 3))
    game = LiveTable.objects.get()
    assert started.status == "started" and started.table == game
    assert [(s.user, s.bot) for s in game.seats.order_by("seat")] == [
        (player, ""), (bob, ""), (None, "greedy"), (carol, "")]


# ---- starting ----

def test_only_the_host_starts_and_the_free_friends_seats_become_bots(
        player: Any, bob: Any, carol: Any) -> None:
    table = _open(player, seat=3, friends_at=(0, 1, 2), bot="random")
    friends.take_seat(bob, _token(table, 1))
    for someone in (bob, carol):
        with pytest.raises(FriendTableError) as refused:
            friends.start_friend_table(someone, table.pk)
        assert refused.value.status == 403
        assert refused.value.message == "Only the player who opened this table can start it."
    assert not LiveTable.objects.exists()
    game = friends.start_friend_table(player, table.pk)
    assert [(s.user, s.bot) for s in game.seats.order_by("seat")] == [
        (None, "random"), (bob, ""), (None, "random"), (player, "")]
    assert (game.reports_to, game.status, game.move_seconds) == ("", "playing", 120)
    assert friends.start_friend_table(player, table.pk) == game  # pressed twice: one game
    assert LiveTable.objects.count() == 1
    with pytest.raises(FriendTableError) as late:
        friends.take_seat(carol, friends.seat_token(table, 0))
    assert late.value.message == "The game at this table has started; you can watch it."
    assert late.value.table == game.pk
    assert friends.take_seat(bob, friends.seat_token(table, 1)).table == game  # bob's own


def test_a_started_table_plays_like_a_practice_table(
        player: Any, bob: Any, eager_tasks: None,
        django_capture_on_commit_callbacks: Any) -> None:
    table = _open(player, friends_at=(2,))
    friends.take_seat(bob, _token(table, 2))
    with django_capture_on_commit_callbacks(execute=True):
        game = friends.start_friend_table(player, table.pk)
    assert LiveTable.objects.get(pk=game.pk).awaiting  # its bots wait for its people
    with django_capture_on_commit_callbacks(execute=True):
        assert service.begin(game.pk)  # the host opened it
    # the bots have played until one of the two people is to move
    view = service.update_since(game.pk, 0, 0).view
    mover = view["to_move"]
    assert mover in (0, 2) and view["deadline"] is not None
    hands = {seat: service.update_since(game.pk, seat, 0).view["hand"] for seat in (0, 2)}
    assert all(len(hand) >= 6 for hand in hands.values()) and hands[0] != hands[2]
    assert service.update_since(game.pk, None, 0).view.get("hand") is None  # a spectator
    legal = service.update_since(game.pk, mover, 0).view["legal"]
    with django_capture_on_commit_callbacks(execute=True):
        seq = service.table_act(game.pk, mover, legal[0], "c1")
    assert game.actions.get(seq=seq).seat == mover
    with pytest.raises(service.TableError, match="cannot act for seat"):
        service.table_act(game.pk, 2 - mover, f"{mover} take", "c2")
    # it counts for both people as a practice table, and ends as one nobody plays at
    assert limits.open_practice_tables(player) == [game.pk]
    assert limits.open_practice_tables(bob) == [game.pk]
    LiveTable.objects.filter(pk=game.pk).update(created=timezone.now() - timedelta(hours=25))
    game.actions.update(created=timezone.now() - timedelta(hours=25))
    assert limits.end_abandoned_tables() == 1
    assert LiveTable.objects.get(pk=game.pk).status == "abandoned"


# ---- the limits ----

def test_a_waiting_table_counts_against_everyone_seated_at_it(
        player: Any, bob: Any, settings: Any) -> None:
    settings.LIVE_MAX_OPEN_PRACTICE_TABLES = 2
    practice = service.create_practice_table(player, "greedy")
    waiting = _open(player)
    assert limits.waiting_friend_tables(player) == [waiting.pk]
    with pytest.raises(service.TableError) as refused:
        _open(player)
    assert refused.value.message == (
        f"You already have 2 practice tables open (table {practice.pk}, waiting table for "
        f"friends {waiting.pk}); finish one before you start another. A table nobody plays "
        "at for 24 hours ends by itself.")
    with pytest.raises(service.TableError, match="^You already have 2 practice tables"):
        service.create_practice_table(player, "greedy")
    # bob, at his limit, cannot take a seat; nothing stored
    bobs = [service.create_practice_table(bob, "greedy") for _ in range(2)]
    with pytest.raises(service.TableError, match="^You already have 2 practice tables"):
        friends.take_seat(bob, _token(waiting, 2))
    assert waiting.seats.get(seat=2).user is None
    LiveTable.objects.filter(pk=bobs[0].pk).update(status=LiveTable.Status.FINISHED)
    friends.take_seat(bob, _token(waiting, 2))
    assert limits.waiting_friend_tables(bob) == [waiting.pk]
    # started, it is the practice table it became (counted once)
    game = friends.start_friend_table(player, waiting.pk)
    assert limits.waiting_friend_tables(player) == []
    assert limits.open_practice_tables(player) == [practice.pk, game.pk]


def test_a_table_nobody_starts_ends_like_an_abandoned_practice_table(
        player: Any, bob: Any, carol: Any) -> None:
    idle, joined, started = _open(player), _open(player), _open(player)
    friends.start_friend_table(player, started.pk)
    day_ago = timezone.now() - timedelta(hours=25)
    FriendTable.objects.update(active=day_ago, created=day_ago)
    friends.take_seat(bob, _token(joined, 2))  # a seat taken: a new day begins
    LiveTable.objects.update(created=timezone.now())
    assert limits.end_abandoned_tables() == 1
    assert dict(FriendTable.objects.values_list("pk", "status")) == {
        idle.pk: "abandoned", joined.pk: "waiting", started.pk: "started"}
    assert limits.waiting_friend_tables(player) == [joined.pk]
    for act in (lambda: friends.take_seat(carol, _token(idle, 2)),
                lambda: friends.start_friend_table(player, idle.pk)):
        with pytest.raises(FriendTableError) as ended:
            act()
        assert ended.value.message == (
            "This table was ended: nobody started it for 24 hours.")
    assert not LiveTable.objects.filter(friend_table=idle).exists()


# ---- races, on PostgreSQL ----

def _held(table: FriendTable) -> psycopg.Connection[Any]:
    """A connection of its own holding ``table``'s row lock, as a take or start would."""
    holder = psycopg.connect(database_url(connection.settings_dict))
    holder.execute(f"SELECT id FROM {FriendTable._meta.db_table} WHERE id = %s FOR UPDATE",
                   [table.pk])
    return holder


def test_two_people_opening_one_link_at_once_one_gets_the_seat(
        postgres: None, player: Any, bob: Any, carol: Any) -> None:
    table = _open(player, friends_at=(2,))
    token = _token(table, 2)
    holder = _held(table)
    try:
        runs = [in_thread(lambda user=user: friends.take_seat(user, token))
                for user in (bob, carol)]
        for thread, _out in runs:
            thread.join(WAITS)
            assert thread.is_alive(), "a take did not wait for the table's lock"
        holder.commit()
    finally:
        holder.close()
    for thread, _out in runs:
        thread.join(30)
    outs = [out for _thread, out in runs]
    assert sorted("value" in out for out in outs) == [False, True], outs
    loser = next(out["error"] for out in outs if "error" in out)
    assert isinstance(loser, FriendTableError)
    assert loser.message == "Someone has taken this seat already."
    winner = [bob, carol][next(i for i, out in enumerate(outs) if "value" in out)]
    assert FriendSeat.objects.get(friend_table=table, seat=2).user == winner


def test_one_person_opening_two_links_at_once_gets_one_seat(
        postgres: None, player: Any, bob: Any) -> None:
    table = _open(player, friends_at=(1, 2, 3))
    holder = _held(table)
    try:
        runs = [in_thread(lambda seat=seat: friends.take_seat(bob, _token(table, seat)))
                for seat in (1, 3)]
        for thread, _out in runs:
            thread.join(WAITS)
            assert thread.is_alive()
        holder.commit()
    finally:
        holder.close()
    for thread, _out in runs:
        thread.join(30)
    assert sorted("value" in out for _thread, out in runs) == [False, True]
    assert FriendSeat.objects.filter(friend_table=table, user=bob).count() == 1


def test_a_seat_taken_while_the_host_starts_is_in_the_game(
        postgres: None, player: Any, bob: Any) -> None:
    table = _open(player, friends_at=(1, 2))
    with transaction.atomic():
        friends.take_seat(bob, _token(table, 2))
        thread, out = in_thread(lambda: friends.start_friend_table(player, table.pk))
        thread.join(WAITS)
        assert thread.is_alive(), "the start did not wait for the take"
    thread.join(30)
    game = out["value"]
    assert [(s.user, s.bot) for s in game.seats.order_by("seat")] == [
        (player, ""), (None, "greedy"), (bob, ""), (None, "greedy")]


def test_a_seat_taken_while_the_host_starts_after_it_is_told_the_game_started(
        postgres: None, player: Any, bob: Any) -> None:
    table = _open(player, friends_at=(2,))
    token = _token(table, 2)
    with transaction.atomic():
        game = friends.start_friend_table(player, table.pk)
        thread, out = in_thread(lambda: friends.take_seat(bob, token))
        thread.join(WAITS)
        assert thread.is_alive(), "the take did not wait for the start"
    thread.join(30)
    assert isinstance(out.get("error"), FriendTableError), out
    assert out["error"].table == game.pk
    assert [s.user for s in game.seats.order_by("seat")] == [player, None, None, None]


def test_a_seat_taken_while_the_waiting_tables_are_ended_keeps_the_table(
        postgres: None, player: Any, bob: Any) -> None:
    table = _open(player, friends_at=(2,))
    FriendTable.objects.update(active=timezone.now() - timedelta(hours=25))
    with transaction.atomic():
        friends.take_seat(bob, _token(table, 2))
        thread, out = in_thread(limits.end_abandoned_tables)
        thread.join(WAITS)
        assert thread.is_alive(), "ending the tables did not wait for the take"
    thread.join(30)
    assert out == {"value": 0}
    assert FriendTable.objects.get(pk=table.pk).status == "waiting"


# ---- the pages ----

def test_the_home_page_offers_play_with_friends(player: Any, client: Client) -> None:
    html = _logged_in(player).get(reverse("home")).content.decode()
    assert f'<a href="{reverse("live:friends_new")}">Play with friends</a>' in html
    assert reverse("live:friends_new") not in client.get(reverse("home")).content.decode()


def test_opening_a_table_from_its_form(player: Any, client: Client) -> None:
    host = _logged_in(player)
    form = host.get(reverse("live:friends_new"))
    assert form.status_code == 200
    audit = Audit()
    audit.feed(form.content.decode())
    assert audit.h1 == 1 and [c for c in audit.controls if c not in audit.labels] == []
    response = host.post(reverse("live:friends_new"), {
        "seat": "1", "partner": "bot", "left": "friend", "right": "friend", "bot": "search",
        "auto_start": "on"})
    table = FriendTable.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/friends/{table.pk}/"
    assert (table.bot, table.auto_start) == ("search", True)
    assert [s.kind for s in table.seats.order_by("seat")] == ["friend", "host", "friend", "bot"]
    all_bots = host.post(reverse("live:friends_new"), {
        "seat": "0", "partner": "bot", "left": "bot", "right": "bot", "bot": "greedy"})
    assert all_bots.status_code == 400
    assert "Keep at least one of the other seats for a friend" in all_bots.content.decode()
    assert FriendTable.objects.count() == 1
    login = client.get(reverse("live:friends_new"))
    assert login.status_code == 302 and login["Location"].startswith(reverse("login"))


def test_a_refused_opening_names_the_open_tables(player: Any, settings: Any) -> None:
    settings.LIVE_MAX_OPEN_PRACTICE_TABLES = 1
    waiting = _open(player)
    html = _logged_in(player).post(reverse("live:friends_new"), {
        "seat": "0", "partner": "friend", "left": "bot", "right": "bot",
        "bot": "greedy"}).content.decode()
    assert "The table could not be opened: You already have 1 practice table open" in html
    assert (f'<a href="/friends/{waiting.pk}/">Table for friends {waiting.pk}, waiting</a>'
            in html)
    play_now = _logged_in(player).post(reverse("live:play_now"), {"bot": "greedy"})
    assert play_now.status_code == 409
    assert f'href="/friends/{waiting.pk}/"' in play_now.content.decode()


def test_a_link_sends_a_visitor_to_log_in_and_back(player: Any, client: Client) -> None:
    table = _open(player)
    link = reverse("live:friends_join", args=[_token(table, 2)])
    response = client.get(link)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={link.replace(':', '%3A')}"
    assert client.post(link).status_code == 302
    assert table.seats.get(seat=2).user is None


def test_a_friend_takes_a_seat_from_the_link_and_the_host_starts(
        player: Any, bob: Any, carol: Any) -> None:
    table = _open(player, friends_at=(1, 2))
    host, friend = _logged_in(player), _logged_in(bob)
    link = reverse("live:friends_join", args=[_token(table, 2)])
    page = friend.get(link).content.decode()
    assert "alice invites you to play Push at their table: seat 2, as their partner." in page
    assert "Take seat 2" in page
    assert friend.post(link)["Location"] == f"/friends/{table.pk}/"
    assert friend.get(link)["Location"] == f"/friends/{table.pk}/"
    # the host's page: the seats and the free seat's link, not the taken one's
    mine = host.get(reverse("live:friends", args=[table.pk])).content.decode()
    assert re.search(r"Seat 2</strong>\s*\(partner\):\s*bob", mine)
    assert re.search(r"Seat 1</strong>\s*\(left opponent\):\s*waiting for a friend", mine)
    assert re.search(r"Seat 3</strong>\s*\(right opponent\):\s*bot \(greedy\)", mine)
    assert _token(table, 1) in mine and friends.seat_token(table, 2) not in mine
    assert "Start the game" in mine
    # bob's page: the seats, no link, no Start
    theirs = friend.get(reverse("live:friends", args=[table.pk])).content.decode()
    assert re.search(r"Seat 0</strong>\s*\(partner, opened the table\):\s*alice", theirs)
    assert "/friends/join/" not in theirs and "Start the game" not in theirs
    # someone else: no such table; carol's own link for the taken seat says it is taken
    assert _logged_in(carol).get(reverse("live:friends", args=[table.pk])).status_code == 404
    taken = _logged_in(carol).post(link)
    assert taken.status_code == 409 and "Someone has taken this seat already." in (
        taken.content.decode())
    assert friend.post(reverse("live:friends_start", args=[table.pk])).status_code == 403
    started = host.post(reverse("live:friends_start", args=[table.pk]))
    game = LiveTable.objects.get()
    assert started["Location"] == f"/tables/{game.pk}/"
    # now every page of the waiting table leads to the game
    assert friend.get(reverse("live:friends", args=[table.pk]))["Location"] == (
        f"/tables/{game.pk}/")
    late = _logged_in(carol).get(reverse("live:friends_join",
                                         args=[friends.seat_token(table, 1)]))
    assert "The game at this table has started; you can watch it." in late.content.decode()
    assert f'href="/tables/{game.pk}/">Watch the game' in late.content.decode()
    seats = friend.get(reverse("live:friends_seats", args=[table.pk])).content.decode()
    assert 'data-live="off"' in seats and f'data-started-url="/tables/{game.pk}/"' in seats
    for html in (seats, late.content.decode(), mine, theirs):  # nothing of the deal
        assert str(game.seed) not in html
    table_page = friend.get(reverse("live:table", args=[game.pk])).content.decode()
    assert "You play with friends; the seats marked bot are bots" in table_page


def test_the_waiting_pages_writes_need_csrf(player: Any, bob: Any) -> None:
    table = _open(player)
    for user, url, data in [
        (player, reverse("live:friends_new"), {"seat": "0", "partner": "friend", "left": "bot",
                                               "right": "bot", "bot": "greedy"}),
        (bob, reverse("live:friends_join", args=[_token(table, 2)]), {}),
        (player, reverse("live:friends_start", args=[table.pk]), {}),
    ]:
        assert _logged_in(user, enforce_csrf_checks=True).post(url, data).status_code == 403
    assert FriendTable.objects.count() == 1 and table.seats.get(seat=2).user is None
    assert not LiveTable.objects.exists()
    assert _logged_in(player).get(reverse("live:friends_start", args=[table.pk])
                                  ).status_code == 405


def test_the_live_part_answers_304_while_nothing_changed(player: Any, bob: Any) -> None:
    table = _open(player)
    host = _logged_in(player)
    url = reverse("live:friends_seats", args=[table.pk])
    first = host.get(url)
    assert first.status_code == 200 and 'data-live="on"' in first.content.decode()
    page = host.get(reverse("live:friends", args=[table.pk])).content.decode()
    assert f'data-live-etag="{first["ETag"].replace(chr(34), "&quot;")}"' in page
    assert host.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    friends.take_seat(bob, _token(table, 2))
    changed = host.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and "bob" in changed.content.decode()
    assert Client().get(url).status_code == 404
    assert _logged_in(_user("dave")).get(url).status_code == 404


def test_the_pages_speak_finnish(player: Any, bob: Any) -> None:
    table = _open(player)
    page = _logged_in(bob).get(reverse("live:friends_join", args=[_token(table, 2)]),
                               HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "invites you" not in page and "Take seat" not in page
    form = _logged_in(player).get(reverse("live:friends_new"),
                                  HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Play with friends" not in form


def test_the_last_friend_to_take_a_seat_goes_straight_to_the_game(
        player: Any, bob: Any) -> None:
    table = _open(player, friends_at=(2,), auto_start=True)
    response = _logged_in(bob).post(reverse("live:friends_join", args=[_token(table, 2)]))
    game = LiveTable.objects.get()
    assert response["Location"] == f"/tables/{game.pk}/"
    assert _logged_in(player).get(reverse("live:friends", args=[table.pk]))["Location"] == (
        f"/tables/{game.pk}/")
