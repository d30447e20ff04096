"""The hand so far and the hands before (games/live/hands.py, updates.py): a full update
carries the hand in play's log and the last hand's summary, an ordinary one neither; a
hand's end shows every seat's cards left with their penalty points (R9.1, R2.4), once it
has ended; earlier hands' logs on demand."""

from typing import Any

import pytest

from games.engine import Card, GameState, deal_from_seed, parse_action, penalty
from games.live import service, updates
from games.live.models import LiveTable

from .conftest import SEED

pytestmark = pytest.mark.django_db

VIEWERS = (0, 1, 2, 3, None)
FULL = {"log", "last_hand", "hand_pause"}


def _bots_table() -> LiveTable:
    """Four bots (no commit in these tests: each bot's move is called here, in turn)."""
    return service.create_table([service.SeatPlan(bot="greedy")] * 4, seed=SEED,
                                move_seconds=None)


def _play(table: LiveTable, until: Any) -> int:
    """The bots move until ``until(view)`` holds (a spectator's view); the table's number."""
    while not until(view := service.update_since(table.pk, None, 0).view):
        assert service.bot_move(table.pk, view["seq"]) is not None
    seq: int = view["seq"]
    return seq


def _truth(seq: int) -> tuple[int, list[list[str]]]:
    """The number of hand 1's last action and the cards left in each hand then, replayed
    with the engine alone."""
    actions = list(LiveTable.objects.get().actions.order_by("seq")
                   .values_list("action", flat=True))[:seq]
    first_dealer, decks = deal_from_seed(SEED)
    game = GameState(first_dealer)
    game.deal(decks[0])
    for number, text in enumerate(actions, 1):
        game.apply(parse_action(text))
        if game.to_move is None:
            return number, [[c.code for c in cards] for cards in game.hand.hands]
    raise AssertionError("hand 1 did not end")


@pytest.fixture
def second_hand() -> LiveTable:
    """A table three actions into hand 2."""
    table = _bots_table()
    _play(table, lambda view: view["hand_no"] == 2)
    start = LiveTable.objects.get(pk=table.pk).seq
    _play(table, lambda view: view["seq"] == start + 3)
    return table


def test_a_hands_end_shows_every_seats_cards_left_and_their_penalty_points(
        second_hand: LiveTable) -> None:
    end, hands = _truth(LiveTable.objects.get(pk=second_hand.pk).seq)
    for seat in VIEWERS:
        events = service.update_since(second_hand.pk, seat, 0).events
        ending = [event for event in events if "hand_result" in event]
        assert [event["seq"] for event in ending] == [end]  # only on the hand's last action
        result = ending[0]["hand_result"]
        assert set(result) == {"ended_by", "out_seat", "scores", "hands", "penalties"}
        assert result["hands"] == hands
        points = [penalty(Card.parse(code) for code in cards) for cards in hands]
        assert result["penalties"] == points
        # R9.1: the team that went out scores 0, the other its two partners' points
        out_team = None if result["out_seat"] is None else result["out_seat"] % 2
        assert result["scores"] == [0 if team == out_team else points[team] + points[team + 2]
                                    for team in (0, 1)]
        # before the hand ended, no update showed those cards: the events up to it
        assert all("hand_result" not in e for e in events if e["seq"] < end)


def test_a_new_connection_gets_the_hand_in_play_and_the_last_hands_summary(
        second_hand: LiveTable, settings: Any) -> None:
    settings.LIVE_HAND_PAUSE_SECONDS = 4
    seq = LiveTable.objects.get(pk=second_hand.pk).seq
    found = updates.updates_since(second_hand.pk, [(seat, None) for seat in VIEWERS])
    for seat in VIEWERS:
        update = found[seat, None]
        assert isinstance(update, updates.Update)
        view = update.view
        every = service.update_since(second_hand.pk, seat, 0).events
        # every event of the hand in play as this viewer saw it, each marked a bot's
        assert view["log"] == [event for event in every if event["hand_no"] == 2]
        assert [event["seq"] for event in view["log"]] == [seq - 2, seq - 1, seq]
        assert all(event["bot"] is True for event in view["log"])
        [ending] = [event for event in every if "hand_result" in event]
        assert view["last_hand"] == {"hand_no": 1, **ending["hand_result"]}
        assert view["hand_pause"] == 4
        if seat is None:  # a spectator sees what the actor saw: never a pushed stock card
            assert all("private" not in event for event in view["log"])


def test_an_ordinary_update_carries_no_log_and_one_beyond_the_hand_does(
        second_hand: LiveTable) -> None:
    seq = LiveTable.objects.get(pk=second_hand.pk).seq
    for seat in VIEWERS:
        ordinary = service.update_since(second_hand.pk, seat, seq - 1)
        assert not FULL & set(ordinary.view) and len(ordinary.events) == 1
        # a resume from before the hand's end reaches beyond the hand in play: full
        beyond = service.update_since(second_hand.pk, seat, seq - 4)
        assert set(beyond.view) >= FULL and len(beyond.events) == 4
        assert [event["seq"] for event in beyond.view["log"]] == [seq - 2, seq - 1, seq]
        assert beyond.view["last_hand"]["hand_no"] == 1


def test_before_any_hand_ends_the_log_is_the_hand_so_far_and_there_is_no_last_hand() -> None:
    table = _bots_table()
    view = updates.updates_since(table.pk, [(0, None)])[0, None].view  # type: ignore[union-attr]
    assert view["log"] == [] and view["last_hand"] is None
    _play(table, lambda view: view["seq"] == 2)
    view = updates.updates_since(table.pk, [(1, None)])[1, None].view  # type: ignore[union-attr]
    assert [event["seq"] for event in view["log"]] == [1, 2] and view["last_hand"] is None


def test_an_earlier_hand_is_given_on_demand_as_the_viewer_saw_it(second_hand: LiveTable) -> None:
    for seat in VIEWERS:
        every = service.update_since(second_hand.pk, seat, 0).events
        events, result = service.hand_log(second_hand.pk, seat, 1)
        assert events == [event for event in every if event["hand_no"] == 1]
        assert result == {"hand_no": 1, **events[-1]["hand_result"]}
        events, result = service.hand_log(second_hand.pk, seat, 2)  # in play: no result yet
        assert events == [event for event in every if event["hand_no"] == 2]
        assert result is None
        with pytest.raises(service.TableError, match="Hand 3 has not been dealt yet"):
            service.hand_log(second_hand.pk, seat, 3)


def test_a_finished_games_log_is_its_last_hand_to_the_end() -> None:
    table = _bots_table()
    _play(table, lambda view: view["status"] != LiveTable.Status.PLAYING)
    view = updates.updates_since(table.pk, [(2, None)])[2, None].view  # type: ignore[union-attr]
    assert view["is_over"] and {event["hand_no"] for event in view["log"]} == {5}
    assert "hand_result" in view["log"][-1]
    assert view["last_hand"] == {"hand_no": 5, **view["log"][-1]["hand_result"]}
    assert view["last_hand"]["scores"] == view["scores"][-1]
