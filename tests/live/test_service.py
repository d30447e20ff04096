"""The table service: acting, refusals, resends, bots through the same door, rebuild."""

import time
from typing import Any

import pytest
from django.utils import translation

from games.engine import (
    GameState,
    IllegalActionError,
    deal_from_seed,
    load_record,
    parse_action,
    verify,
)
from games.engine.ways import TOO_MANY_WAYS
from games.live import service
from games.live.kinds import finished_handler, on_finished
from games.live.models import LiveAction, LiveTable
from games.live.tasks import live_bot_move

from .conftest import FIRST, SEED

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


def _view(table: LiveTable, seat: int | None = FIRST) -> dict[str, Any]:
    return service.update_since(table.pk, seat, 0).view


def test_practice_table_seats_a_user_and_three_bots(player: Any) -> None:
    table = service.create_practice_table(player, "random")
    seats = list(table.seats.all())
    assert [s.user for s in seats].count(player) == 1 and seats[0].user == player
    assert [s.bot for s in seats] == ["", "random", "random", "random"]
    assert table.seed  # random, stored


def test_unknown_bot_level_is_refused(player: Any) -> None:
    with pytest.raises(service.TableError, match="choose from random, greedy, search"):
        service.create_practice_table(player, "genius")
    assert not LiveTable.objects.exists()


def test_act_appends_to_the_log_and_the_view_follows(table: LiveTable) -> None:
    before = _view(table)
    assert f"{FIRST} take" in before["legal"] and f"{FIRST} push" in before["legal"]
    assert service.table_act(table.pk, FIRST, f"{FIRST} take", "c1") == 1
    after = _view(table)
    assert len(after["hand"]) == len(before["hand"]) + 1
    assert before["discard_top"] in after["hand"]
    assert list(LiveAction.objects.values_list("seq", "action")) == [(1, f"{FIRST} take")]


@pytest.mark.parametrize(("seat", "text", "rule"), [
    (FIRST, f"{FIRST} discard 4C", "R6.2"),       # R6.2: a turn starts with a draw
    ((FIRST + 1) % 4, f"{(FIRST + 1) % 4} take", "R6.1"),  # out of turn
    (FIRST, f"{(FIRST + 1) % 4} take", "R6.1"),   # acting for another seat
    (FIRST, "take it all", ""),                   # malformed
])
def test_a_refused_action_names_the_rule_and_stores_nothing(
        table: LiveTable, seat: int, text: str, rule: str) -> None:
    with pytest.raises(service.TableError) as refused:
        service.table_act(table.pk, seat, text, "c1")
    assert refused.value.rule == rule
    table.refresh_from_db()
    assert table.seq == 0 and not LiveAction.objects.exists()


def test_a_resent_action_is_applied_once(table: LiveTable) -> None:
    assert service.table_act(table.pk, FIRST, f"{FIRST} take", "c1") == 1
    # the resend answers with the first outcome, though the action is no longer legal
    assert service.table_act(table.pk, FIRST, f"{FIRST} take", "c1") == 1
    assert LiveAction.objects.count() == 1


def test_bots_answer_until_the_human_is_to_move_again(table: LiveTable, act: Any) -> None:
    act(table.pk, FIRST, f"{FIRST} take", "c1")
    discard = next(a for a in _view(table)["legal"] if " discard " in a)
    act(table.pk, FIRST, discard, "c2")
    table.refresh_from_db()
    seats = set(table.actions.values_list("seat", flat=True))
    assert seats == {0, 1, 2, 3}
    assert _view(table)["to_move"] == FIRST


def test_a_stale_bot_task_does_nothing(table: LiveTable, act: Any) -> None:
    act(table.pk, FIRST, f"{FIRST} take", "c1")
    assert live_bot_move.delay(table.pk, 0).get() is None  # the human's turn, seq 0 gone
    assert LiveAction.objects.count() == 1


def test_the_state_is_rebuilt_from_the_database_alone(table: LiveTable) -> None:
    """A fresh service call (as after a restart) reads only the log: it gives the state
    the engine reaches playing the same actions."""
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    discard = next(a for a in _view(table)["legal"] if " discard " in a)
    service.table_act(table.pk, FIRST, discard, "c2")
    first_dealer, decks = deal_from_seed(SEED)
    game = GameState(first_dealer)
    game.deal(decks[0])
    for text in LiveAction.objects.values_list("action", flat=True):
        game.apply(parse_action(text))
    obs = game.observation(FIRST)
    view = _view(table)
    assert view["hand"] == [c.code for c in obs.hand]
    assert (view["seq"], view["to_move"], view["stock_size"]) == (2, game.to_move,
                                                                  obs.stock_size)


calls: list[tuple[int, str]] = []


def record_result(table: LiveTable) -> None:
    """A finished-table handler, as an app that seats its matches at live tables has."""
    calls.append((table.pk, table.result_ref))


on_finished("test-service", record_result)


def test_a_finished_game_stores_its_record_and_calls_the_hook(
        table: LiveTable, act: Any) -> None:
    LiveTable.objects.filter(pk=table.pk).update(
        reports_to="test-service", result_ref="match 7")
    n = 0
    while (view := _view(table))["status"] == LiveTable.Status.PLAYING:
        legal = view["legal"]
        # the scripted human goes for the quickest end: lay down, else discard
        action = next((a for a in legal if " discard " not in a), legal[0])
        act(table.pk, FIRST, action, f"h{n}")
        n += 1
    table.refresh_from_db()
    assert table.record is not None
    assert verify(load_record(table.record)).status == "complete"
    assert table.record["players"][FIRST] == "alice"
    assert calls == [(table.pk, "match 7")]


def test_an_engine_refusal_marked_for_translation_reaches_the_person_translated() -> None:
    with translation.override("fi"):
        refused = service._refused(IllegalActionError("R7.3", TOO_MANY_WAYS))
    assert refused.rule == "R7.3" and refused.message.startswith("näitä kortteja")


def test_a_table_of_a_kind_nobody_registered_is_a_bug_that_says_how_to_fix_it() -> None:
    with pytest.raises(LookupError, match="no handler for finished live tables of kind "
                                          "'nobody'; register one with"):
        finished_handler("nobody")
    with pytest.raises(AssertionError, match="two handlers"):
        on_finished("test-service", lambda table: None)


@pytest.mark.usefixtures("postgres")
def test_a_resend_waiting_for_the_lock_sees_the_first_one_committed(player: Any) -> None:
    """The resend check is asked once the lock is held, so an action committed while the
    resend waited for the lock answers it (the same number), never a second try at the
    action (which, no longer legal, would be refused)."""
    from django.db import connection, transaction

    from .conftest import in_thread

    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    with transaction.atomic():
        first = service.table_act(table.pk, FIRST, f"{FIRST} take", "same-id")
        resend, out = in_thread(
            lambda: service.table_act(table.pk, FIRST, f"{FIRST} take", "same-id"))
        with connection.cursor() as cursor:  # until the resend waits for the row's lock
            for _ in range(600):
                # a transaction sees one snapshot of the statistics unless it drops it
                cursor.execute("SELECT pg_stat_clear_snapshot()")
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                               "current_database() AND wait_event_type = 'Lock'")
                if cursor.fetchone()[0]:
                    break
                time.sleep(0.05)
            else:
                pytest.fail(f"the resend never waited for the lock: {out}")
    resend.join(timeout=60)
    assert out == {"value": first}
    assert LiveAction.objects.filter(table=table).count() == 1
