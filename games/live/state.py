"""A live table's game, replayed from its action log, and what each seat may see of it.

Pure: no database. :func:`replay` turns a seed and the logged action texts into the
engine's :class:`~games.engine.GameState`, dealing each hand from the seed when the last
one ends. Every view and event here is built from one seat's
:class:`~games.engine.Observation` (R6.3: a pushed stock card only for its receiver),
never from the full state, so nothing a seat may not know can reach its client.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import (
    Action,
    Card,
    GameState,
    HandState,
    Observation,
    OnStep,
    Record,
    action_to_json,
    deal_from_seed,
    observed_legal_actions,
    parse_action,
    penalty,
)
from games.engine.state import CONTRACT_TEXT, Event

Json = dict[str, Any]


class LiveGame:
    """The game of one table: the engine's state, which keeps every hand's pack and
    actions, and the seed's five packs, each dealt when its hand is due."""

    def __init__(self, seed: int) -> None:
        self.first_dealer, self.decks = deal_from_seed(seed)
        self.game = GameState(self.first_dealer)
        #: The summaries of the hands that have ended, by number (``hands``), made once:
        #: an ended hand never changes.
        self.summaries: dict[int, Json] = {}
        self.next_hand()

    def apply(self, action: Action) -> None:
        """Play ``action`` (``IllegalActionError`` and no change if the rules forbid it);
        :meth:`next_hand` deals the next hand when this one ends (R3.1)."""
        self.game.apply(action)

    def next_hand(self) -> None:
        """Deal the next hand if the one in play has ended and the game is not over."""
        self.game.play(self.game.with_deals(self.decks, ()))

    @property
    def hand_actions(self) -> tuple[tuple[Action, ...], ...]:
        """The actions of each hand dealt so far, in order."""
        return self.game.actions

    def record(self, players: Sequence[str]) -> Record:
        """The push-record/1 record of the finished game."""
        return self.game.record(players)


def replay(seed: int, actions: Sequence[str], on_step: OnStep | None = None) -> LiveGame:
    """The game after ``actions`` (text forms, in log order), each hand dealt from the
    seed when the one before ends. ``on_step`` is the engine's (``GameState.play``): it is
    called after each action, before the next hand is dealt, so that a hand's last action
    is still seen in its own hand, and after each deal."""
    return advance(LiveGame(seed), actions, on_step)


def advance(live: LiveGame, actions: Sequence[str],
            on_step: OnStep | None = None) -> LiveGame:
    """``live`` (changed in place) after the further ``actions``, as :func:`replay` plays
    them."""
    live.game.play(live.game.with_deals(live.decks, map(parse_action, actions)), on_step)
    return live


def move_of(action: Action) -> Json:
    """The structured form of ``action`` that a page reads instead of parsing the text:
    the record's JSON form (push-record/1, the form of the replay's frames' ``act``: ``do``,
    ``seat`` and, by kind, ``card``, ``melds`` [{``kind``, ``cards``}], ``meld``, ``cards``,
    ``wild``), made by the engine from its own action, and ``text``, the text form that an
    ``act`` message sends back to play it."""
    return {**action_to_json(action), "text": str(action)}


def _card(card: Card | None) -> str | None:
    return None if card is None else card.code


def _public(obs: Observation, game: GameState) -> Json:
    """What every seat and every spectator may see of the table."""
    return {
        "hand_no": obs.hand_no,
        "dealer": obs.dealer,
        "contract": CONTRACT_TEXT[obs.hand_no],
        "contract_down": list(obs.contract_down),
        "melds": [{"id": m.id, "owner": m.owner, "kind": m.kind,
                   "cards": [str(p) for p in m.cards]} for m in obs.melds],
        "discard_top": _card(obs.discard[-1]) if obs.discard else None,
        "discard_size": len(obs.discard),
        "stock_size": obs.stock_size,
        "buried": [c.code for c in obs.buried],
        "hand_sizes": list(obs.hand_sizes),
        "to_move": game.to_move,
        "phase": obs.phase,
        "turns": obs.turns,
        "scores": [list(r.scores) for r in game.results],
        "totals": list(game.totals),
        "is_over": game.is_over,
        "winner": game.winner,
    }


