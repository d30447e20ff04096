"""What a tournament director (an organiser) does to a live table from outside the game:
end one whose game cannot finish.

An ended table is ``abandoned``, as a practice table nobody plays at is: over without a
record, no deadline, and no more actions (``service`` refuses them, the bots' and the
timers' tasks find it no longer in play). Whoever ends it decides what the game would have
decided (a tournament enters the match's result in the same transaction); the table itself
only stops, and its connections are told to look again.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils.translation import gettext as _

from . import notify, service
from .errors import TableError
from .models import LiveTable

log = logging.getLogger(__name__)


def end_table(table_id: int, reason: str) -> bool:
    """End the game at the table, under its row lock (in the caller's transaction, when
    there is one): status ``abandoned``, no deadline. Whether it changed anything: False for
    a table already over (finished or ended) or gone. After the commit, the table's group
    is told (``table.changed``), so connected clients read the table again. ``reason`` (why
    it was ended) is logged; ``TableError`` when there is none."""
    reason = reason.strip()
    if not reason:
        raise TableError(_("Say why the table is ended."))
    with transaction.atomic():
        table = LiveTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.status != LiveTable.Status.PLAYING:
            return False
        table.status, table.deadline = LiveTable.Status.ABANDONED, None
        table.save(update_fields=["status", "deadline"])
        seq = table.seq
        transaction.on_commit(lambda: _tell(table_id, seq, reason))
    return True


def _tell(table_id: int, seq: int, reason: str) -> None:
    """Once committed: the log line, and the notice (which clients can do without: they
    also catch up when they resume)."""
    log.warning("live table %s was ended by its organiser at action %s: %s",
                table_id, seq, reason)
    try:
        # A connection catches up only on a number past the one it has (consumers), and
        # ending appends no action: the notice names the next number, and catching up
        # reads the table as it is (abandoned, still at ``seq``).
        notify.group_send(service.group_name(table_id),
                          {"type": "table.changed", "seq": seq + 1})
    except Exception:  # noqa: BLE001 - the table is ended whatever the channel layer does
        log.exception("telling live table %s that it was ended failed", table_id)
