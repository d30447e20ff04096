"""How long a live table's next bot waits before it moves: pure.

A bot's move is paced (``LIVE_BOT_PAUSE_SECONDS``) so that people can follow it; after
an action that ends a hand the next one waits longer (``LIVE_HAND_PAUSE_SECONDS``), so
that the hand's end (who went out, every hand's cards and penalty points, the scores) is
seen before the next deal moves on. A person to move is not held: they go on when they
have read it. A tournament's table where no person plays (bots in every seat, or every
person's seat given to their substitute for the rest of the game) has nobody to wait for:
its bots play at full speed (an all-bot online round, a table settled at its round's
deadline; ``turns.after_commit`` decides).
"""

from __future__ import annotations


def bot_delay(hand_ended: bool, bot_pause: float, hand_pause: float,
              people: bool = True) -> float:
    """The seconds before the next bot's move: ``hand_pause`` after an action that ended a
    hand (not the game: then no bot moves), else ``bot_pause``; never negative; 0 when no
    person plays at the table (``people`` False)."""
    if not people:
        return 0.0
    return max(hand_pause if hand_ended else bot_pause, 0.0)
