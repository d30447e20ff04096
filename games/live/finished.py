"""What a finished live table tells the platform that seated it.

An app that plays its own games at live tables (a tournament's match, say) registers a
handler for its kind of table in its ``AppConfig.ready()`` (``on_finished``); such a table
names that kind in ``reports_to`` and the app's own reference in ``result_ref``. When the
game ends the handler is called with the table, under the table's row lock and in the
transaction that marks it reported (``followups.report_result``), so what it writes and
the mark commit together. ``games`` so never imports the apps that build on it, and no
table names code to run.
"""

from __future__ import annotations

from collections.abc import Callable

from .models import LiveTable

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
                          "one with games.live.finished.on_finished in an app's ready()") \
            from None
