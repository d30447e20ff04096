"""A rematch at a practice or friends' table whose game is over (games/live/rematch.py): a
new table, the same people in the same seats and bots of the same level, on a new deal; at
a practice table it starts at once, at a friends' table the others accept it on their
last game's page, and it starts once they all have."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.live import limits, quitting, rematch, service
from games.live.errors import TableError
from games.live.models import FriendTable, LiveTable

from .conftest import FIRST, SEED

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob(db: None) -> Any:
    return get_user_model().objects.create_user("bob", password="pw-bob-12345")


def _seated(table: LiveTable) -> list[tuple[int, Any, str]]:
    return list(table.seats.order_by("seat").values_list("seat", "user_id", "bot"))


def _view(table: LiveTable, seat: int | None) -> dict[str, Any]:
    return service.update_since(table.pk, seat, 0).view


def test_a_practice_rematch_opens_at_once_on_a_new_deal(player: Any) -> None:
    old = service.create_practice_table(player, "random", seat=FIRST, seed=SEED)
    with pytest.raises(TableError, match="once the game is over"):
        rematch.rematch(old.pk, FIRST)
    assert not FriendTable.objects.exists()
    quitting.resign(old.pk, FIRST)
    found = rematch.rematch(old.pk, FIRST)
    assert found.table is not None
    new = LiveTable.objects.get(pk=found.table)
    assert _seated(new) == _seated(old) and new.seed != old.seed
    assert new.status == LiveTable.Status.PLAYING and new.awaiting
    # asked again (a second click, another tab), the same table
    assert rematch.rematch(old.pk, FIRST) == found
    assert LiveTable.objects.count() == 2
    assert _view(old, FIRST)["rematch"]["table"] == new.pk


def test_at_a_friends_table_the_others_accept_and_then_it_starts(player: Any, bob: Any) -> None:
    old = service.create_table([service.SeatPlan(user=player), service.SeatPlan(bot="greedy"),
                                service.SeatPlan(user=bob), service.SeatPlan(bot="greedy")])
    quitting.resign(old.pk, 2)
    offered = rematch.rematch(old.pk, 0)
    assert offered.table is None
    # bob's page shows the offer: alice's, his seat waiting
    shown = _view(old, 2)["rematch"]
    assert (shown["by"], shown["waiting"], shown["table"]) == (0, [2], None)
    assert limits.waiting_friend_tables(player) == [offered.friend_table]
    assert rematch.rematch(old.pk, 0) == offered  # alice again: nothing new
    accepted = rematch.rematch(old.pk, 2)
    assert accepted.friend_table == offered.friend_table and accepted.table is not None
    new = LiveTable.objects.get(pk=accepted.table)
    assert _seated(new) == _seated(old)
    assert _view(old, 0)["rematch"]["waiting"] == []


def test_one_at_the_open_tables_limit_cannot_accept_and_nothing_is_stored(
        player: Any, bob: Any, settings: Any) -> None:
    settings.LIVE_MAX_OPEN_PRACTICE_TABLES = 1
    old = service.create_table([service.SeatPlan(user=player), service.SeatPlan(bot="greedy"),
                                service.SeatPlan(user=bob), service.SeatPlan(bot="greedy")])
    quitting.resign(old.pk, 0)
    rematch.rematch(old.pk, 0)
    service.create_practice_table(bob, "random")
    with pytest.raises(TableError, match="finish it before you start another"):
        rematch.rematch(old.pk, 2)
    assert _view(old, 2)["rematch"]["waiting"] == [2]


def test_no_rematch_at_a_tournament_table_nor_for_one_not_seated(
        player: Any, bob: Any) -> None:
    tournament = service.create_table([service.SeatPlan(user=player)]
                                      + [service.SeatPlan(bot="greedy")] * 3,
                                      reports_to="match", result_ref="1")
    LiveTable.objects.filter(pk=tournament.pk).update(status=LiveTable.Status.FINISHED)
    with pytest.raises(TableError, match="has no rematch"):
        rematch.rematch(tournament.pk, 0)
    old = service.create_table([service.SeatPlan(user=player), service.SeatPlan(bot="greedy"),
                                service.SeatPlan(user=bob), service.SeatPlan(bot="greedy")])
    quitting.leave(old.pk, 2)
    quitting.resign(old.pk, 0)
    for seat in (1, 2, 9):  # a bot's seat, one its person left, none
        with pytest.raises(TableError, match="You do not hold a seat"):
            rematch.rematch(old.pk, seat)
    # bob left: a bot takes his seat in the rematch, which so starts at once
    found = rematch.rematch(old.pk, 0)
    assert found.table is not None
    assert [bot for _seat, _user, bot in _seated(LiveTable.objects.get(pk=found.table))] == [
        "", "greedy", "greedy", "greedy"]
    assert not FriendTable.objects.filter(pk=found.friend_table, rematch_of=tournament).exists()
