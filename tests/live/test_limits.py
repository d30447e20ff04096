"""Limits on practice tables (games/live/limits.py): at most LIVE_MAX_OPEN_PRACTICE_TABLES
unfinished at once per user, the next "Play now" refused with the open ones named; and a
table nobody acted at for LIVE_ABANDON_AFTER is ended, takes no more actions and keeps its
hands secret (no replay, no record).

The two races (two "Play now"s of one user; a person acting while the tables are ended)
are played out on PostgreSQL, with the other side holding its row lock in a connection of
its own; on SQLite they skip, saying so."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from config.worker_process import database_url
from games.live import limits, service
from games.live.models import LiveAction, LiveTable

from .conftest import FIRST, SEED, assert_record_refused, in_thread, quiet_for

# seconds: how long a thread waiting for a row lock is given to show it waits
WAITS = 0.5


def _table(user: Any) -> LiveTable:
    return service.create_practice_table(user, "greedy", seat=FIRST, seed=SEED)


def _idle(table: LiveTable, hours: float) -> None:
    quiet_for(table, hours * 3600)


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """The messages as written (a Finnish request earlier in this thread leaves Finnish)."""
    with translation.override("en"):
        yield


@pytest.fixture
def alice(player: Any) -> Client:
    client = Client()
    client.force_login(player)
    return client


# ---- how many a user may hold open ----

@pytest.mark.django_db
def test_the_fourth_table_is_refused_naming_the_open_ones(player: Any) -> None:
    tables = [_table(player).pk for _ in range(3)]
    with pytest.raises(service.TableError) as refused:
        _table(player)
    assert refused.value.message == (
        f"You already have 3 practice tables open (table {tables[0]}, table {tables[1]}, "
        f"table {tables[2]}); finish one before you start another. A table nobody plays at "
        "for 24 hours ends by itself.")
    assert list(LiveTable.objects.order_by("pk").values_list("pk", flat=True)) == tables
    assert limits.open_practice_tables(player) == tables


@pytest.mark.django_db
def test_a_finished_or_ended_table_frees_a_place(player: Any) -> None:
    first, second, _third = (_table(player) for _ in range(3))
    LiveTable.objects.filter(pk=first.pk).update(status=LiveTable.Status.FINISHED)
    _table(player)
    LiveTable.objects.filter(pk=second.pk).update(status=LiveTable.Status.ABANDONED)
    _table(player)
    with pytest.raises(service.TableError):
        _table(player)
    assert LiveTable.objects.count() == 5


@pytest.mark.django_db
def test_each_user_has_places_of_their_own_and_a_match_table_takes_none(
        player: Any, settings: Any) -> None:
    settings.LIVE_MAX_OPEN_PRACTICE_TABLES = 1
    match = _table(player)
    LiveTable.objects.filter(pk=match.pk).update(reports_to="a match")
    _table(player)  # the table with a hook is not a practice table
    bob = get_user_model().objects.create_user("bob", password="pw-bob-12345")
    _table(bob)
    with pytest.raises(service.TableError, match=r"^You already have 1 practice table open"):
        _table(player)
    settings.LIVE_MAX_OPEN_PRACTICE_TABLES = None  # 0 in the environment: no limit
    _table(player)


@pytest.mark.django_db(transaction=True)
def test_the_check_must_run_in_the_creating_transaction(player: Any) -> None:
    """Outside a transaction the user's row lock would end at once, and two "Play now"s
    could both count the same tables: refused, on SQLite as on PostgreSQL."""
    with pytest.raises(transaction.TransactionManagementError, match="inside the transaction"):
        limits.check_open_tables(player)


@pytest.mark.django_db
def test_the_fourth_play_now_shows_the_open_tables(alice: Client, player: Any) -> None:
    tables = [_table(player).pk for _ in range(3)]
    response = alice.post(reverse("live:play_now"), {"bot": "random"})
    assert response.status_code == 409
    html = response.content.decode()
    assert "The game could not be started:" in html
    assert "You already have 3 practice tables open" in html
    for pk in tables:
        assert f'<a href="/tables/{pk}/">Table {pk}</a>' in html
    assert LiveTable.objects.count() == 3
    finnish = alice.post(reverse("live:play_now"), {"bot": "random"},
                         HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "You already have" not in finnish and "harjoituspöytää" in finnish
    assert LiveTable.objects.count() == 3


def test_two_play_nows_at_once_count_one_after_the_other(postgres: None, player: Any) -> None:
    """The third table's transaction holds the user's row when a fourth "Play now" comes:
    the fourth waits for it, then counts three and is refused."""
    _table(player), _table(player)
    with transaction.atomic():
        third = _table(player)  # its check locked the user's row until this commits
        thread, out = in_thread(lambda: _table(player))
        thread.join(WAITS)
        assert thread.is_alive(), "the second Play now did not wait for the first"
    thread.join(30)
    assert not thread.is_alive()
    assert isinstance(out.get("error"), service.TableError), out
    assert f"table {third.pk}" in out["error"].message
    assert LiveTable.objects.count() == 3


# ---- ending the tables nobody plays at ----

@pytest.mark.django_db
def test_a_table_idle_for_a_day_is_ended_and_an_hour_is_not(player: Any) -> None:
    service.table_act(idle := _table(player).pk, FIRST, f"{FIRST} take", "c1")
    recent = _table(player)
    LiveTable.objects.filter(pk=recent.pk).update(deadline=timezone.now())
    untouched = _table(player)  # no action at all: its own time counts
    _idle(LiveTable.objects.get(pk=idle), 25)
    _idle(recent, 1)
    _idle(untouched, 25)
    assert limits.end_abandoned_tables() == 2
    statuses = dict(LiveTable.objects.values_list("pk", "status"))
    assert statuses == {idle: "abandoned", recent.pk: "playing", untouched.pk: "abandoned"}
    assert LiveTable.objects.get(pk=idle).deadline is None
    assert LiveTable.objects.get(pk=recent.pk).deadline is not None
    assert limits.end_abandoned_tables() == 0  # once
    # a day from the table's creation, but acted at an hour ago: still played
    _idle(recent, 25)
    LiveAction.objects.create(table=recent, seq=1, seat=FIRST, action=f"{FIRST} take",
                              client_id="late")
    assert limits.end_abandoned_tables(now=timezone.now()) == 0
    assert limits.end_abandoned_tables(now=timezone.now() + timedelta(hours=25)) == 1


@pytest.mark.django_db
def test_only_practice_tables_in_play_are_ended(player: Any, settings: Any) -> None:
    settings.LIVE_ABANDON_AFTER = timedelta(hours=2)
    match, finished, practice = _table(player), _table(player), _table(player)
    LiveTable.objects.filter(pk=match.pk).update(reports_to="a match")
    LiveTable.objects.filter(pk=finished.pk).update(status=LiveTable.Status.FINISHED)
    for table in (match, finished, practice):
        _idle(table, 3)
    assert limits.end_abandoned_tables() == 1
    assert list(LiveTable.objects.order_by("pk").values_list("status", flat=True)) == [
        "playing", "finished", "abandoned"]


def test_a_person_acting_while_the_tables_are_ended_keeps_the_table(
        postgres: None, player: Any) -> None:
    """The person's action holds the table's row (in a connection of its own) when the
    tables are ended: the UPDATE waits, sees the table's number moved on, and leaves it."""
    table = _table(player)
    _idle(table, 25)
    person = psycopg.connect(database_url(connection.settings_dict))
    try:
        row = person.execute(f"SELECT seq FROM {LiveTable._meta.db_table} WHERE id = %s "
                             "FOR UPDATE", [table.pk]).fetchone()
        assert row == (0,)
        thread, out = in_thread(limits.end_abandoned_tables)
        thread.join(WAITS)
        assert thread.is_alive(), "ending the tables did not wait for the person's action"
        person.execute(f"INSERT INTO {LiveAction._meta.db_table} (table_id, seq, seat, action, "
                       "client_id, created) VALUES (%s, 1, %s, %s, 'c1', now())",
                       [table.pk, FIRST, f"{FIRST} take"])
        person.execute(f"UPDATE {LiveTable._meta.db_table} SET seq = 1 WHERE id = %s",
                       [table.pk])
        person.commit()
    finally:
        person.close()
    thread.join(30)
    assert out == {"value": 0}
    assert LiveTable.objects.get(pk=table.pk).status == "playing"


