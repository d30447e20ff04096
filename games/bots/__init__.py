"""Bot policies. Each decides from its seat's :class:`~games.engine.Observation` only.

``make_bot(name, seed)`` builds a bot by name; ``BOT_NAMES`` lists the names.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.play import Policy

from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot

_FACTORIES: dict[str, Callable[[int | None], Policy]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
}
#: bots whose thinking time per decision can be set (seconds)
_BUDGETED: dict[str, Callable[[int | None, float], Policy]] = {
    "search": lambda seed, budget: SearchBot(seed, budget=budget),
}
BOT_NAMES = tuple(_FACTORIES)


def make_bot(name: str, seed: int | None = None, *, budget: float | None = None) -> Policy:
    """The bot called ``name``, seeded; ``ValueError`` naming the known bots otherwise.
    ``budget`` (seconds per decision) applies to the bots that search; others ignore it."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}") from None
    if budget is not None and name in _BUDGETED:
        return _BUDGETED[name](seed, budget)
    return factory(seed)
