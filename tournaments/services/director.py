"""The director's work at a published online round's live tables: pause and resume a
table, seat a person's substitute bot for the rest of the game (pin) or give the seat
back, add time to a person's clock, and message every table of the round. Only the
tournament's organisers, and none at a table they play at, nor at any table of a secret
duplicate round they play in; each table must be one of that round's. The live tables do the
rest under their own locks (``games.live.director``); a refusal is the table's sentence.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from config.users import RequestUser
from games.live import director
from games.live.errors import TableError
from tournaments.models import Match, Round
from tournaments.selectors import boards_hidden_from

from .access import require_organiser, side_of
from .errors import TournamentUserError
from .telling import seats_taken

#: What a director may do to one table (and whether it names a seat).
TABLE_ACTIONS = {"pause": False, "resume": False, "pin": True, "give_back": True,
                 "add_time": True}


def _table_of(round: Round, table_id: int, user: RequestUser) -> int:
    """The live table, one of ``round``'s, that ``user`` may direct: not one they play at
    (as they may not end it: ``results.match_end_live_table``)."""
    match = Match.objects.filter(round=round, live_table_id=table_id).first()
    if match is None:
        raise TournamentUserError(_("Table %(table)s is not one of round %(number)d's live "
                                    "tables.") % {"table": table_id, "number": round.number})
    if side_of(user, match) is not None:
        raise TournamentUserError(_("An organiser who plays at a table does not direct it; "
                                    "another organiser does."))
    return table_id


def _published(round: Round, user: RequestUser) -> None:
    """The round is being played, and ``user`` directs it from outside: an organiser who
    plays in a secret duplicate round directs none of its tables (every table's result is
    compared with theirs, and a refusal would tell which have finished), as the director's
    page shows them none."""
    if round.status != Round.Status.PUBLISHED:
        raise TournamentUserError(_("Round %(number)d is not being played.")
                                  % {"number": round.number})
    if boards_hidden_from(round, user):
        raise TournamentUserError(_(
            "You play in round %(number)s, whose boards are secret until every table has "
            "finished: another organiser directs its tables.") % {"number": round.number})


def director_table_act(*, round: Round, user: RequestUser, action: str, table_id: int,
                       seat: int | None = None, seconds: int | None = None) -> bool:
    """Do ``action`` (one of ``TABLE_ACTIONS``) at one live table of ``round``; whether it
    changed anything (pausing a paused table does not)."""
    require_organiser(user, round.tournament)
    _published(round, user)
    if action not in TABLE_ACTIONS:
        raise TournamentUserError(_("Unknown action %(action)s; choose from %(names)s.")
                                  % {"action": action, "names": ", ".join(TABLE_ACTIONS)})
    table = _table_of(round, table_id, user)
    if TABLE_ACTIONS[action] and seat is None:
        raise TournamentUserError(_("Say which seat (0 to 3)."))
    try:
        if action == "pause":
            return director.pause(table)
        if action == "resume":
            return director.resume(table)
        assert seat is not None
        if action == "pin":
            pinned = director.pin(table, seat)
            if pinned:  # the person whose seat the bot took for the rest of the game
                seats_taken(round, table, [seat])
            return pinned
        if action == "give_back":
            return director.give_back(table, seat)
        if seconds is None:
            raise TournamentUserError(_("Say how many seconds to add."))
        return director.add_time(table, seat, seconds)
    except TableError as exc:
        raise TournamentUserError(exc.message) from None


def director_message(*, round: Round, user: RequestUser, text: str) -> int:
    """Show ``text`` at every table of ``round`` in play; how many tables got it."""
    require_organiser(user, round.tournament)
    _published(round, user)
    tables = [pk for pk in round.matches.exclude(live_table=None)
              .values_list("live_table_id", flat=True) if pk is not None]
    try:
        return director.send_message(tables, text)
    except TableError as exc:
        raise TournamentUserError(exc.message) from None
