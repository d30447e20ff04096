"""games.replay: a stored record replayed into frames (pure, no database)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.bots import make_bot
from games.engine import Card, load_record, verify
from games.engine.play import deal_from_seed, play_game
from games.replay import compact_frames, expand_frames, replay_frames


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    first_dealer, decks = deal_from_seed(11)
    bots = [make_bot("greedy", seat) for seat in range(4)]
    return play_game(bots, first_dealer, decks, players=["Ann", "Ben", "Cleo", "Dev"]).to_json()


def cards_in(frame: dict[str, Any]) -> int:
    held = sum(len(hand.split()) for hand in frame["hands"])
    melded = sum(len(meld["cards"]) for meld in frame["melds"])
    return held + melded + frame["stock"] + frame["pile"] + len(frame.get("pending", []))


def test_every_hand_has_the_deal_and_one_frame_per_action(record: dict[str, Any]) -> None:
    replay = replay_frames(record)

    assert replay["players"] == ["Ann", "Ben", "Cleo", "Dev"]
    assert len(replay["hands"]) == 5
    for number, (hand, hand_record) in enumerate(zip(replay["hands"], record["hands"],
                                                     strict=True), start=1):
        frames = hand["frames"]
        assert hand["hand"] == number
        assert len(frames) == len(hand_record["actions"]) + 1
        assert frames[0]["n"] == -1 and frames[0]["act"] is None
        assert [f["n"] for f in frames[1:]] == list(range(len(hand_record["actions"])))
        for frame, action in zip(frames[1:], hand_record["actions"], strict=True):
            assert {k: frame["act"][k] for k in action} == action


def test_the_last_frame_of_each_hand_has_the_verified_outcome(record: dict[str, Any]) -> None:
    verdict = verify(record)
    replay = replay_frames(record)

    for hand, outcome in zip(replay["hands"], verdict.hands, strict=True):
        assert all(frame["end"] is None for frame in hand["frames"][:-1])
        end = hand["frames"][-1]["end"]
        assert end == {"ended_by": outcome.ended_by, "out_seat": outcome.out_seat,
                       "scores": list(outcome.scores)}


def test_no_card_is_lost_or_made_up_in_any_frame(record: dict[str, Any]) -> None:
    for hand in replay_frames(record)["hands"]:
        assert all(cards_in(frame) == 108 for frame in hand["frames"])


def test_the_deal_gives_each_seat_its_cards_sorted_with_the_wilds_last(
        record: dict[str, Any]) -> None:
    first = replay_frames(record)["hands"][0]["frames"][0]

    for seat, hand in enumerate(first["hands"]):
        cards = [Card.parse(code) for code in hand.split()]
        assert len(cards) == 6
        wild = [card.is_wild for card in cards]
        assert wild == sorted(wild), f"seat {seat}: {hand}"
    assert first["stock"] + first["pile"] == 108 - 24
    assert first["turn"] == (record["first_dealer"] + 1) % 4


def test_a_push_says_which_cards_went_left_and_what_the_pusher_drew(
        record: dict[str, Any]) -> None:
    pushes = [(hand, i) for hand in replay_frames(record)["hands"]
              for i, frame in enumerate(hand["frames"])
              if frame["act"] and frame["act"]["do"] == "push" and frame["end"] is None]
    assert pushes, "the game should have a push"
    hand, i = pushes[0]
    before, after = hand["frames"][i - 1], hand["frames"][i]
    act = after["act"]
    left = (act["seat"] + 1) % 4
    assert act["card"] == before["top"]
    gained = after["hands"][left].split()
    for code in (act["card"], act["stock_card"]):
        gained.remove(code)
    assert sorted(gained) == sorted(before["hands"][left].split())
    assert act["drew"] in after["hands"][act["seat"]].split()
    assert after["stock"] == before["stock"] - 2


def test_text_records_and_record_objects_replay_alike(record: dict[str, Any]) -> None:
    import json

    assert replay_frames(json.dumps(record)) == replay_frames(record)
    assert replay_frames(load_record(record)) == replay_frames(record)


def test_compact_frames_expand_to_the_whole_frames(record: dict[str, Any]) -> None:
    replay = replay_frames(record)
    compact = compact_frames(replay)

    expanded = expand_frames(compact)

    for whole, back in zip(replay["hands"], expanded["hands"], strict=True):
        for a, b in zip(whole["frames"], back["frames"], strict=True):
            if b.get("pending") == []:
                del b["pending"]
            assert a == b
    size = len(str(compact))
    assert size < len(str(replay)) / 2, "compaction should at least halve the frames"


def test_an_illegal_record_is_refused(record: dict[str, Any]) -> None:
    broken = copy.deepcopy(record)
    broken["hands"][0]["actions"].insert(0, {"seat": (record["first_dealer"] + 2) % 4,
                                             "do": "take"})
    with pytest.raises(ValueError):
        replay_frames(broken)
