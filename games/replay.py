"""Replay frames of a finished game (a match page's or a live table's): a stored game record
replayed into snapshots.

A pure function of the record (no Django, no I/O): :func:`replay_frames` replays a
``push-record/1`` game with the rules engine and returns, per hand, one frame after the
deal and one after every action. The game is over when it is shown, so each frame holds
all four hands, not one seat's view.

A frame is plain JSON data, kept compact because a game has hundreds of them:

``n``
    the action's index in the hand's ``actions`` (push-record.md), ``-1`` for the deal;
``act``
    the action as in the record (``seat``, ``do`` and its fields), or ``None`` for the deal;
    a ``take`` adds ``card`` (the card taken), a ``push`` adds ``card`` (the discard pushed),
    ``stock_card`` (the stock card pushed, seen only by the seat on the left during play)
    and ``drew`` (the pusher's new card);
``hands``
    each seat's hand as space-separated card codes, sorted for reading;
``melds``
    the table: ``{"id", "owner", "kind", "cards"}`` with the cards as written in a meld
    (``JK=7``, ``2C=TS``), runs in rank order;
``top``, ``pile``, ``stock``
    the discard pile's top card (``None`` when empty), its size and the stock's size;
``turn``, ``down``
    the seat to move and which seats have their contract down;
``end``
    how the hand ended once it has (``ended_by``, ``out_seat``, ``scores``), else ``None``;
``pending``
    only while a swapped wild waits to be played (R7.4): its card codes.

An illegal record raises the engine's :class:`~games.engine.IllegalActionError`; a malformed
one :class:`~games.engine.MalformedRecordError` (both ``ValueError``). Stored results were
verified before they were stored, so either means a bug or a hand-edited database.
"""

from __future__ import annotations

from typing import Any

from games.engine import (
    Action,
    Card,
    GameState,
    HandState,
    Push,
    Record,
    Take,
    action_to_json,
    load_record,
)

Frame = dict[str, Any]
SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3, "": 4}  # alternate colours: black, red, ...


def card_sort_key(card: Card) -> tuple[int, int, int]:
    """Naturals by suit (alternating colours) then rank, ace high; the wilds (2s and jokers)
    last, as a player would hold them."""
    rank = 14 if card.rank == 1 else card.rank
    return (1 if card.is_wild else 0, SUIT_ORDER[card.suit], rank)


def hand_text(cards: list[Card]) -> str:
    return " ".join(card.code for card in sorted(cards, key=card_sort_key))


def snapshot(hand: HandState, index: int, act: dict[str, Any] | None) -> Frame:
    """The whole table of ``hand`` as it is now, after action ``index`` (``-1``: the deal)."""
    outcome = hand.outcome
    frame: Frame = {
        "n": index,
        "act": act,
        "hands": [hand_text(cards) for cards in hand.hands],
        "melds": [{"id": m.id, "owner": m.owner, "kind": m.kind,
                   "cards": [str(p) for p in m.cards]} for m in hand.melds],
        "top": hand.discard[-1].code if hand.discard else None,
        "pile": len(hand.discard),
        "stock": len(hand.stock),
        "turn": hand.seat,
        "down": list(hand.contract_down),
        "end": None if outcome is None else {"ended_by": outcome.ended_by,
                                             "out_seat": outcome.out_seat,
                                             "scores": list(outcome.scores)},
    }
    if hand.pending:  # wilds taken by a swap, waiting to be played this turn (R7.4)
        frame["pending"] = [card.code for card, _meld in hand.pending]
    return frame


def describe(hand: HandState, action: Action) -> dict[str, Any]:
    """The action as recorded, plus the cards it moved that the record leaves implicit."""
    act = action_to_json(action)
    event = hand.history[-1] if hand.history else None
    if isinstance(action, Take) and event is not None and event.card is not None:
        act["card"] = event.card.code
    elif isinstance(action, Push) and event is not None and event.card is not None:
        act["card"] = event.card.code
        if event.private is not None:
            act["stock_card"] = event.private.code
        if hand.outcome is None:  # the pusher's draw is the last card of their hand
            act["drew"] = hand.hands[action.seat][-1].code
    return act


def replay_frames(source: Record | Any) -> dict[str, Any]:
    """Every frame of every hand of ``source`` (a :class:`~games.engine.Record`, a decoded
    ``push-record/1`` document or its JSON text).

    Returns ``{"players": [...] or None, "first_dealer": d, "hands": [{"hand", "dealer",
    "frames"}, ...]}`` with one frame for the deal and one per action in each hand."""
    record = source if isinstance(source, Record) else load_record(source)
    hands: list[dict[str, Any]] = []

    def frame(game: GameState, hand_no: int, index: int, action: Action | None) -> None:
        hand = game.hand  # a copy: reading it cannot disturb the game
        if action is None:  # a deal starts the hand's frames
            hands.append({"hand": hand_no, "dealer": hand.dealer,
                          "frames": [snapshot(hand, -1, None)]})
        else:
            hands[-1]["frames"].append(snapshot(hand, index, describe(hand, action)))

    GameState.from_record(record, frame)
    return {"players": list(record.players) if record.players else None,
            "first_dealer": record.first_dealer, "hands": hands}


def compact_frames(replay: dict[str, Any]) -> dict[str, Any]:
    """``replay`` (from :func:`replay_frames`) with each frame reduced to what changed since
    the frame before it in the same hand, for embedding in a page: a key that is missing
    keeps its previous value, in ``hands`` a ``None`` keeps that seat's previous hand, and
    ``melds`` lists only the melds that are new or changed (a meld's ``id`` is its index).
    ``n`` and ``act`` are always present; a hand's first frame is always whole.
    :func:`expand_frames` undoes it (the page's script does the same)."""
    hands = []
    for hand in replay["hands"]:
        frames, previous = [], None
        for frame in hand["frames"]:
            frames.append(frame if previous is None else _delta(previous, frame))
            previous = frame
        hands.append({**hand, "frames": frames})
    return {**replay, "hands": hands}


def _delta(previous: Frame, frame: Frame) -> Frame:
    delta: Frame = {"n": frame["n"], "act": frame["act"]}
    for key, value in frame.items():
        if key in delta or previous.get(key) == value:
            continue
        if key == "hands":
            value = [None if old == new else new
                     for old, new in zip(previous["hands"], value, strict=True)]
        elif key == "melds":  # melds are only added or changed, never taken away
            value = [meld for meld in value if meld not in previous["melds"]]
        delta[key] = value
    if "pending" in previous and "pending" not in frame:
        delta["pending"] = []
    return delta


def expand_frames(compact: dict[str, Any]) -> dict[str, Any]:
    """The whole frames back from :func:`compact_frames` (``pending`` stays as ``[]`` where
    it was dropped)."""
    hands = []
    for hand in compact["hands"]:
        frames: list[Frame] = []
        for delta in hand["frames"]:
            frame = dict(frames[-1]) if frames else {}
            for key, value in delta.items():
                if key == "hands" and frames:
                    value = [old if new is None else new
                             for old, new in zip(frame["hands"], value, strict=True)]
                elif key == "melds" and frames:
                    melds = list(frame["melds"])
                    for meld in value:
                        if meld["id"] < len(melds):
                            melds[meld["id"]] = meld
                        else:
                            melds.append(meld)
                    value = melds
                frame[key] = value
            frames.append(frame)
        hands.append({**hand, "frames": frames})
    return {**compact, "hands": hands}
