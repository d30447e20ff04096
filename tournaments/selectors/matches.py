"""A round's tables and a match's page: seats, sides, results and hand scores (results as
:mod:`.visibility` lets the public see them)."""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import Prefetch, QuerySet
from django.utils.functional import Promise

from games.live.models import LiveSeat, LiveTable
from games.live.service import progress
from games.vocabulary import bot_label
from tournaments.bot_share import percent, seat_bot_shares
from tournaments.formats.ties import DECIDED_BY_LABELS
from tournaments.models import Match, Result, Round, Seat

from .counted import is_left_out
from .viewmodels import BotPlayed, HandLine, LiveState, SeatView, Side, TableView
from .visibility import PUBLIC_ROUNDS, boards_hidden_from, may_see_game, visible_result

# the labels by any stored text, which a lookup of ``Result.decided_by`` (a str) needs
_DECIDED_BY: dict[str, Promise] = dict(DECIDED_BY_LABELS.items())


def with_details(queryset: QuerySet[Match], *, round: bool = True) -> QuerySet[Match]:
    """The matches with everything a page shows of them, in a fixed number of queries
    (their round and tournament too unless ``round`` is false: a round's own matches
    have them already)."""
    return queryset.select_related(
        "table", "result", *(["round__tournament"] if round else []), "team_a__player_a",
        "team_a__player_b", "team_b__player_a", "team_b__player_b",
    ).prefetch_related(Prefetch("seats", Seat.objects.select_related("player")))


def decided_by(result: Result | None) -> str:
    """What decided a drawn knockout game, as people read it ("" when nothing had to)."""
    if result is None or not result.decided_by:
        return ""
    return str(_DECIDED_BY.get(result.decided_by, result.decided_by))


def seat_views(match: Match) -> list[SeatView]:
    """The four seats in order; a substitute bot knows whose seat it took (positions 0 and 2
    are team A's first and second player, 1 and 3 team B's)."""
    owners = [match.team_a.player_a, match.team_b.player_a if match.team_b else None,
              match.team_a.player_b, match.team_b.player_b if match.team_b else None]
    levels = dict(Seat._meta.get_field("bot_level").choices or [])
    return [SeatView(seat.position, seat.player, str(levels.get(seat.bot_level, seat.bot_level)),
                     seat.substitute, owners[seat.position] if seat.substitute else None)
            for seat in sorted(match.seats.all(), key=lambda s: s.position)]


def side_names(match: Match) -> list[str]:
    """The names of team 0 (seats 0 and 2) and team 1, as a match's pages call them."""
    return [Side(team, []).name for team in (match.team_a, match.team_b)]


def table_view(match: Match, *, bots: bool = True, game_shown: bool | None = None,
               ) -> TableView:
    """The match as its pages show it; with ``bots``, the share of each person's actions
    bots played, which the match's page shows (read from its game record). ``game_shown``:
    ``may_see_game`` for the public, when the caller asked it for the match's round."""
    if game_shown is None:
        game_shown = may_see_game(match, None)
    seats = seat_views(match)
    result = visible_result(match, game_shown=game_shown)
    secret = not game_shown
    sides = [Side(match.team_a, [s for s in seats if s.position % 2 == 0]),
             Side(match.team_b, [s for s in seats if s.position % 2 == 1])]
    if result is not None:
        sides[0].total, sides[1].total = result.total_a, result.total_b
        sides[0].won, sides[1].won = result.winner == "a", result.winner == "b"
    return TableView(match, match.table.number if match.table else None, sides, result,
                     decided_by(result), seats,
                     bots_played=bots_played(result, seats) if bots else [],
                     left_out=is_left_out(result, match.round.tournament),
                     status=str(Match.Status.PLAYING.label if secret
                                else match.get_status_display()))


def bots_played(result: Result | None, seats: list[SeatView]) -> list[BotPlayed]:
    """Each seat whose actions bots played some of for its person, the largest share
    first (read from the game record only when the stored share says there are some)."""
    if result is None or not result.bot_share:
        return []
    names = {seat.position: seat.name for seat in seats}
    shares = sorted(((share, position) for position, share
                     in enumerate(seat_bot_shares(result.record)) if share),
                    key=lambda item: (-item[0], item[1]))
    return [BotPlayed(names.get(position, str(position)), percent(share))
            for share, position in shares]


def round_tables(round: Round, only: Collection[int] | None = None,
                 ) -> tuple[list[TableView], list[Match]]:
    """The round's tables in table order, and its byes (of the matches ``only``, when
    given: a page of them, ``round_page``); the hand and score each live table stands at,
    unless the round's games are secret (``visibility.may_see_game``: even that a table has
    finished is then the round's secret)."""
    # the page shows no game record, the largest column of a played match: left unread
    matches = list(with_details(round.matches.all() if only is None
                                else round.matches.filter(pk__in=only), round=False)
                   .defer("result__record"))
    # asked once for the round (every match of it has the same answer), not once a table
    secret = boards_hidden_from(round, None)
    tables = [table_view(m, bots=False, game_shown=not secret) for m in matches if not m.is_bye]
    live = live_states([t.match.live_table_id for t in tables
                        if t.match.live_table_id and not secret])
    for table in tables:
        if table.match.live_table_id:
            table.live = live.get(table.match.live_table_id)
    if not secret:
        mark_live_bots(tables)
    return sorted(tables, key=lambda t: t.number or 0), [m for m in matches if m.is_bye]


def live_states(table_ids: list[int]) -> dict[int, LiveState]:
    """Where the games at the live tables ``table_ids`` stand, by id, in one query: only
    what a round's page shows (the director's view reads the seats and clocks too,
    ``games.live.summary``), the hand and scores from this process's copy of each game."""
    return {table.pk: LiveState(table.status, progress(table), table.paused_at is not None)
            for table in LiveTable.objects.filter(pk__in=table_ids)
            .only("pk", "status", "seq", "seed", "created", "paused_at")}


def mark_live_bots(tables: list[TableView]) -> None:
    """Mark each seat of a player whom a bot plays for at the match's live table (a
    player without a login, or absent when it opened: ``services.online``), in one query."""
    bots: dict[tuple[int | None, int], str] = {
        (table_id, seat): level for table_id, seat, level in LiveSeat.objects.filter(
            table_id__in=[t.match.live_table_id for t in tables if t.match.live_table_id],
            user__isnull=True).exclude(bot="").values_list("table_id", "seat", "bot")}
    for table in tables:
        for seat in table.seats:
            level = bots.get((table.match.live_table_id, seat.position))
            if level and seat.player is not None:
                seat.played_by = bot_label(level)


def public_match(match_id: int) -> Match | None:
    """A played or playable match of a public round (byes have no match page)."""
    return with_details(Match.objects.filter(pk=match_id, round__status__in=PUBLIC_ROUNDS,
                                             is_bye=False)).first()


def match_is_live(match: Match) -> bool:
    return match.round.status == Round.Status.PUBLISHED and visible_result(match) is None


def match_hands(match: Match, seats: list[SeatView]) -> list[HandLine]:
    result = visible_result(match)
    if result is None:
        return []
    names = {s.position: s.name for s in seats}
    outs = list(result.out_seats) + [None] * (len(result.hand_scores) - len(result.out_seats))
    return [HandLine(i, (scores[0], scores[1]), out, names.get(out, "") if out is not None else "")
            for i, (scores, out) in enumerate(zip(result.hand_scores, outs, strict=False),
                                              start=1)]
