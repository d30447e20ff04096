"""A person's ways out of a practice or friends' table (games/live/quitting.py): resigning
ends the game at once, with a record that says who resigned; leaving gives the seat to a
bot for the rest of the game and frees the person's open-table slot; neither is open at a
tournament's table, to someone holding no seat, or once the game is over."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.engine import load_record
from games.live import limits, listing, quitting, rows, service
from games.live.errors import TableError
from games.live.models import LiveSeat, LiveTable

from .conftest import FIRST, SEED

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


def _view(table: LiveTable, seat: int | None = FIRST) -> dict[str, Any]:
    return service.update_since(table.pk, seat, 0).view


def test_resigning_ends_the_game_at_once_with_a_record_that_says_who(
        table: LiveTable, player: Any) -> None:
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    quitting.resign(table.pk, FIRST)
    table.refresh_from_db()
    assert (table.status, table.resigned_seat, table.deadline) == (
        LiveTable.Status.RESIGNED, FIRST, None)
    assert table.record["end"] == {"by": "resigned", "seat": FIRST}
    record = load_record(table.record)  # the game so far, as a record reads it
    assert [str(a) for a in record.hands[0].actions] == [f"{FIRST} take"]
    view = _view(table, None)
    assert (view["status"], view["resigned"], view["turn_left"]) == ("resigned", FIRST, None)
    # no more moves, no bot's, and its replay and record open as a finished game's do
    with pytest.raises(TableError, match="The game is over"):
        service.table_act(table.pk, FIRST, f"{FIRST} discard {view['discard_top']}", "c2")
    assert service.bot_move(table.pk, table.seq) is None
    client = Client()
    assert client.get(reverse("live:replay", args=[table.pk])).status_code == 200
    assert client.get(reverse("live:record", args=[table.pk])).json()["end"]["seat"] == FIRST


def test_a_resigned_table_frees_its_place_for_play_now(player: Any, settings: Any) -> None:
    settings.LIVE_MAX_OPEN_PRACTICE_TABLES = 2
    tables = [service.create_practice_table(player, "random") for _ in range(2)]
    with pytest.raises(TableError, match="finish one before you start another"):
        service.create_practice_table(player, "random")
    quitting.resign(tables[0].pk, 0)
    assert limits.open_practice_tables(player) == [tables[1].pk]
    service.create_practice_table(player, "random")


def test_leaving_gives_the_seat_to_a_bot_for_the_rest_of_the_game(
        table: LiveTable, player: Any) -> None:
    quitting.leave(table.pk, FIRST)
    table.refresh_from_db()
    assert table.status == LiveTable.Status.PLAYING and table.deadline is None
    assert not table.awaiting  # nobody is left to begin it: its bots play it out
    locked = rows.lock_table(table.pk)
    assert locked is not None and locked.levels[FIRST] == service.STAND_IN
    assert LiveSeat.objects.get(table=table, seat=FIRST).left is not None
    # it was her turn: her bot takes it
    assert service.bot_move(table.pk, table.seq) == 1
    # the table is hers no more: not counted, not listed, watched as a spectator
    assert limits.open_practice_tables(player) == []
    assert listing.tables_now(player).mine == []
    assert service.seat_of(table.pk, player) is None
    with pytest.raises(TableError, match="You do not hold a seat"):
        quitting.leave(table.pk, FIRST)


@pytest.mark.parametrize("way", [quitting.resign, quitting.leave])
def test_neither_is_open_at_a_tournament_table(player: Any, way: Any) -> None:
    table = service.create_table([service.SeatPlan(user=player)]
                                 + [service.SeatPlan(bot="greedy")] * 3,
                                 reports_to="match", result_ref="1")
    before = LiveTable.objects.values().get(pk=table.pk)
    with pytest.raises(TableError, match="A tournament's game is played to its end"):
        way(table.pk, 0)
    assert LiveTable.objects.values().get(pk=table.pk) == before


@pytest.mark.parametrize("way", [quitting.resign, quitting.leave])
def test_neither_is_open_to_a_bot_seat_nor_once_the_game_is_over(
        table: LiveTable, way: Any) -> None:
    bot_seat = (FIRST + 1) % 4
    with pytest.raises(TableError, match="You do not hold a seat"):
        way(table.pk, bot_seat)
    with pytest.raises(TableError, match="You do not hold a seat"):
        way(table.pk, 7)
    with pytest.raises(TableError, match="There is no table"):
        way(99999, FIRST)
    quitting.resign(table.pk, FIRST)
    with pytest.raises(TableError, match="it was resigned"):
        way(table.pk, FIRST)


def test_at_a_friends_table_one_leaving_leaves_the_others_playing(player: Any) -> None:
    bob = get_user_model().objects.create_user("bob", password="pw-bob-12345")
    table = service.create_table([service.SeatPlan(user=player), service.SeatPlan(bot="greedy"),
                                  service.SeatPlan(user=bob), service.SeatPlan(bot="greedy")],
                                 awaiting=True)
    quitting.leave(table.pk, 2)
    table.refresh_from_db()
    assert table.awaiting  # alice is still to come: the bots wait for her
    assert limits.open_practice_tables(bob) == [] and limits.open_practice_tables(player) == [
        table.pk]
