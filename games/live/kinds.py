"""What a live table of an app's kind tells and asks the app that seated it: the handler a
finished table calls, the one told when substitutes begin to play for people gone, who may
watch one in play, whether its chat is open, and what its seats and its event are called.

An app that plays its own games at live tables (a tournament's match, say) registers a
handler for its kind of table in its ``AppConfig.ready()`` (``on_finished``); such a table
names that kind in ``reports_to`` and the app's own reference in ``result_ref``. When the
game ends the handler is called with the table, under the table's row lock and in the
transaction that marks it reported (``followups.report_result``), so what it writes and
the mark commit together. ``games`` so never imports the apps that build on it, and no
table names code to run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .models import LiveTable

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

#: Called with the finished table (its ``record`` written, ``result_ref`` the caller's).
FinishedHandler = Callable[[LiveTable], None]

_HANDLERS: dict[str, FinishedHandler] = {}


def on_finished(kind: str, handler: FinishedHandler) -> None:
    """Call ``handler`` when a table with ``reports_to == kind`` finishes."""
    if _HANDLERS.get(kind, handler) is not handler:
        raise AssertionError(f"two handlers for finished tables of kind {kind!r}")
    _HANDLERS[kind] = handler


def finished_handler(kind: str) -> FinishedHandler:
    """The handler for ``kind``; a table naming a kind nobody registered is a bug."""
    try:
        return _HANDLERS[kind]
    except KeyError:
        raise LookupError(f"no handler for finished live tables of kind {kind!r}; register "
                          "one with games.live.kinds.on_finished in an app's ready()") \
            from None


#: Whether ``user`` (holding no seat; None or anonymous when logged out) may watch ``table``.
WatchPolicy = Callable[[LiveTable, "AbstractBaseUser | AnonymousUser | None"], bool]

_WATCHERS: dict[str, WatchPolicy] = {}


def on_watch(kind: str, policy: WatchPolicy) -> None:
    """Ask ``policy`` who may watch a table of ``kind``, in play or finished (without one,
    anyone may, as at a practice table). A table it lets the public (a visitor not logged
    in) watch, it must let every logged-in user watch too: ``/tables/`` lists such a table
    for anyone from one answer it keeps a few seconds (``listing``)."""
    if _WATCHERS.get(kind, policy) is not policy:
        raise AssertionError(f"two watch policies for live tables of kind {kind!r}")
    _WATCHERS[kind] = policy


def may_watch(table: LiveTable, user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """Whether ``user``, holding no seat at ``table``, may watch it, in play or finished, as
    the policy of its kind says (an app may keep a finished game secret a while: the other
    tables of a duplicate round play the same cards)."""
    policy = _WATCHERS.get(table.reports_to)
    return policy is None or policy(table, user)


#: Whether the people at ``table`` and its spectators may chat now (``chat``).
ChatPolicy = Callable[[LiveTable], bool]

_CHATS: dict[str, ChatPolicy] = {}


def on_chat(kind: str, policy: ChatPolicy) -> None:
    """Ask ``policy`` whether a table of ``kind`` has its chat open now (without one, it
    has, as a practice table). An app closes it where a word could give away what a
    player may not know yet: a duplicate round's other tables play the same cards."""
    if _CHATS.get(kind, policy) is not policy:
        raise AssertionError(f"two chat policies for live tables of kind {kind!r}")
    _CHATS[kind] = policy


def chat_open(table: LiveTable) -> bool:
    """Whether ``table``'s chat is open now, as the policy of its kind says."""
    policy = _CHATS.get(table.reports_to)
    return policy is None or policy(table)


#: Called with the table and the seats whose substitute began to play for a person gone past
#: the grace (``presence.check_away``), under the table's lock and in that transaction.
SubstitutedHandler = Callable[[LiveTable, list[int]], None]

_SUBSTITUTED: dict[str, SubstitutedHandler] = {}


def on_substituted(kind: str, handler: SubstitutedHandler) -> None:
    """Call ``handler`` when substitutes take seats at a table of ``kind`` for people gone (so
    the app can tell them; a kind without one tells nobody, as at a practice table)."""
    if _SUBSTITUTED.get(kind, handler) is not handler:
        raise AssertionError(f"two handlers for substitutes at live tables of kind {kind!r}")
    _SUBSTITUTED[kind] = handler


def substituted(table: LiveTable, seats: list[int]) -> None:
    """Tell the app of ``table``'s kind that substitutes play ``seats`` now."""
    handler = _SUBSTITUTED.get(table.reports_to)
    if handler is not None and seats:
        handler(table, seats)
# -- what a table of a kind is called --------------------------------------------------
# The seats' people, the teams and the event, which the table's pages, the replay, the
# list of tables and the home page show: only the app that seated the table knows them.


@dataclass(frozen=True)
class EventPart:
    """One part of what a table is played for, in words, and the page it links to ("" for
    words that link nowhere)."""

    words: str
    url: str = ""


@dataclass(frozen=True)
class Described:
    """What the app that seated a table calls it. ``people``: for each seat (seat 0
    first), the person it is played for, whether or not they have a login and whether or
    not a bot plays for them ("" for a bot's own seat, or where the app has no name: the
    user's name is shown then). ``teams``: the two teams' names (seats 0 and 2 first;
    empty: the table's own words). ``event``: what the table is played for, widest first
    (a tournament, its round, the match; empty: nothing, as a practice table)."""

    people: tuple[str, ...] = ("", "", "", "")
    teams: tuple[str, ...] = ()
    event: tuple[EventPart, ...] = ()


#: What the tables of the kind are called, by table id (a table left out keeps its own
#: words); asked only of tables the visitor may see, all those of a page at once.
Describer = Callable[[Sequence[LiveTable]], dict[int, Described]]

_DESCRIBERS: dict[str, Describer] = {}


def on_describe(kind: str, describer: Describer) -> None:
    """Ask ``describer`` what tables of ``kind`` and their seats are called (without one,
    a table is called by its users' names and its bots' places)."""
    if _DESCRIBERS.get(kind, describer) is not describer:
        raise AssertionError(f"two describers for live tables of kind {kind!r}")
    _DESCRIBERS[kind] = describer


def described(tables: Sequence[LiveTable]) -> dict[int, Described]:
    """What ``tables`` are called, by id, as the describers of their kinds say (each asked
    once, for all its tables): ask only once the visitor may see them (``service.seat_of``,
    ``may_watch``)."""
    by_kind: dict[str, list[LiveTable]] = {}
    for table in tables:
        by_kind.setdefault(table.reports_to, []).append(table)
    found: dict[int, Described] = {}
    for kind, group in by_kind.items():
        describer = _DESCRIBERS.get(kind)
        if describer is not None:
            found.update(describer(group))
    return found