# ---- an ended table ----

@pytest.fixture
def ended(player: Any) -> Iterator[LiveTable]:
    table = _table(player)
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    _idle(table, 25)
    assert limits.end_abandoned_tables() == 1
    yield LiveTable.objects.get(pk=table.pk)


@pytest.mark.django_db
def test_an_ended_table_takes_no_more_actions(ended: LiveTable) -> None:
    """The service's own check (``limits.check_not_abandoned`` in table_act and
    table_ways; the bots' and the stand-in's steps act only on a table in play)."""
    view = service.update_since(ended.pk, FIRST, 0).view
    assert view["status"] == "abandoned" and view["deadline"] is None
    with pytest.raises(service.TableError) as refused:
        service.table_act(ended.pk, FIRST, view["legal"][0], "c2")
    assert refused.value.message == ("This table was ended after 24 hours without play; it "
                                     "takes no more moves. Start a new game with Play now.")
    with pytest.raises(service.TableError, match="ended after 24 hours"):
        service.table_ways(ended.pk, FIRST, [], None)
    assert service.bot_move(ended.pk, ended.seq) is None
    assert LiveTable.objects.get(pk=ended.pk).seq == 1


@pytest.mark.django_db
def test_an_ended_table_says_so_and_keeps_its_hands_secret(
        alice: Client, client: Client, ended: LiveTable) -> None:
    page = alice.get(reverse("live:table", args=[ended.pk])).content.decode()
    assert "This table was ended after 24 hours without play" in page
    assert "data-abandoned aria-labelledby" in page and "Play again" in page
    watched = client.get(reverse("live:table", args=[ended.pk])).content.decode()
    assert "This table was ended" in watched and "Play again" not in watched
    assert_record_refused(alice, ended, "ended after 24 hours without play")
    playing = _table(ended.seats.get(seat=FIRST).user)
    in_play = alice.get(reverse("live:replay", args=[playing.pk])).content.decode()
    assert "still being played" in in_play and "was ended" not in in_play
