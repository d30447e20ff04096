"""What everyone at a game that is over is told of the rematch offered there
(``rematch``): who offered it, whose seats still wait for their person to accept, and the
new table once it has started. Read only for a table no longer in play, so the updates
sent after every action never ask."""

from __future__ import annotations

from django.urls import reverse

from .models import FriendSeat, FriendTable, LiveTable
from .state import Json


def rematch_view(table: LiveTable) -> Json | None:
    """The rematch offered at ``table`` (None: none, or the game is still on): ``by``, the
    seat of whoever offered it; ``waiting``, the seats whose person has not accepted yet;
    ``table``, the new game once it has started (else None), and ``url``, its page;
    ``waiting_url``, the offer's own page (its seated people's, where it can be started);
    ``ended``, whether the offer was ended unstarted (``limits.end_abandoned_tables``)."""
    if table.status == LiveTable.Status.PLAYING or table.reports_to:
        return None
    offer = FriendTable.objects.filter(rematch_of=table).first()
    if offer is None:
        return None
    seats = list(offer.seats.order_by("seat").values_list("seat", "kind", "user_id"))
    return {"by": next(seat for seat, kind, _user in seats if kind == FriendSeat.Kind.HOST),
            "waiting": [seat for seat, kind, user in seats
                        if kind == FriendSeat.Kind.FRIEND and user is None],
            "table": offer.table_id,
            "url": None if offer.table_id is None else reverse("live:table",
                                                               args=[offer.table_id]),
            "waiting_url": reverse("live:friends", args=[offer.pk]),
            "ended": offer.status == FriendTable.Status.ABANDONED}
