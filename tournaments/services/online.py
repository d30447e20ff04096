"""Online tournaments: each match of a published round is played at a live table
(``games.live``), and the finished game is the match's result, with nobody typing it in.

Publishing a round of an online tournament opens one table per match that bots do not play
alone, dealt from the match's own seed (so the deals are those ``match_deals`` gives, the
same a venue print-out shows) and seated as paired: a player with a login holds their
seat, with the tournament's clock (a time per turn and a reserve) and its bot level as the
substitute for when they are gone longer than its grace; a seat whose player is absent, or
has no login to play with, is played by the tournament's bot level. The table names the
match (``result_ref``) and its kind (``models.LIVE_TABLE_KIND``), whose handler,
:func:`record_live_result`, the app registers (``apps.py``): when the game ends it stores
the verified record through the result service, as the platform's own game.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

from django.db.models import Prefetch, Q

from games.live import director
from games.live.errors import TableError
from games.live.models import LiveTable
from games.live.service import SeatPlan, TablePlan, create_tables
from tournaments.models import LIVE_TABLE_KIND, Entry, Match, Result, Round, Seat, Tournament
from tournaments.selectors import may_see_game

from .errors import ResultExists, ResultRejected, TournamentUserError
from .results import match_store_live_record
from .telling import seats_taken, tables_ready
from .webhooks import tables_opened

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from config.users import RequestUser

log = logging.getLogger(__name__)

def open_live_tables(round: Round) -> int:
    """Open the round's live tables (in the publishing transaction, the round locked, then
    its matches, in the order of their ids); how many were opened. A few queries for them
    all. A round of a tournament played at the venue opens none."""
    tournament = round.tournament
    if tournament.play != Tournament.Play.ONLINE:
        return 0
    matches = list(round.matches.select_for_update(of=("self",))
                   .filter(is_bye=False, live_table__isnull=True)
                   .select_related("table")
                   # each seat, then its player and their login, by their ids: a seat's
                   # default order joins its match's round and table, and a join of them
                   # all could be planned as scans of every player and user
                   .prefetch_related(Prefetch("seats", Seat.objects.order_by("position")),
                                     "seats__player__user")
                   .order_by("pk"))
    opening, plans = [], []
    for match in matches:
        seats = list(match.seats.all())
        if all(seat.is_bot for seat in seats):
            continue  # the round's bot job plays it, as at the venue
        seated = [SeatPlan(user=seat.player.user, substitute=tournament.bot_level)
                  if seat.player is not None and seat.player.user is not None
                  else SeatPlan(bot=seat.bot_level or tournament.bot_level) for seat in seats]
        opening.append(match)
        plans.append(TablePlan(
            seated, seed=match.seed, reports_to=LIVE_TABLE_KIND, result_ref=str(match.pk),
            move_seconds=tournament.turn_seconds,
            reserve_seconds=tournament.reserve_seconds if tournament.turn_seconds else None,
            grace_seconds=tournament.grace_seconds,
            # a table of bots alone has nobody to wait for (and plays at full speed)
            awaiting=tournament.wait_for_players and any(plan.user for plan in seated)))
    for match, table in zip(opening, create_tables(plans), strict=True):
        match.live_table = table
    Match.objects.bulk_update(opening, ["live_table"])
    tables_ready(round, matches)  # each person seated: where their table is
    tables_opened(round, opening)
    return len(opening)


def pin_absent(table_id: int, seat: int) -> None:
    """A player marked absent once their table is open: their seat's substitute plays it
    for the rest of the game (a game over already, or a bot's seat, is left as it is)."""
    try:
        director.pin(table_id, seat)
    except TableError as exc:
        log.info("live table %s, seat %s: no substitute pinned (%s)", table_id, seat, exc)


def may_watch_live_match(table: LiveTable, user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """The watch policy of a tournament's tables. Nobody whom the one rule of who may see a
    game refuses (``selectors.may_see_game``: a secret duplicate round's tables, in play or
    finished, to all but the organisers who do not play in it). Otherwise a finished game
    anyone, and one in play as ``Tournament.spectators`` says: anyone; the tournament's
    players, logged in; or nobody. Its organisers may always."""
    match = (Match.objects.filter(live_table=table).select_related("round__tournament")
             .first())
    if match is None:
        return True
    # the site's users are Django's own model (a websocket's is a lazy one of them)
    if not may_see_game(match, cast("RequestUser | None", user)):
        return False
    tournament = match.round.tournament
    organiser = user is not None and user.is_authenticated and (
        getattr(user, "is_superuser", False)
        or tournament.organisers.filter(pk=user.pk).exists())
    if organiser:
        return True
    if table.status != LiveTable.Status.PLAYING:
        return True
    if tournament.spectators == Tournament.Spectators.ANYONE:
        return True
    if user is None or not user.is_authenticated:
        return False
    return (tournament.spectators == Tournament.Spectators.PLAYERS
            and Entry.objects.filter(tournament=tournament).filter(
                Q(team__player_a__user_id=user.pk) | Q(team__player_b__user_id=user.pk))
            .exists())


def live_chat_open(table: LiveTable) -> bool:
    """The chat policy of a tournament's tables: closed at every table of a round whose
    games are still secret (``selectors.may_see_game`` refuses the public: a duplicate
    round not yet released), where a word about a hand could reach the tables that play
    it next; open otherwise."""
    match = Match.objects.filter(live_table=table).select_related("round").first()
    return match is None or may_see_game(match, None)


def record_live_result(table: LiveTable) -> None:
    """The handler of a finished tournament table: its record becomes the match's result.
    A result already there stands: this table's own, stored before, quietly; any other
    (nothing else may store one while the table plays: ``results._refuse_live``) logged;
    a round closed without it is the organiser's decision, logged. A record the result
    service refuses is a bug (the engine played the game), so it raises and is retried."""
    match = Match.objects.filter(pk=int(table.result_ref)).first()
    if match is None:
        log.warning("%s finished, but its match %s was removed", table, table.result_ref)
        return
    try:
        match_store_live_record(match=match, record=table.record)
    except ResultExists:  # stored before (this handler run again), or decided meanwhile
        source = Result.objects.filter(match=match).values_list("source", flat=True).first()
        if source != Result.Source.ONLINE:
            log.warning("%s finished, but %s already had a result (%s), which stands; the "
                        "table's record was not stored", table, match, source)
        return
    except ResultRejected:
        raise
    except TournamentUserError as exc:
        log.warning("%s finished, but %s took no result: %s", table, match, exc)


def tell_substituted(table: LiveTable, seats: list[int]) -> None:
    """The handler of substitutes taking seats at a tournament table for people gone past
    its grace: each of them is told, with the table's link to come back to."""
    match = (Match.objects.filter(pk=int(table.result_ref)).select_related("round__tournament")
             .first())
    if match is not None:
        seats_taken(match.round, table.pk, seats)
