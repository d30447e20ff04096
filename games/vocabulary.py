"""The game's words for people: the bot levels, the contracts, the kinds of meld and the
cards, translated. What there is comes from the bots' registry (``games.bots.BOTS``) and
the engine (``CONTRACTS``, ``SUITS``, ``RANK_CHARS``, ``Kind``); this only says it, so the
models' choices, the forms, the admin, the replay and the live table take their words from
here and keep no table of their own."""

from __future__ import annotations

from collections import Counter
from typing import get_args

from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext, pgettext

from games.bots import BOTS
from games.engine.cards import RANK_CHARS, SUITS
from games.engine.melds import Kind
from games.engine.state import CONTRACTS

# The bots mark their words with gettext_noop where they are registered (the catalogue has
# them from there); they are translated here, lazily, when a page or form shows them.
_translated = lazy(gettext, str)


# -- bot levels ------------------------------------------------------------------------------


def bot_label(name: str) -> str:
    """A bot level's short label ("greedy"); an unknown level (a row from before it was
    removed) by its name."""
    level = BOTS.get(name)
    return _translated(level.label) if level is not None else name


def bot_description(name: str) -> str:
    """A bot level with how it plays ("greedy: a heuristic player"), as a player chooses
    one; an unknown level by its name."""
    level = BOTS.get(name)
    if level is None:
        return name
    return gettext("%(level)s: %(description)s") % {
        "level": _translated(level.label), "description": _translated(level.description)}


def bot_level_choices() -> list[tuple[str, str]]:
    """Every registered level with its label, for a model field's or form's ``choices`` (a
    callable there, so a level added to the registry needs no migration)."""
    return [(name, bot_label(name)) for name in BOTS]


def bot_picker_choices() -> list[tuple[str, str]]:
    """Every registered level described, for a player choosing the bots of a table."""
    return [(name, bot_description(name)) for name in BOTS]


# -- contracts and melds ---------------------------------------------------------------------


def _count_words(count: int) -> str:
    # As many melds of one shape as a contract asks for (at most three, R3.1), spelled out.
    spelled = {2: pgettext("how many melds", "two"), 3: pgettext("how many melds", "three")}
    return spelled.get(count, str(count))


def _shape_words(kind: Kind, size: int, count: int) -> str:
    values = {"count": _count_words(count), "size": size}
    if kind == "set":
        return ngettext("a set of %(size)s", "%(count)s sets of %(size)s", count) % values
    return ngettext("a run of %(size)s", "%(count)s runs of %(size)s", count) % values


def contract_words(hand_no: int) -> str:
    """Hand ``hand_no``'s contract (R3.1, R7.1) in words, from the engine's ``CONTRACTS``:
    its melds of one kind and size counted together, "two sets of 3", "a set of 3 and a
    run of 4"."""
    shapes = Counter(CONTRACTS[hand_no])  # in the contract's order
    return gettext(" and ").join(_shape_words(kind, size, count)
                                 for (kind, size), count in shapes.items())


def meld_kinds() -> dict[str, str]:
    """Each kind of meld (R5) by the engine's name for it: "set", "run"."""
    words = {"set": gettext("set"), "run": gettext("run")}
    return {kind: words[kind] for kind in get_args(Kind)}


# -- cards -----------------------------------------------------------------------------------


def rank_names() -> dict[str, str]:
    """Each rank by its notation (R2.2): ``A`` "ace", ``2`` ... ``9`` as written, ``T``
    "10", ``J`` "jack", ``Q`` "queen", ``K`` "king"."""
    named = {"A": gettext("ace"), "T": "10", "J": gettext("jack"), "Q": gettext("queen"),
             "K": gettext("king")}
    return {rank: named.get(rank, rank) for rank in RANK_CHARS[1:]}


def suit_names() -> dict[str, str]:
    """Each suit by its notation (R2.2): ``S`` "spades", ``H``, ``D``, ``C``."""
    # the suit in its context: "clubs" alone is the clubs players and teams belong to
    words = {"S": gettext("spades"), "H": gettext("hearts"), "D": gettext("diamonds"),
             "C": pgettext("suit", "clubs")}
    return {suit: words[suit] for suit in SUITS}
