"""What a live table is called: its kind's describer names its people, teams and event
(``kinds.on_describe``); a table of a kind nobody describes keeps its own words, its users'
names and its bots by place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from games.live import service
from games.live.kinds import Described, EventPart, on_describe
from games.live.models import LiveTable
from games.live.naming import table_names
from games.live.service import SeatPlan

from .conftest import SEED

pytestmark = pytest.mark.django_db

KIND = "test-naming"


def _called(tables: Sequence[LiveTable]) -> dict[int, Described]:
    return {table.pk: Described(people=("Aino", "Bo", "", ""), teams=("Aces", "Kings"),
                                event=(EventPart("Spring cup", "/cup/"),
                                       EventPart("boards 1 to 5")))
            for table in tables}


on_describe(KIND, _called)


def _table(player: Any, kind: str) -> LiveTable:
    return service.create_table(
        [SeatPlan(user=player), SeatPlan(bot="greedy"), SeatPlan(bot="random"),
         SeatPlan(bot="greedy")], seed=SEED, reports_to=kind, result_ref="1")


def test_a_kinds_describer_names_the_seats_teams_and_event(player: Any) -> None:
    table = _table(player, KIND)
    names = table_names(table, list(table.seats.select_related("user")))
    assert [(s.name, s.person, s.bot) for s in names.seats] == [
        ("Aino", True, ""), ("Bo", False, "greedy"), ("", False, "random"),
        ("", False, "greedy")]
    assert [s.mark for s in names.seats] == ["", "bot for Bo", "bot", "bot"]
    assert [s.plain for s in names.seats] == ["Aino", "Bo", "bot (random)", "bot (greedy)"]
    assert names.teams == ("Aces", "Kings")
    assert names.event_words == "Spring cup, boards 1 to 5"


def test_a_table_nobody_describes_is_named_by_its_users(player: Any) -> None:
    table = _table(player, "")
    names = table_names(table, list(table.seats.select_related("user")))
    assert [s.name for s in names.seats] == ["alice", "", "", ""]
    assert (names.teams, names.event, names.event_words) == ((), (), "")


def test_a_kind_has_one_describer() -> None:
    on_describe(KIND, _called)  # the same one again: as a reloaded app registers it
    with pytest.raises(AssertionError, match="two describers"):
        on_describe(KIND, lambda tables: {})
