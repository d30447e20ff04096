"""A duplicate round's deal file (push-deals/1): its grammar, and never before the round's
boards are released."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.engine import HandState, hand_size
from tests.tournaments.test_duplicate_secrecy import Round1, finish, played  # noqa: F401
from tournaments import services
from tournaments.duplicate import boards_from_seed
from tournaments.exports.deal_file import deal_file
from tournaments.selectors.boards import round_boards

from .events import finished_swiss

pytestmark = pytest.mark.django_db

TAG = re.compile(r'^\[(\w+) ("(?:[^"\\]|\\.)*")\]$')


def parse(text: str) -> tuple[dict[str, str], list[dict[str, str]]]:
    """A deal file read as its grammar says: the first line, the event's tags, then a block
    of tags a board after each blank line."""
    first, *rest = text.rstrip("\n").split("\n")
    assert first == "% push-deals/1"
    blocks: list[dict[str, str]] = [{}]
    for line in rest:
        if line == "":
            blocks.append({})
            continue
        name, value = TAG.fullmatch(line).groups()  # type: ignore[union-attr]
        blocks[-1][name] = json.loads(value)
    return blocks[0], blocks[1:]


@given(seed=st.integers(0, 2**63 - 1), first_round=st.integers(1, 20),
       name=st.text(min_size=1, max_size=30))
def test_each_board_is_written_as_dealt_and_read_back(seed: int, first_round: int,
                                                      name: str) -> None:
    boards = boards_from_seed(seed, (first_round - 1) * 5 + 1)
    event, blocks = parse(deal_file(event=name, round_number=first_round, boards=boards))
    assert event == {"Event": name, "Round": str(first_round)}
    assert [int(block["Board"]) for block in blocks] == [board.number for board in boards]
    for board, block in zip(boards, blocks, strict=True):
        dealt = HandState.deal(board.hand, board.dealer, board.pack)
        assert block["Pack"].split() == [card.code for card in board.pack]
        assert int(block["Dealer"]) == board.dealer and int(block["Hand"]) == board.hand
        for seat in range(4):
            assert block[f"Seat{seat}"].split() == [card.code for card in dealt.hands[seat]]
            assert len(block[f"Seat{seat}"].split()) == hand_size(board.hand)
        assert block["Upcard"] == dealt.discard[-1].code
        assert block["Stock"].split() == [card.code for card in reversed(dealt.stock)]


def get(round_id: int, user: Any = None) -> Any:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client.get(f"/api/v1/rounds/{round_id}/deal-file/")


def test_it_is_served_only_once_the_boards_are_released(played: Round1) -> None:  # noqa: F811
    packs = [" ".join(card.code for card in board.pack) for board in round_boards(played.round)]
    for user in (None, played.player):
        response = get(played.round.pk, user)
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert "secret" in response.json()["detail"]
        assert not any(pack in response.content.decode() for pack in packs)
    services.round_release_boards(round=played.round, user=played.organiser)
    response = get(played.round.pk)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    _, blocks = parse(response.content.decode())
    assert [block["Pack"] for block in blocks] == packs


def test_it_is_served_once_every_table_has_finished(played: Round1) -> None:  # noqa: F811
    assert get(played.round.pk).status_code == 404
    finish(played)
    assert get(played.round.pk).status_code == 200


def test_a_round_without_boards_has_no_deal_file() -> None:
    response = get(finished_swiss(3, 1).rounds.get().pk)
    assert response.status_code == 404
    assert "not a duplicate round" in response.json()["detail"]
