"""Properties of random games and of records tampered with at random (hypothesis).

Games are played by random bots from seeds that hypothesis draws; each test
keeps to a handful of games so the module runs in seconds.
"""

import copy
import functools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import make_bot
from games.engine import (
    ALL_CARDS,
    GameState,
    IllegalActionError,
    MalformedRecordError,
    Record,
    load_record,
    penalty,
    team_of,
    verify,
)
from games.engine.play import deal_from_seed, play_game
from tests.examples import examples
from tests.games.packs import FULL_PACK, all_cards

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.lru_cache(maxsize=64)
def random_game(seed: int) -> Record:
    first_dealer, decks = deal_from_seed(seed)
    bots = [make_bot("random", seed * 4 + seat) for seat in range(4)]
    return play_game(bots, first_dealer, decks)


def check_scores(game: GameState) -> None:
    """R9.1: the out team scores 0; every other team the cards left in both partners'
    hands; after stock exhaustion both teams pay."""
    hand = game.hand
    assert hand.outcome is not None
    paid = [penalty(hand.hands[t] + hand.hands[t + 2]) for t in (0, 1)]
    if hand.outcome.ended_by == "out":
        assert hand.outcome.out_seat is not None and hand.hands[hand.outcome.out_seat] == []
        paid[team_of(hand.outcome.out_seat)] = 0
    else:
        assert hand.outcome.out_seat is None
    assert list(hand.outcome.scores) == paid


@FAST
@given(seed=SEEDS)
def test_random_games_end_conserve_the_pack_and_score_by_r9(seed: int) -> None:
    rec = random_game(seed)
    assert len(rec.hands) == 5
    game = GameState(rec.first_dealer)
    for hand_record in rec.hands:
        game.deal(hand_record.deck)
        assert all_cards(game.hand) == FULL_PACK
        for action in hand_record.actions:
            assert game.to_move is not None
            game.apply(action)
            assert all_cards(game.hand) == FULL_PACK, action
        hand = game.hand
        assert hand.outcome is not None and game.to_move is None  # every hand ended (R8)
        assert hand.turns <= 400
        check_scores(game)
    assert game.is_over
    assert game.totals == tuple(sum(r.scores[t] for r in game.results) for t in (0, 1))
    t0, t1 = game.totals
    assert game.winner == (None if t0 == t1 else int(t1 < t0))  # R9.2


@FAST
@given(seed=SEEDS)
def test_a_played_record_dumps_loads_and_verifies_to_the_same_result(seed: int) -> None:
    rec = random_game(seed)
    text = rec.dumps()
    loaded = load_record(text)

    assert loaded == rec
    assert loaded.dumps() == text
    verdict = verify(text)
    assert verdict.status == "complete"
    assert verify(json.loads(text)) == verdict == verify(rec)
    assert rec.result is not None
    assert [h.scores for h in verdict.hands] == list(rec.result.hands)
    assert verdict.totals == rec.result.totals


# -- tampered records ----------------------------------------------------------------------

def oracle(doc: Any) -> tuple[str, Any]:
    """What the verifier should answer, worked out step by step on a fresh GameState."""
    try:
        rec = load_record(doc)
    except MalformedRecordError:
        return "malformed", None
    game = GameState(rec.first_dealer)
    for number, hand_record in enumerate(rec.hands, start=1):
        if game.to_move is not None:  # the previous hand has not ended
            return "illegal", (number - 1, len(rec.hands[number - 2].actions))
        game.deal(hand_record.deck)
        for index, action in enumerate(hand_record.actions):
            try:
                game.apply(action)
            except IllegalActionError:
                return "illegal", (number, index)
    results = [r.scores for r in game.results]
    if rec.result is not None and (list(rec.result.hands) != results
                                   or rec.result.totals != game.totals):
        return "illegal", results
    return ("complete" if game.is_over else "incomplete"), results


CODES = [c.code for c in ALL_CARDS]
#: Mutations that can never leave a legal record with the same result.
ALWAYS_CAUGHT = {"drop a draw", "repeat a draw", "drop a discard", "repeat a discard",
                 "change a seat", "change a deck card"}


def actions_where(doc: dict[str, Any], kinds: set[str]) -> list[tuple[int, int]]:
    return [(h, i) for h, hand in enumerate(doc["hands"])
            for i, a in enumerate(hand["actions"]) if a["do"] in kinds]


