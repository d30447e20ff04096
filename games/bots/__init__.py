"""Bot policies. Each decides from its seat's :class:`~games.engine.Observation` only.

``BOTS`` is the one registry of the bot levels people choose from: each level's name (as
records, forms, the API and the database store it), the class that plays it, and its short
label and description in English. The words are marked for the translation catalogue;
``games/vocabulary.py`` translates them for the forms, the admin and the pages, so no other
module keeps a list of the levels. ``make_bot(name, seed)`` builds a bot by name;
``BOT_NAMES`` lists the names.

The bots: ``random_bot.py``, ``greedy.py`` and ``search.py``. Under them, each file one
job: ``model.py`` the card model (the engine's cards, melds and contracts as ints),
``contract.py`` the contract analyser, ``evaluate.py`` the judgement of take, push and
discard, ``shed.py`` the choice of melds and lay-offs, ``playout.py`` the rollouts'
simulator. ``match.py`` plays bots against each other (``manage.py bot_match``); the
benchmark of the rollouts against the engine is ``bench/bots.py`` (``manage.py bench_bots``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.play import Policy
from games.engine.scoresheet import gettext_noop

from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot


@dataclass(frozen=True)
class BotLevel:
    """A bot level: ``name``, the bot it builds from a seed (``make``), and for people a
    short ``label`` and a ``description`` of how it plays (English, marked for the
    catalogue). ``budgeted`` builds it with a thinking time per decision (seconds), for the
    bots that search; ``None`` for those that ignore one."""

    name: str
    make: Callable[[int | None], Policy]
    label: str
    description: str
    budgeted: Callable[[int | None, float], Policy] | None = None


BOTS: dict[str, BotLevel] = {level.name: level for level in (
    BotLevel(RandomBot.name, RandomBot, gettext_noop("random"),
             gettext_noop("plays any legal move")),
    BotLevel(GreedyBot.name, GreedyBot, gettext_noop("greedy"),
             gettext_noop("a heuristic player")),
    BotLevel(SearchBot.name, SearchBot, gettext_noop("search"),
             gettext_noop("the strongest, thinks for a moment"),
             budgeted=lambda seed, budget: SearchBot(seed, budget=budget)),
)}
BOT_NAMES = tuple(BOTS)


def make_bot(name: str, seed: int | None = None, *, budget: float | None = None) -> Policy:
    """The bot called ``name``, seeded; ``ValueError`` naming the known bots otherwise.
    ``budget`` (seconds per decision) applies to the bots that search; others ignore it."""
    try:
        level = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None
    if budget is not None and level.budgeted is not None:
        return level.budgeted(seed, budget)
    return level.make(seed)
