"""The hands of a live table's game as one viewer saw them: a hand's log (its events, as
``state.events_since`` gives them) and, once the hand has ended, its summary: how it
ended, the scores, and every seat's remaining cards with their penalty points.

Pure: no database. The cards left in the hands are secret while the hand is played and
public once it has ended (R9.1 scores them for everyone to check), so a summary exists
only for a hand that has ended. The hand in play is read from the game's own
observations; an earlier hand is dealt again from its pack and its actions replayed on
its own (a hand's rules need nothing from the hands before it).
"""

from __future__ import annotations

from games.engine import HandState, dealer_of

from .state import Json, LiveGame, event_of, hand_result, recent_events


def summary(hand: HandState) -> Json:
    """The ``last_hand`` of a view: the ended ``hand``'s number and :func:`hand_result`."""
    return {"hand_no": hand.hand_no, **hand_result(hand)}


def dealt(live: LiveGame) -> int:
    """How many hands have been dealt (the number of the hand in play, or the last)."""
    return len(live.hand_actions)


def before(live: LiveGame, hand_no: int) -> int:
    """The sequence number of the last action before hand ``hand_no`` (0 for hand 1)."""
    return sum(len(actions) for actions in live.hand_actions[:hand_no - 1])


def replay_hand(live: LiveGame, hand_no: int) -> HandState:
    """Hand ``hand_no`` (dealt already) as its actions so far left it, dealt again from
    its own pack."""
    game = live.game
    hand = HandState.deal(hand_no, dealer_of(game.first_dealer, hand_no),
                          game.packs[hand_no - 1])
    for action in game.actions[hand_no - 1]:
        hand.apply(action)
    return hand


def hand_events(live: LiveGame, seq: int, hand_no: int, seat: int | None) -> list[Json]:
    """The events of hand ``hand_no`` (dealt already; ``live`` is the game after action
    ``seq``) as ``seat`` saw them (``None``: a spectator, who sees what each actor saw),
    the hand-ending one with its ``hand_result``."""
    start = before(live, hand_no)
    if hand_no == dealt(live):  # the hand in play: its observations hold it already
        events = recent_events(live, seq, start, seat)
        if events is not None:
            return events
    hand = replay_hand(live, hand_no)
    events = []
    for index, seen in enumerate(hand.history):
        viewer = seen.action.seat if seat is None else seat
        events.append(event_of(start + index + 1, hand_no, hand.seen[viewer][index]))
    if hand.outcome is not None and events:
        events[-1]["hand_result"] = hand_result(hand)
    return events


def hand_summary(live: LiveGame, hand_no: int) -> Json | None:
    """The summary of hand ``hand_no`` once it has ended (``None`` while it is played, or
    not dealt). Kept with the game: an ended hand never changes."""
    if hand_no > len(live.game.results) or hand_no < 1:
        return None
    found = live.summaries.get(hand_no)
    if found is None:
        found = live.summaries[hand_no] = summary(replay_hand(live, hand_no))
    return found


def last_hand(live: LiveGame) -> Json | None:
    """The summary of the most recent hand that has ended, or ``None`` before the first
    ends."""
    return hand_summary(live, len(live.game.results))