def mutate(doc: dict[str, Any], kind: str, data: st.DataObject) -> None:
    hands = doc["hands"]
    if kind in ("drop a draw", "repeat a draw", "drop a discard", "repeat a discard",
                "drop an action", "repeat an action"):
        dos = ({"take", "push"} if "draw" in kind else {"discard"} if "discard" in kind
               else {"take", "push", "discard", "contract", "meld", "layoff", "swap"})
        h, i = data.draw(st.sampled_from(actions_where(doc, dos)))
        if kind.startswith("drop"):
            del hands[h]["actions"][i]
        else:
            hands[h]["actions"].insert(i, copy.deepcopy(hands[h]["actions"][i]))
    elif kind == "move an action":
        h, i = data.draw(st.sampled_from(actions_where(doc, {"take", "push", "discard",
                                                             "contract", "meld", "layoff",
                                                             "swap"})))
        action = hands[h]["actions"].pop(i)
        to = data.draw(st.integers(0, len(hands) - 1))
        hands[to]["actions"].insert(data.draw(st.integers(0, len(hands[to]["actions"]))),
                                    action)
    elif kind == "change a seat":
        h, i = data.draw(st.sampled_from(actions_where(doc, {"take", "push", "discard"})))
        hands[h]["actions"][i]["seat"] = (hands[h]["actions"][i]["seat"]
                                          + data.draw(st.integers(1, 3))) % 4
    elif kind == "change a draw":
        h, i = data.draw(st.sampled_from(actions_where(doc, {"take", "push"})))
        action = hands[h]["actions"][i]
        action["do"] = "push" if action["do"] == "take" else "take"
    elif kind == "change a discarded card":
        h, i = data.draw(st.sampled_from(actions_where(doc, {"discard"})))
        hands[h]["actions"][i]["card"] = data.draw(st.sampled_from(CODES))
    elif kind == "change a deck card":
        h = data.draw(st.integers(0, len(hands) - 1))
        p = data.draw(st.integers(0, 107))
        hands[h]["deck"][p] = data.draw(st.sampled_from(CODES))
    elif kind == "swap two deck cards":
        h = data.draw(st.integers(0, len(hands) - 1))
        p, q = data.draw(st.integers(0, 107)), data.draw(st.integers(0, 107))
        deck = hands[h]["deck"]
        deck[p], deck[q] = deck[q], deck[p]
    else:  # "put junk somewhere"
        h, i = data.draw(st.sampled_from(actions_where(doc, {"take", "push", "discard",
                                                             "contract", "layoff"})))
        action = hands[h]["actions"][i]
        key = data.draw(st.sampled_from(sorted(action)))
        action[key] = data.draw(st.recursive(
            st.none() | st.booleans() | st.integers(-5, 200) | st.sampled_from(CODES)
            | st.text(max_size=4),
            lambda inner: st.lists(inner, max_size=3)
            | st.dictionaries(st.sampled_from(["kind", "cards", "x"]), inner, max_size=2),
            max_leaves=6))


KINDS = sorted(ALWAYS_CAUGHT | {"drop an action", "repeat an action", "move an action",
                                "change a draw", "change a discarded card",
                                "swap two deck cards", "put junk somewhere"})


@functools.lru_cache(maxsize=8)
def original(seed: int) -> str:
    return random_game(seed).dumps()


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2), kind=st.sampled_from(KINDS), data=st.data())
def test_a_tampered_record_never_crashes_the_verifier_nor_passes_for_the_original(
        seed: int, kind: str, data: st.DataObject) -> None:
    """The verifier never raises; its verdict is the one a step-by-step replay gives; and a
    record that still claims the original result is ``complete`` only if its own replay
    gives exactly that result.

    A stronger "never complete unless nothing changed" cannot hold for every change:
    dropping a lay-off by a player whose partner later goes out, or swapping two stock
    cards nobody draws, gives another legal game with the same scores. It does hold for
    the changes in ``ALWAYS_CAUGHT`` (a draw or discard dropped or repeated, an action
    given to another seat, a deck card replaced), and is checked for those."""
    text = original(seed)
    doc = json.loads(text)
    mutate(doc, kind, data)

    verdict = verify(doc)
    status, detail = oracle(doc)

    assert verdict.status == status, (kind, verdict.to_json())
    if status == "illegal" and isinstance(detail, tuple):
        assert verdict.error is not None
        assert (verdict.error.hand, verdict.error.action) == detail
    if status in ("complete", "incomplete"):
        assert [h.scores for h in verdict.hands] == detail
        assert verdict.totals == tuple(sum(s[t] for s in detail) for t in (0, 1))
    if status == "complete":
        claim = json.loads(text)["result"]
        assert [list(s) for s in detail] == claim["hands"]
        assert list(verdict.totals) == claim["totals"]
    if json.dumps(doc, sort_keys=True) == json.dumps(json.loads(text), sort_keys=True):
        assert verdict.status == "complete"  # a no-op, e.g. two equal cards swapped
    elif kind in ALWAYS_CAUGHT:
        assert verdict.status != "complete", kind