def seat_view(live: LiveGame, seat: int) -> Json:
    """``seat``'s view: the public table, its own hand and, on its turn, its legal actions
    (from its observation alone): ``legal``, their text forms, and ``moves``, the same in
    order in their structured form (:func:`move_of`)."""
    obs = live.game.observation(seat)
    legal = observed_legal_actions(obs) if live.game.to_move == seat else []
    return {
        **_public(obs, live.game),
        "seat": seat,
        "hand": [c.code for c in obs.hand],
        "taken": _card(obs.taken),
        "pending": [[c.code, meld] for c, meld in obs.pending],
        "legal": [str(a) for a in legal],
        "moves": [move_of(a) for a in legal],
    }


def spectator_view(live: LiveGame) -> Json:
    """The public table only. Built from the observation of the seat to move (or the
    dealer), with that seat's private parts left out."""
    game = live.game
    obs = game.observation(game.to_move if game.to_move is not None else 0)
    return {**_public(obs, game), "seat": None}


def events_since(seed: int, actions: Sequence[str], since: int,
                 seat: int | None) -> tuple[list[Json], LiveGame]:
    """The events after sequence number ``since`` (the log's first action is 1) as ``seat``
    saw them (``None``: a spectator), and the game after them all.

    Each event is the last entry of the seat's observed history right after the action:
    a take shows the card taken (public, R6.3); a push shows the discard passed and, only
    to the seat that received it, the stock card."""
    events: list[Json] = []
    seq = 0  # the log's sequence number of the last action played

    def collect(game: GameState, hand_no: int, index: int, action: Action | None) -> None:
        nonlocal seq
        if action is None:  # a deal
            return
        seq += 1
        if seq <= since:
            return
        # A spectator sees what the actor saw: its own history never holds the stock
        # card it pushed to its left (R6.3).
        obs = game.observation(action.seat if seat is None else seat)
        event = event_of(seq, obs.hand_no, obs.history[-1])
        if game.to_move is None:  # this action ended the hand: its cards are public now
            event["hand_result"] = hand_result(game.hand)
        events.append(event)

    live = replay(seed, actions, collect)
    return events, live


def hand_result(hand: HandState) -> Json:
    """How the ended ``hand`` ended (R8.1 out, R8.2/R8.3 stock), the team scores (R9.1),
    and each seat's remaining cards with their penalty points (R2.4, the engine's own
    count: a team scores its two seats' points, or 0 when one of them went out). The cards
    are secret while the hand is played and public once it has ended."""
    outcome = hand.outcome
    assert outcome is not None, "only an ended hand has a result"
    return {"ended_by": outcome.ended_by, "out_seat": outcome.out_seat,
            "scores": list(outcome.scores),
            "hands": [[card.code for card in cards] for cards in hand.hands],
            "penalties": [penalty(cards) for cards in hand.hands]}


def event_of(seq: int, hand_no: int, seen: Event) -> Json:
    """The event of action ``seq`` of hand ``hand_no``, as the viewer's history entry
    ``seen`` shows it: the action's text form (``action``) and its structured form
    (``move``, :func:`move_of`)."""
    event: Json = {"seq": seq, "hand_no": hand_no, "seat": seen.action.seat,
                   "action": str(seen.action), "move": move_of(seen.action),
                   "card": _card(seen.card)}
    if seen.private is not None:
        event["private"] = seen.private.code
    return event


def recent_events(live: LiveGame, seq: int, since: int, seat: int | None) -> list[Json] | None:
    """The events after ``since``, as :func:`events_since` gives them, read from ``live``
    (the game after action ``seq``) without a replay: each is the entry of the viewer's
    history in the hand in play. ``None`` when they reach beyond that hand (replay then).
    """
    hands = live.hand_actions
    actions = hands[-1] if hands else ()
    first = len(actions) - (seq - since)  # the first new action's place in its hand
    if live.game.to_move is None or first < 0:
        return None
    seen: dict[int, Observation] = {}
    events = []
    for index in range(first, len(actions)):
        viewer = actions[index].seat if seat is None else seat
        obs = seen.get(viewer) or seen.setdefault(viewer, live.game.observation(viewer))
        events.append(event_of(seq - len(actions) + index + 1, obs.hand_no, obs.history[index]))
    return events
