"""The organiser's Django admin.

Who sees what is decided in ``scoping`` (an organiser: the tournaments they organise and
everything in them; a superuser: everything); players and teams are shared registries
(``registry``); people's mail addresses and notifications are the operators' alone
(``mail``); each organiser's webhooks are their own (``webhooks``). Every change to a
tournament's course (pairing, publishing, seating bots, playing, results, completing,
recalculating) goes through ``tournaments.services``.
"""

from . import (
    chat,
    checkin,
    derived,
    entries,
    leagues,
    mail,
    matches,
    registry,
    rounds,
    tournament,
    webhooks,
)

__all__ = ["chat", "checkin", "derived", "entries", "leagues", "mail", "matches", "registry",
           "rounds", "tournament", "webhooks"]
