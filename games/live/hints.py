"""Hints at a live table: on request, at the person's own turn, the move the strongest bot
(``games.bots.HINT_LEVEL``) would make from the seat's own observation, with a one-line
reason in words (``games.bots.advice``).

Only at practice and friends' tables (no ``reports_to``): a tournament's or a robot
duplicate's game is the player's own. A hint is stored beside the action log
(:class:`~games.live.models.LiveHint`: the hand, the action it preceded, the seat); the
finished game's record marks the move made after it (``"hint": true``, a field
push-record/1 readers ignore, as they do a bot's ``"bot"``), and the replay shows where
one was used and what it said (:func:`replay_hints`).

Asking is three steps, so that the bot's thinking (``search``: about 0.2 s) runs neither
in the event loop nor under the table's lock: :func:`ask` reads the seat's turn (or finds
the hint already given for it), :func:`think` runs the bot in a thread of
:data:`HINT_THREADS`, and :func:`store` keeps the hint if the table is still where it was.
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from games.bots import HINT_LEVEL, make_bot
from games.bots.advice import Advice, advise
from games.engine import Action, Observation, parse_action
from games.vocabulary import contract_words

from . import rows, service
from .errors import TableError
from .models import LiveHint, LiveTable
from .state import Json, move_of
from .updates import no_table

#: Threads per process that think out hints: a hint costs a bot's decision of CPU, so a
#: crowd asking at once queues here instead of taking every thread of the database's pool.
HINT_THREADS = 2

_pools: dict[int, ThreadPoolExecutor] = {}  # per process (a forked child makes its own)


class HintRefused(TableError):
    """A hint this table or this moment does not give."""

    code = "hint_refused"


@dataclass(frozen=True)
class Asked:
    """A seat's turn to think a hint out for: the table (its ``seq`` when asked), the hand
    and the next action's index in it, and what the seat sees and may do."""

    table: LiveTable
    seat: int
    hand: int
    index: int
    obs: Observation
    legal: list[Action]


def hint_messages() -> dict[str, str]:
    """The words of the table's Hint button (``static/live/hints.js``)."""
    return {"why_hint": _("A hint is for your own turn."),
            "hint_thinking": _("Thinking out a hint…")}


def hints_given(table: LiveTable) -> bool:
    """Whether ``table`` gives hints: a practice or friends' table, one nobody waits for
    (``reports_to``); a tournament's and a robot duplicate's are the players' own play."""
    return not table.reports_to


def ask(table_id: int, seat: int) -> Asked | Json:
    """The turn ``seat`` asks a hint for, or the answer already given for this turn;
    ``TableError`` (nothing stored) where no hint is given: a table that reports its game
    (a tournament's, a duplicate's), a game not on, another seat's turn (R6.1)."""
    table = rows.read_table(table_id)
    if table is None:
        raise no_table(table_id)
    if not hints_given(table):
        raise HintRefused(_("Hints are given only at practice and friends' tables; at a "
                            "tournament's or a duplicate's table the play is your own."))
    given = LiveHint.objects.filter(table_id=table_id, seq=table.seq + 1, seat=seat).first()
    if given is not None:
        return answer(given, seat)
    turn = service.seat_turn(table, seat)
    return Asked(table, seat, turn.hand, turn.index, turn.obs, turn.legal)


def think(asked: Asked) -> Advice:
    """The hint bot's move for ``asked`` and why: decided from the seat's observation only,
    seeded as the table's own bot would be for this turn."""
    bot = make_bot(HINT_LEVEL, service.bot_seed(asked.table.seed, asked.table.seq))
    return advise(asked.obs, asked.legal, bot.choose(asked.obs, asked.legal))


async def think_off_loop(asked: Asked) -> Advice:
    """:func:`think` in a thread of this process's hint pool, awaited."""
    pool = _pools.get(os.getpid())
    if pool is None:
        pool = _pools[os.getpid()] = ThreadPoolExecutor(HINT_THREADS,
                                                         thread_name_prefix="live-hint")
    return await asyncio.get_running_loop().run_in_executor(pool, think, asked)


