"""Bot policies. Each decides from its seat's :class:`~games.engine.Observation` only.

``make_bot(name, seed)`` builds a bot by name; ``BOT_NAMES`` lists the names.

The bots: ``random_bot.py``, ``greedy.py`` and ``search.py``. Under them, each file one
job: ``model.py`` the card model (the engine's cards, melds and contracts as ints),
``contract.py`` the contract analyser, ``evaluate.py`` the judgement of take, push and
discard, ``shed.py`` the choice of melds and lay-offs, ``playout.py`` the rollouts'
simulator. ``match.py`` plays bots against each other (``manage.py bot_match``) and
``benchmark.py`` measures the rollouts against the engine (``manage.py bench_bots``).
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
