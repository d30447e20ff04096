"""Bot policies. Each decides from its seat's :class:`~games.engine.Observation` only.

``make_bot(name, seed)`` builds a bot by name; ``BOT_NAMES`` lists the names.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.play import Policy

from .random_bot import RandomBot

_FACTORIES: dict[str, Callable[[int | None], Policy]] = {
    "random": RandomBot,
}
BOT_NAMES = tuple(_FACTORIES)


def make_bot(name: str, seed: int | None = None) -> Policy:
    """The bot called ``name``, seeded; ``ValueError`` naming the known bots otherwise."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}") from None
    return factory(seed)
