"""The ``ways`` message of a live table: the seat's legal actions for the cards it chose,
from its own observation; refusals name what is wrong; spectators get none."""

from typing import Any

import pytest
from asgiref.sync import async_to_sync

from games.engine import parse_action
from games.live import service
from games.live.models import LiveAction, LiveTable
from games.live.state import move_of, replay

from .sockets import TIMEOUT, joined, update_at

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("layer", "eager_tasks")]

# A deal whose first player, after taking the upcard, holds 8S 8H 2S KC 2C JK 7S:
# two sets of 3 (hand 1's contract, R7.1) with its three wilds shared out.
SEED = 20261202
SEAT = replay(SEED, []).game.to_move
CONTRACTS = [
    f"{SEAT} contract set(8S 8H 2S=8) set(KC 2C=K JK=K)",
    f"{SEAT} contract set(8S 8H 2C=8) set(KC 2S=K JK=K)",
    f"{SEAT} contract set(8S 8H JK=8) set(KC 2S=K 2C=K)",
]


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=SEAT, seed=SEED)


def test_the_seat_gets_every_way_to_lay_its_chosen_cards(table: LiveTable, cookie: str) -> None:
    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        await comm.send_json_to({"type": "act", "action": f"{SEAT} take", "id": "c1"})
        await update_at(comm, 1, [])
        await comm.send_json_to({"type": "ways", "id": "w1", "meld": None,
                                 "cards": ["8S", "8H", "2S", "KC", "2C", "JK"]})
        ways = await comm.receive_json_from(timeout=TIMEOUT)
        assert ways == {"type": "ways", "id": "w1", "actions": CONTRACTS,
                        "moves": [move_of(parse_action(a)) for a in CONTRACTS]}
        # the structured form spelled out: what the page reads instead of the text
        assert ways["moves"][0] == {
            "do": "contract", "seat": SEAT, "text": CONTRACTS[0], "melds": [
                {"kind": "set", "cards": ["8S", "8H", "2S=8"]},
                {"kind": "set", "cards": ["KC", "2C=K", "JK=K"]}]}
        # a way is an action the table accepts as it is
        await comm.send_json_to({"type": "act", "action": CONTRACTS[2], "id": "c2"})
        assert (await comm.receive_json_from(timeout=TIMEOUT))["ack"]["id"] == "c2"
        await comm.disconnect()

    async_to_sync(run)()
    assert LiveAction.objects.get(seq=2).action == CONTRACTS[2]


@pytest.mark.parametrize(("message", "rule", "says"), [
    ({"cards": ["8S", "8H", "2S"], "meld": None}, "R6.2", "after the draw"),
    ({"cards": "8S 8H 2S", "meld": None}, "", "\"cards\""),
    ({"cards": ["8S", 8], "meld": None}, "", "\"cards\""),
    ({"cards": ["8S"], "meld": True}, "", "\"meld\""),
    ({"cards": ["8S"], "meld": "0"}, "", "\"meld\""),
    ({"cards": ["8S", "ZZ"], "meld": None}, "R2.2", "Unknown card code"),
])
def test_a_malformed_or_untimely_request_gets_an_error(
        table: LiveTable, cookie: str, message: Any, rule: str, says: str) -> None:
    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        await comm.send_json_to({"type": "ways", "id": "w1", **message})
        error = await comm.receive_json_from(timeout=TIMEOUT)
        assert error["type"] == "error" and error["id"] == "w1"
        assert error["rule"] == rule and says in error["message"], error
        await comm.disconnect()

    async_to_sync(run)()


def test_cards_the_seat_does_not_hold_are_refused(table: LiveTable, cookie: str) -> None:
    service.table_act(table.pk, SEAT, f"{SEAT} take", "c1")

    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        await comm.send_json_to({"type": "ways", "id": "w1", "cards": ["8S", "8S"],
                                 "meld": None})
        error = await comm.receive_json_from(timeout=TIMEOUT)
        assert error["rule"] == "R7.3" and "8S not in" in error["message"]
        await comm.send_json_to({"type": "ways", "id": "w2", "cards": ["8S"], "meld": 0})
        error = await comm.receive_json_from(timeout=TIMEOUT)
        assert error["rule"] == "R7.3" and "no meld 0" in error["message"]
        await comm.disconnect()

    async_to_sync(run)()


def test_a_spectator_gets_an_error_not_a_hand(table: LiveTable) -> None:
    service.table_act(table.pk, SEAT, f"{SEAT} take", "c1")

    async def run() -> None:
        comm, _ = await joined(table.pk)
        await comm.send_json_to({"type": "ways", "id": "w1", "meld": None,
                                 "cards": ["8S", "8H", "2S", "KC", "2C", "JK"]})
        error = await comm.receive_json_from(timeout=TIMEOUT)
        assert error["type"] == "error" and "seat" in error["message"]
        await comm.disconnect()

    async_to_sync(run)()
