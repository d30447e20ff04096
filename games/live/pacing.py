"""How long a live table's next bot waits before it moves: pure.

A bot's move is paced (``LIVE_BOT_PAUSE_SECONDS``) so that people can follow it; after
an action that ends a hand the next one waits longer (``LIVE_HAND_PAUSE_SECONDS``), so
that the hand's end (who went out, every hand's cards and penalty points, the scores) is
seen before the next deal moves on. A person to move is not held: they go on when they
have read it.
"""

from __future__ import annotations


def bot_delay(hand_ended: bool, bot_pause: float, hand_pause: float) -> float:
    """The seconds before the next bot's move: ``hand_pause`` after an action that ended a
    hand (not the game: then no bot moves), else ``bot_pause``; never negative."""
    return max(hand_pause if hand_ended else bot_pause, 0.0)
