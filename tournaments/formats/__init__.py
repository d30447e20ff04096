"""The tournament formats: one class each (``registry.TournamentFormat``), over the pure
pairing functions of their modules.

Nothing here touches the database (Django's gettext translates the messages, no more): the
selectors hand a format what it asks for (``registry.TournamentData``) and the services
write what it answers. Organiser-facing problems raise :class:`PairingError`; anything else
is a bug.

A new format is one module here and one line in the registration below, which is also the
order of the choices on the tournament form.
"""

from .base import Pairing, PairingError, Placing, PlayedMatch, SeededTeam, SwissTeam, TeamId
from .double_elimination import DoubleElimination
from .knockout import Knockout
from .registry import TournamentData, TournamentFormat, format_of, formats, register
from .round_robin import DoubleRoundRobin, RoundRobin
from .swiss import Swiss

for registered in (RoundRobin, DoubleRoundRobin, Swiss, Knockout, DoubleElimination):
    register(registered)

__all__ = [
    "Pairing",
    "PairingError",
    "Placing",
    "PlayedMatch",
    "SeededTeam",
    "SwissTeam",
    "TeamId",
    "TournamentData",
    "TournamentFormat",
    "format_of",
    "formats",
]
