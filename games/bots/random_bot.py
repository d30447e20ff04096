"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from games.engine import Action, Observation


class RandomBot:
    name: ClassVar[str] = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
