"""Which of a round's tables its page shows, and the version of what it shows.

A round of thousands of tables is shown a page at a time (``PAGE_SIZE`` tables in table
order, ``?page=N``), with the tables of the signed-in viewer's own teams at the top and the
round's byes below. The live fragment's ETag is :attr:`RoundPage.version`: a digest of every
value the fragment shows of those tables, read in one query, so that an unchanged fragment
is answered 304 after that query instead of being drawn and then compared.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import BooleanField, ExpressionWrapper, Q, Value
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config.users import RequestUser
from tournaments.models import Match, Round
from tournaments.params import ParameterError, positive_int

from .visibility import boards_hidden_from, plays_q

#: Tables a page of a round shows (besides the viewer's own): about 75 ms of drawing.
PAGE_SIZE = 50

# What the fragment shows of a match whatever the round's secrecy: its table, its teams
# (a rename shows), the players whose seats a substitute takes, and its seats. The bots
# playing for a person at a live table (``matches.mark_live_bots``) are seated when the
# live table opens and never change, so its id stands for them.
_ALWAYS = ("pk", "is_bye", "table__number", "bot_opponent", "live_table_id",
           "team_a_id", "team_a__name", "team_b_id", "team_b__name",
           "team_a__player_a__name", "team_a__player_b__name",
           "team_b__player_a__name", "team_b__player_b__name",
           "seats__position", "seats__player_id", "seats__player__name", "seats__bot_level",
           "seats__substitute")
# What it shows of the game only when the public may see it (``visibility.may_see_game``):
# the status, the result as ``visible_result`` reads it, where the live game stands (each
# action moves ``seq``) and whether it is paused. Left out of a secret round's version, so
# that not even its ETag tells that a table has moved or finished.
_GAME = ("status", "result__id", "result__confirmed", "result__total_a", "result__total_b",
         "result__winner", "result__decided_by", "result__source", "result__bot_share",
         "live_table__status", "live_table__seq", "live_table__paused_at")


@dataclass(frozen=True)
class RoundPage:
    """Page ``page`` of ``pages`` of the round's tables: the matches it lists (``listed``),
    the viewer's own (``own``, shown first), the byes, and the version of it all."""

    page: Page[int]
    listed: list[int]
    own: list[int]
    byes: list[int]
    secret: bool
    version: str

    @property
    def shown(self) -> set[int]:
        return {*self.listed, *self.own, *self.byes}


def page_number(params: Mapping[str, str]) -> int:
    """The ``?page=`` asked for (1 when none), a ``ParameterError`` naming it when it is
    not a whole number from 1."""
    try:
        return positive_int(params, "page") or 1
    except ParameterError as error:
        raise ParameterError("page", _("page: %(problem)s") % {"problem": error.message}) \
            from None


def round_page(round: Round, number: int, user: RequestUser | None) -> RoundPage:
    """Page ``number`` of ``round``'s tables as ``user`` (their own tables first) sees it:
    a ``ParameterError`` when the round has fewer pages. A few queries whatever the round's
    size: the count of its tables, whether its games are secret (none unless it is a
    duplicate round) and the shown values."""
    tables = (round.matches.filter(is_bye=False).order_by("table__number", "pk")
              .values_list("pk", flat=True))
    paginator = Paginator(tables, PAGE_SIZE)
    if number > paginator.num_pages:
        raise ParameterError("page", _("page: round %(round)d has %(pages)d page(s) of "
                                       "tables, not %(number)d") % {
            "round": round.number, "pages": paginator.num_pages, "number": number})
    page = paginator.page(number)
    # the public view, as the page shows everyone (organisers included)
    secret = boards_hidden_from(round, None)
    listed_q = Q(pk__in=page.object_list)
    plays = plays_q(user)
    own = Q(pk__in=Match.objects.filter(plays, round=round, is_bye=False).values("pk")) \
        if plays is not None else None
    shown = listed_q | Q(round=round, is_bye=True)
    rows = list(
        Match.objects.filter(shown | own if own is not None else shown)
        .annotate(listed=_flag(listed_q),
                  own=_flag(own) if own is not None else Value(False))
        .order_by("pk", "seats__position")
        .values_list("listed", "own", *_ALWAYS, *(() if secret else _GAME)))
    listed = _ids(row[2] for row in rows if row[0])
    viewers = _ids(row[2] for row in rows if row[1])
    byes = _ids(row[2] for row in rows if row[3])
    values = repr((round.status, secret, round.tournament.bot_share_limit, number,
                  paginator.num_pages, get_language(), rows))
    return RoundPage(page, listed, viewers, byes, secret,
                     hashlib.sha256(values.encode()).hexdigest()[:32])


def _flag(condition: Q) -> ExpressionWrapper[Q]:
    return ExpressionWrapper(condition, output_field=BooleanField())


def _ids(values: Iterable[int]) -> list[int]:
    return list(dict.fromkeys(values))  # each match once, in the order read
