"""Hints at a live table (games/live/hints.py): the strongest bot's move for the person's
own turn with its reason, only at practice and friends' tables, stored beside the action
log (the record stays push-record/1), and marked in the replay."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.bots.advice import TEMPLATES
from games.engine import load_record
from games.live import hints, quitting, service
from games.live.errors import TableError
from games.live.models import LiveHint, LiveTable
from games.live.state import replay
from games.vocabulary import contract_words

from .conftest import FIRST, SEED

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


def _hint(table_id: int, seat: int) -> dict[str, Any]:
    """A hint asked, thought out and stored, as the consumer does it."""
    asked = hints.ask(table_id, seat)
    if isinstance(asked, hints.Asked):
        return hints.store(asked, hints.think(asked))
    return asked


def test_a_hint_suggests_a_legal_move_of_the_seat_with_its_reason(table: LiveTable) -> None:
    view = service.update_since(table.pk, FIRST, 0).view
    found = _hint(table.pk, FIRST)
    assert found["move"] in view["moves"]  # one of the seat's own legal moves
    assert (found["seq"], found["hand"], found["index"], found["seat"]) == (0, 1, 0, FIRST)
    assert contract_words(1) in found["reason"]
    assert view["discard_top"] in found["reason"]  # the draw names the card it is about
    stored = LiveHint.objects.get()
    assert (stored.table_id, stored.seq, stored.hand, stored.index, stored.seat) == (
        table.pk, 1, 1, 0, FIRST)
    assert stored.action == found["move"]["text"]
    assert stored.reason["template"] in TEMPLATES


def test_asking_again_at_the_same_point_answers_the_same_hint(table: LiveTable) -> None:
    first = _hint(table.pk, FIRST)
    again = hints.ask(table.pk, FIRST)
    assert again == first and LiveHint.objects.count() == 1


def test_each_action_of_a_turn_has_its_own_hint(table: LiveTable) -> None:
    _hint(table.pk, FIRST)
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    second = _hint(table.pk, FIRST)
    assert (second["seq"], second["index"]) == (1, 1)
    assert second["move"]["do"] in ("discard", "contract")  # the play after a draw
    assert list(LiveHint.objects.values_list("seq", flat=True)) == [1, 2]


@pytest.mark.parametrize("kind", ["match", "robot-duplicate"])
def test_no_hint_at_a_tournament_or_duplicate_table(player: Any, kind: str) -> None:
    table = service.create_table([service.SeatPlan(user=player)]
                                 + [service.SeatPlan(bot="greedy")] * 3,
                                 reports_to=kind, result_ref="1", seed=SEED)
    with pytest.raises(hints.HintRefused, match="only at practice and friends' tables"):
        hints.ask(table.pk, 0)
    assert not LiveHint.objects.exists()


def test_no_hint_on_another_seats_turn_nor_once_the_game_is_over(table: LiveTable) -> None:
    other = (FIRST + 1) % 4
    with pytest.raises(TableError, match="It is not your turn") as refused:
        hints.ask(table.pk, other)
    assert refused.value.rule == "R6.1"
    quitting.resign(table.pk, FIRST)
    with pytest.raises(TableError, match="The game is over"):
        hints.ask(table.pk, FIRST)
    with pytest.raises(TableError, match="There is no table"):
        hints.ask(99999, FIRST)
    assert not LiveHint.objects.exists()


def test_a_hint_for_a_turn_that_passed_meanwhile_is_not_stored(table: LiveTable) -> None:
    asked = hints.ask(table.pk, FIRST)
    assert isinstance(asked, hints.Asked)
    advice = hints.think(asked)
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")  # while the bot thought
    with pytest.raises(TableError, match="The table moved on"):
        hints.store(asked, advice)
    assert not LiveHint.objects.exists()


def test_what_a_hint_suggested_is_shown_to_its_seat_alone_while_the_game_is_played(
        table: LiveTable) -> None:
    _hint(table.pk, FIRST)
    table.refresh_from_db()
    mine, = hints.replay_hints(table, FIRST)
    theirs, = hints.replay_hints(table, None)
    assert "move" in mine and "reason" in mine
    # a spectator, or another seat, sees that one was used, not what it said
    assert set(theirs) == {"seq", "hand", "index", "seat", "words"}
    assert hints.replay_hints(table, (FIRST + 2) % 4) == [theirs]


def test_the_record_marks_the_move_after_a_hint_and_the_replay_shows_it(
        table: LiveTable) -> None:
    found = _hint(table.pk, FIRST)
    played = service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    assert played == 1
    quitting.resign(table.pk, FIRST)
    table.refresh_from_db()
    hinted, = table.record["hands"][0]["actions"]
    assert hinted == {"seat": FIRST, "do": "take", "hint": True}
    load_record(table.record)  # still a valid push-record/1 record
    client = Client()  # anyone who may watch it: the game is over, every hand is public
    data = client.get(reverse("live:replay_data", args=[table.pk])).json()
    hint, = data["hints"]
    assert (hint["hand"], hint["index"], hint["seat"]) == (1, 0, FIRST)
    assert hint["move"] == found["move"] and hint["reason"] == found["reason"]
    assert data["hands"][0]["frames"][1]["n"] == hint["index"]  # the frame it marks
    page = client.get(reverse("live:replay", args=[table.pk])).content.decode()
    assert "A hint was asked for before this move" in page
    assert found["reason"].split(":")[0] in page


def test_a_replay_without_hints_has_none(table: LiveTable) -> None:
    quitting.resign(table.pk, FIRST)
    data = Client().get(reverse("live:replay_data", args=[table.pk])).json()
    assert data["hints"] == []
    page = Client().get(reverse("live:replay", args=[table.pk])).content.decode()
    assert "A hint was asked for" not in page


def test_a_hint_at_a_friends_table_is_its_own_seats(player: Any) -> None:
    bob = get_user_model().objects.create_user("bob", password="pw-bob-12345")
    first = replay(7, []).game.to_move
    plans = [service.SeatPlan(bot="greedy")] * 4
    plans[first] = service.SeatPlan(user=player)
    plans[(first + 2) % 4] = service.SeatPlan(user=bob)
    table = service.create_table(plans, seed=7)
    found = _hint(table.pk, first)
    assert found["seat"] == first
    with pytest.raises(TableError, match="It is not your turn"):
        hints.ask(table.pk, (first + 2) % 4)


def test_a_hint_no_action_followed_marks_nothing_and_breaks_no_replay(
        table: LiveTable) -> None:
    _hint(table.pk, FIRST)
    quitting.resign(table.pk, FIRST)  # before playing the move it was asked for
    client = Client()
    hint, = client.get(reverse("live:replay_data", args=[table.pk])).json()["hints"]
    assert (hint["hand"], hint["index"]) == (1, 0)
    page = client.get(reverse("live:replay", args=[table.pk]))
    assert page.status_code == 200
    assert "A hint was asked for" not in page.content.decode()