def store(asked: Asked, advice: Advice) -> Json:
    """Keep the hint for the action after ``asked.table.seq`` and answer it; ``TableError``
    and nothing stored when the table moved on meanwhile (a hint for a passed turn). A
    hint given already for the turn (two asked at once) is the answer."""
    table_id = asked.table.pk
    with transaction.atomic():
        seq = (LiveTable.objects.select_for_update().filter(pk=table_id)
               .values_list("seq", flat=True).first())
        if seq != asked.table.seq:
            raise TableError(_("The table moved on while the hint was thought out; ask "
                               "again on your turn."))
        hint, _created = LiveHint.objects.get_or_create(
            table_id=table_id, seq=seq + 1, seat=asked.seat,
            defaults={"hand": asked.hand, "index": asked.index,
                      "action": str(advice.action),
                      "reason": {"template": advice.template, "values": dict(advice.values),
                                 "hand": advice.hand_no}})
    return answer(hint, asked.seat)


def answer(hint: LiveHint, viewer: int | None) -> Json:
    """``hint`` as its viewer may see it (:func:`details_shown`): where it was used
    (``hand``, ``index``: the action's index in the hand, as the record counts it; ``seq``:
    the table's number when it was asked; ``seat``) and, to whoever may see that seat's
    cards, the suggested ``move`` (structured, as ``state.move_of``) and its ``reason``;
    ``words``, the replay's marker in words (with the reason where it is shown)."""
    shown: Json = {"seq": hint.seq - 1, "hand": hint.hand, "index": hint.index,
                   "seat": hint.seat, "words": _("(A hint was asked for before this move.)")}
    if details_shown(hint.table, viewer, hint.seat):
        reason = reason_words(hint.reason)
        shown.update(move=move_of(parse_action(hint.action)), reason=reason,
                     words=_("(A hint was asked for before this move: %(reason)s)")
                     % {"reason": reason})
    return shown


def details_shown(table: LiveTable, viewer: int | None, seat: int) -> bool:
    """Whether whoever sees ``table`` from ``viewer`` (their seat; None: a spectator) may
    see what a hint suggested to ``seat``: it names that seat's cards, so the seat itself,
    and everyone once the game's record is open (finished or resigned: the replay shows
    every hand then). Who may see the table at all is ``service.seat_of``'s to say."""
    return viewer == seat or table.status in (LiveTable.Status.FINISHED,
                                              LiveTable.Status.RESIGNED)


# The advice's templates are marked for the catalogue where they are written
# (games/bots/advice.py, with gettext_noop); a stored one is translated through this.
_catalogue = gettext


def reason_words(reason: dict[str, Any]) -> str:
    """A stored reason in the active language: its template translated, with its values
    and the hand's contract in words (R3.2)."""
    return _catalogue(reason["template"]) % {**reason["values"],
                                             "contract": contract_words(reason["hand"])}


def replay_hints(table: LiveTable, viewer: int | None) -> list[Json]:
    """The hints used at ``table``, in play order, each as :func:`answer` shows it to
    ``viewer`` (the replay: ``hand`` and ``index`` mark the frame of the action each
    preceded)."""
    return [answer(hint, viewer) for hint in table.hints.select_related("table")]


def marked(replay: dict[str, Any], used: list[Json]) -> dict[str, Any]:
    """The replay's game in words (``games.replay_text.replay_view``) with each action
    that a hint preceded marked, in words: ``words`` of each hint of ``used`` (as
    :func:`replay_hints` gives them) is put after its action's."""
    hands = {hand["hand"]: hand["actions"] for hand in replay["hands"]}
    for hint in used:
        # a hint asked for just before the game was resigned preceded no action
        actions = hands.get(hint["hand"], [])
        if hint["index"] < len(actions):
            actions[hint["index"]] = f"{actions[hint['index']]} {hint['words']}"
    return replay
