"""How many frames one connection may send: a token bucket, pure (the caller passes the
time). A page sends a heartbeat every few seconds and an action or a chat line at a
person's pace; a client sending far more is broken or hostile, and each frame it sends
costs the server a read and, mostly, a database call. A connection starts with
``at_once`` frames in hand and earns ``per_second`` more each second, up to ``at_once``;
a frame sent with none in hand is answered with an error and not read (the connection
stays: a person's page that stuttered goes on once it sends at a person's pace again).
Chat lines have their own, tighter limit besides (``chat``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Adding up fractions of a frame loses a little to rounding: a client sending exactly at
#: the rate would now and then be refused for a billionth of a frame.
EARNED_SLACK = 1e-9


@dataclass
class Allowance:
    at_once: int
    per_second: float
    left: float = field(init=False)
    last: float | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.left = float(self.at_once)

    def take(self, now: float) -> bool:
        """Whether a frame arriving at ``now`` (seconds, a monotonic clock) may be read;
        when it may, it is counted."""
        if self.last is not None:
            self.left = min(float(self.at_once),
                            self.left + max(0.0, now - self.last) * self.per_second)
        self.last = now
        if self.left < 1 - EARNED_SLACK:
            return False
        self.left -= 1
        return True
