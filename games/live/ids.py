"""Action ids at a live table: the ones a client may give its actions, and the server's
own, which no client id can be, so a client can never plant an id the server will use for
a seat (a bot's move, the stand-in's for a person whose time ran out)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

MAX_CLIENT_ID = 64
#: Letters, digits and ``_ . : -``, beginning with a letter or digit; the server's ids
#: begin with ``!``.
CLIENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]*")


def client_id_problem(client_id: str) -> str | None:
    """What is wrong with ``client_id`` as an id a client sends (``None``: nothing)."""
    if 0 < len(client_id) <= MAX_CLIENT_ID and CLIENT_ID.fullmatch(client_id):
        return None
    return _("An action's id is 1 to %(max)s letters, digits and \"_ . : -\", beginning "
             "with a letter or digit.") % {"max": MAX_CLIENT_ID}


def server_id(kind: str, seq: int) -> str:
    """The id of an action the server chose for a seat at sequence number ``seq``;
    ``kind``: ``bot`` (a bot's seat), ``substitute`` (a person's, while they are gone) or
    ``stand-in`` (a person's turn whose time ran out)."""
    return f"!{kind}-{seq}"
