"""Bot policies. Each decides from its seat's :class:`~games.engine.Observation` only.

``BOTS`` is the one registry of the bot levels people choose from: each level's name (as
records, forms, the API and the database store it), the class that plays it, and its short
label and description in English. The words are marked for the translation catalogue;
``games/vocabulary.py`` translates them for the forms, the admin and the pages, so no other
module keeps a list of the levels. ``make_bot(name, seed)`` builds a bot by name;
``BOT_NAMES`` lists the names.

The bots: ``random_bot.py``, ``greedy.py``, ``search.py`` and ``expert.py`` (with
``inference.py``, what it reads from the history about the hidden hands). Under them, each file one
job: ``model.py`` the card model (the engine's cards, melds and contracts as ints),
``contract.py`` the contract analyser, ``evaluate.py`` the judgement of take, push and
discard, ``shed.py`` the choice of melds and lay-offs, ``playout.py`` the rollouts'
simulator. ``match.py`` plays bots against each other (``manage.py bot_match``); the
benchmark of the rollouts against the engine is ``bench/bots.py`` (``manage.py bench_bots``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.engine import BUILD
from games.engine.build import use_build_of
from games.engine.play import Policy
from games.engine.scoresheet import gettext_noop

# Before any module of the bots is imported: the build the engine chose (compiled bots
# take only a compiled engine's objects).
use_build_of(BUILD, list(__path__))

from .expert import ExpertBot  # noqa: E402  (the build first)
from .greedy import GreedyBot  # noqa: E402
from .playout import Clock  # noqa: E402
from .random_bot import RandomBot  # noqa: E402
from .search import DEFAULT_BUDGET, SearchBot  # noqa: E402


@dataclass(frozen=True)
class BotLevel:
    """A bot level: ``name``, the bot it builds from a seed (``make``), and for people a
    short ``label`` and a ``description`` of how it plays (English, marked for the
    catalogue). ``budgeted`` builds it with a thinking time per decision (seconds) read
    off a clock (wall time, or CPU time so that a busy machine does not weaken it), for
    the bots that search; ``None`` for those that ignore one. ``steady`` builds it so that its
    decisions depend on its seed alone, whatever the machine: those that search, with a
    fixed number of rollouts and no time budget (the tests and the benchmarks use it)."""

    name: str
    make: Callable[[int | None], Policy]
    label: str
    description: str
    budgeted: Callable[[int | None, float, Clock], Policy] | None = None
    steady: Callable[[int | None], Policy] | None = None

    def make_steady(self, seed: int | None) -> Policy:
        return (self.steady or self.make)(seed)


#: The rollouts a searching bot's steady form plays at each searched decision.
STEADY_ROLLOUTS = 6


BOTS: dict[str, BotLevel] = {level.name: level for level in (
    BotLevel(RandomBot.name, RandomBot, gettext_noop("random"),
             gettext_noop("plays any legal move")),
    BotLevel(GreedyBot.name, GreedyBot, gettext_noop("greedy"),
             gettext_noop("a heuristic player")),
    BotLevel(SearchBot.name, SearchBot, gettext_noop("search"),
             gettext_noop("weighs a few moves ahead, thinks for a moment"),
             budgeted=lambda seed, budget, clock: SearchBot(seed, budget=budget, clock=clock),
             steady=lambda seed: SearchBot(seed, budget=math.inf, rollouts=STEADY_ROLLOUTS)),
    BotLevel(ExpertBot.name, ExpertBot, gettext_noop("expert"),
             gettext_noop("the strongest: reads the other hands from the play, thinks for "
                          "a moment"),
             budgeted=lambda seed, budget, clock: ExpertBot(seed, budget=budget, clock=clock),
             steady=lambda seed: ExpertBot(seed, budget=math.inf, rollouts=STEADY_ROLLOUTS)),
)}
BOT_NAMES = tuple(BOTS)

#: The level whose move a hint at a live table suggests (``games/live/hints.py``): the
#: strongest level there is.
HINT_LEVEL = "expert"


def make_bot(name: str, seed: int | None = None, *, budget: float | None = None,
             clock: Clock | None = None) -> Policy:
    """The bot called ``name``, seeded; ``ValueError`` naming the known bots otherwise.
    ``budget`` (seconds per decision, by default 0.2) and ``clock`` (by default wall
    time, ``time.perf_counter``) apply to the bots that search; others ignore them."""
    try:
        level = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None
    if level.budgeted is not None and (budget is not None or clock is not None):
        return level.budgeted(seed, DEFAULT_BUDGET if budget is None else budget,
                              time.perf_counter if clock is None else clock)
    return level.make(seed)
