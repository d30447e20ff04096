"""Action ids: a client's ids and the server's own never meet. The server names the bots'
and the stand-in's actions ``!bot-<seq>`` and ``!stand-in-<seq>``, an id no client may
send, so a player cannot plant an id the timer would find and take for its own move; and
the timer's loop stops when a step leaves the table where it was.

Time passing is the deadline moved into the past in the database: no test sleeps."""

import logging
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.live import ids, service
from games.live.models import LiveAction, LiveTable

from .conftest import FIRST, SEED, run_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(player: Any, settings: Any) -> LiveTable:
    settings.LIVE_MOVE_SECONDS = 120
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    service.begin(table.pk)  # the person opened it: its clock runs
    return table


def _seq(table: LiveTable) -> int:
    return LiveTable.objects.get(pk=table.pk).seq


RESERVED = [ids.server_id(kind, seq) for kind in ("bot", "stand-in") for seq in range(4)]
MALFORMED = ["", " ", "c 1", "-c1", "_c1", ".c1", "c1\x00", "c\ud800", "ä1", "c1\n", "c/1",
             "x" * (ids.MAX_CLIENT_ID + 1)]


@pytest.mark.parametrize("client_id", RESERVED + MALFORMED)
def test_a_reserved_or_malformed_id_is_refused_and_nothing_is_stored(
        table: LiveTable, client_id: str) -> None:
    with pytest.raises(service.TableError, match="letters, digits"):
        service.table_act(table.pk, FIRST, f"{FIRST} take", client_id)
    assert _seq(table) == 0 and not LiveAction.objects.filter(table=table).exists()


@given(st.text(max_size=80))
def test_an_id_is_taken_exactly_when_it_is_a_client_id(client_id: str) -> None:
    accepted = ids.client_id_problem(client_id) is None
    assert accepted == (
        0 < len(client_id) <= ids.MAX_CLIENT_ID and client_id.isascii()
        and client_id[0].isalnum() and all(c.isalnum() or c in "_.:-" for c in client_id))


def test_the_longest_client_id_is_taken(table: LiveTable) -> None:
    longest = "c" * ids.MAX_CLIENT_ID
    assert service.table_act(table.pk, FIRST, f"{FIRST} take", longest) == 1
    assert service.table_act(table.pk, FIRST, f"{FIRST} take", longest) == 1  # a resend


@pytest.mark.parametrize("planted", ["stand-in-{next}", "bot-{seq}", "stand-in-{seq}"])
def test_an_id_like_the_servers_old_ones_cannot_make_the_timer_spin(
        table: LiveTable, planted: str) -> None:
    """The attack: the person draws with the id the timer used to give its next action,
    then waits. The stand-in finishes the turn in a few actions and stops."""
    planted_id = planted.format(seq=0, next=1)
    assert service.table_act(table.pk, FIRST, f"{FIRST} take", planted_id) == 1
    run_out(table)
    made = service.turn_timeout(table.pk)
    assert 1 <= made <= 20  # a turn: melds and lay-offs at most, then the discard
    logged = list(LiveAction.objects.filter(table=table).order_by("seq")
                  .values_list("seq", "client_id"))
    assert logged[0] == (1, planted_id)
    assert [client_id for _, client_id in logged[1:]] == [
        ids.server_id("stand-in", seq) for seq, _ in logged[:-1]]
    assert LiveTable.objects.get(pk=table.pk).deadline is None  # a bot's turn now
    assert service.turn_timeout(table.pk) == 0


def test_a_timer_that_meets_a_stale_answer_stops(table: LiveTable, monkeypatch: Any,
                                                 caplog: Any) -> None:
    """Should a step ever answer with a number the table was at already, the timer stops
    and says so rather than act again on the same state."""
    run_out(table)
    steps: list[int] = []
    real_step = service._stand_in_step

    def step_then_stale(table_id: int, deadline: Any) -> tuple[int | None, Any]:
        steps.append(1)
        if len(steps) == 1:
            return real_step(table_id, deadline)
        return 1, deadline  # the first step's number again: no progress

    monkeypatch.setattr(service, "_stand_in_step", step_then_stale)
    with caplog.at_level(logging.WARNING, logger="games.live.service"):
        assert service.turn_timeout(table.pk) == 1
    assert len(steps) == 2 and _seq(table) == 1
    assert "did not move on" in caplog.text
