"""Match results: from a bot-played game, an uploaded game record, an entered score sheet, a
game played at a live table, or an organiser's decision when they end a live table.

Every path checks first and writes after, in one transaction holding the match's round
(shared) and then the match (:func:`lock_match`), so a rejected submission stores nothing,
two submissions cannot both land, and none lands in or leaves a round while it completes
(``round_complete`` takes the round exclusively, then its matches: the same order). A path
that also touches the match's live table locks the table before them, as the finished
table's handler is called holding it. Each path that changes what counts (a confirmed
result stored, confirmed or withdrawn) sends the standings update itself, after its commit.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.utils.translation import gettext

from config.users import RequestUser
from games.bots import make_bot
from games.engine import (
    Verdict,
    deal_mismatch,
    load_record,
    play_game,
    score_sheet_errors,
    verify,
    winner,
)
from games.live.director import end_table, hands_so_far
from games.live.models import LiveTable
from tournaments.bot_share import bot_share as record_bot_share
from tournaments.models import Match, Result, Round, Seat
from tournaments.selectors import side_names

from .access import (
    require_confirmer,
    require_disputer,
    require_organiser,
    require_submitter,
    side_of,
)
from .deals import match_deals
from .derived import out_hands
from .errors import ResultExists, ResultRejected, TournamentUserError
from .followups import schedule_nudge_later, standings_later
from .telling import result_waits
from .webhooks import result_stored


def match_submit_record(*, match: Match, record: Any, user: RequestUser) -> Result:
    """Store the result of an uploaded push-record/1 game, once the engine has verified it
    and, when the platform deals, found it played on the match's own deals.

    Team A sits in seats 0 and 2 (team 0 of the record). It waits for confirmation when the
    tournament asks for it, and, at a venue that deals freely, when a player uploaded it."""
    require_submitter(user, match)
    verdict = verify(record)
    _accept_verdict(verdict)
    decoded = verdict_record_json(record)
    tournament = match.round.tournament
    if tournament.dealing == tournament.Dealing.PLATFORM:
        _check_deals(match, decoded)
    _check_players(match, decoded.get("players"))
    # At a venue that deals freely, only the other team ties a player's record to this match.
    waits = tournament.confirm_score_sheets or (
        tournament.dealing == tournament.Dealing.VENUE and side_of(user, match) is not None)
    return _store(match, Result.Source.RECORD, verdict_scores(verdict), user=user,
                  record=decoded, confirmed=not waits)


def match_submit_score_sheet(*, match: Match, hand_scores: Any, out_seats: Any,
                             user: RequestUser) -> Result:
    """Store an entered score sheet. One a player of the match entered waits for the other
    team to confirm it (double entry); one an organiser entered waits for a second
    organiser when the tournament asks for it."""
    require_submitter(user, match)
    scores = _checked_sheet(match, hand_scores, out_seats)
    needs_confirmation = (match.round.tournament.confirm_score_sheets
                          or side_of(user, match) is not None)
    return _store(match, Result.Source.SHEET, scores, user=user, record=None,
                  confirmed=not needs_confirmation)


def _checked_sheet(match: Match, hand_scores: Any,
                   out_seats: Any) -> tuple[list[list[int]], list[int | None]]:
    errors = score_sheet_errors(hand_scores, out_seats)
    if errors:  # the engine's messages, in the reader's language, naming the match's teams
        teams = side_names(match)
        raise ResultRejected("; ".join(error.located(gettext, teams) for error in errors))
    return [list(s) for s in hand_scores], list(out_seats)


def _locked_result(result: Result) -> Result:
    """The result, locked after its round and match (the services' order), or an error when
    it was withdrawn meanwhile."""
    lock_match(result.match_id)
    locked = (Result.objects.select_for_update(of=("self",))
              .select_related("match__round__tournament", "entered_by")
              .filter(pk=result.pk).first())
    if locked is None:
        raise TournamentUserError(gettext("this result was withdrawn meanwhile"))
    return locked


def result_confirm(*, result: Result, user: RequestUser) -> Result:
    """Confirm a result that waits for it: a player of the other team confirms one a player
    entered (unless they disputed it: then an organiser decides), or an organiser who
    neither entered it nor plays in the match."""
    tournament = result.match.round.tournament
    with transaction.atomic():
        locked = _locked_result(result)
        require_confirmer(user, locked)
        if locked.confirmed:
            return locked
        if locked.disputed_by_id is not None and side_of(user, locked.match) is not None:
            raise TournamentUserError(gettext(
                "this result is disputed, so an organiser confirms or corrects it"))
        assert user.is_authenticated  # require_confirmer lets no one else by
        locked.confirmed, locked.confirmed_by = True, user
        locked.save(update_fields=["confirmed", "confirmed_by"])
        Match.objects.filter(pk=locked.match_id).update(status=Match.Status.DONE)
        standings_later(tournament.pk)
        result_stored(locked, now_confirmed=True)
    return locked


def result_dispute(*, result: Result, user: RequestUser, reason: str = "") -> Result:
    """A player of the other team disputes a result that waits for their confirmation: it
    keeps waiting, counting nowhere, and goes to the organisers (flagged *disputed* in the
    admin), who confirm or correct it."""
    reason = reason.strip()
    limit = Result._meta.get_field("dispute_reason").max_length or 0
    if len(reason) > limit:
        raise TournamentUserError(gettext("Say why in %(limit)d characters at most; nothing "
                                          "was stored.") % {"limit": limit})
    with transaction.atomic():
        locked = _locked_result(result)
        require_disputer(user, locked)
        if locked.confirmed:
            raise TournamentUserError(gettext("this result is already confirmed"))
        assert user.is_authenticated  # require_disputer lets no one else by
        locked.disputed_by, locked.dispute_reason = user, reason
        locked.save(update_fields=["disputed_by", "dispute_reason"])
    return locked


def result_correct(*, result: Result, hand_scores: Any, out_seats: Any,
                   user: RequestUser) -> Result:
    """An organiser settles a result (a disputed one, say) with the score sheet they find
    right: it replaces the scores (and any game record) and counts at once."""
    require_organiser(user, result.match.round.tournament)
    assert user.is_authenticated  # require_organiser lets no one else by
    if side_of(user, result.match) is not None:
        raise PermissionDenied(gettext("an organiser who plays in a match does not settle "
                                       "its result"))
    hand_scores, out_seats = _checked_sheet(result.match, hand_scores, out_seats)
    with transaction.atomic():
        locked = _locked_result(result)
        _refuse_complete(locked.match)
        _refuse_live(locked.match)
        for field, value in _scored(hand_scores, out_seats).items():
            setattr(locked, field, value)
        locked.source, locked.record = Result.Source.SHEET, None
        locked.confirmed, locked.confirmed_by = True, user
        was_confirmed = Result.objects.filter(pk=locked.pk, confirmed=True).exists()
        locked.save()
        Match.objects.filter(pk=locked.match_id).update(status=Match.Status.DONE)
        standings_later(locked.match.round.tournament_id)
        result_stored(locked, now_confirmed=not was_confirmed)
    return locked


def result_withdraw(*, result: Result, user: RequestUser) -> Match:
    """Take back a result entered by mistake: it is deleted and its match waits for a
    result again. Only while its round is open: once a round is complete its results are
    final (standings after it are stored, and the next round is paired on them)."""
    require_organiser(user, result.match.round.tournament)
    with transaction.atomic():
        match = lock_match(result.match_id)
        if match is None:
            raise TournamentUserError(gettext("%(match)s has no result to withdraw")
                                      % {"match": result.match})
        _refuse_complete(match)
        withdrawn = Result.objects.select_for_update().filter(pk=result.pk).first()
        if withdrawn is None:
            raise TournamentUserError(gettext("%(match)s has no result to withdraw")
                                      % {"match": match})
        withdrawn.delete()
        match.status = Match.Status.PENDING
        match.save(update_fields=["status"])
        if withdrawn.confirmed:  # an unconfirmed one never counted
            standings_later(match.round.tournament_id)
    return match


def match_play_bots(*, match_id: int) -> Result | None:
    """Play an all-bot match with the engine and store its verified record as the result.

    Safe to repeat: the match row is locked while the game is played, and a match that has
    a result (or a human in a seat, or was removed, or whose round is not open) is left
    alone. The match is marked being played, and that committed, before the game starts: a
    match so marked that nobody holds locked lost its worker mid-game, and
    ``jobs_recover_stalled`` sends it again."""
    with transaction.atomic():
        if _bot_match_to_play(match_id) is None:
            return None
        Match.objects.filter(pk=match_id).update(status=Match.Status.PLAYING)
    with transaction.atomic():
        match = _bot_match_to_play(match_id)
        if match is None:  # played meanwhile by another copy of this task
            return None
        seats = list(match.seats.order_by("position"))
        record = _play(match, seats)
        verdict = verify(record)
        _accept_verdict(verdict)  # a bug if it fails: the engine played the game itself
        return _write(match, Result.Source.BOTS, verdict_scores(verdict), user=None,
                      record=record, confirmed=True)


def match_store_live_record(*, match: Match, record: Any) -> Result:
    """Store the record of a match played at a live table (``services.online``) as its
    result: verified and played on the match's own deals like an uploaded record, then
    final at once, as the platform's own game (no person entered it)."""
    verdict = verify(record)
    _accept_verdict(verdict)
    _check_deals(match, record)
    decoded = verdict_record_json(record)
    return _store(match, Result.Source.ONLINE, verdict_scores(verdict), user=None,
                  record=decoded, confirmed=True, bot_share=record_bot_share(decoded))


def match_end_live_table(*, match: Match, hand_scores: Any, out_seats: Any, reason: str,
                         user: RequestUser) -> Result:
    """An organiser ends the live table of a match whose game cannot finish (a player gone
    for good, a table that hangs), deciding its result with a score sheet and saying why:
    the result (source *ended*, with the reason) counts at once, and the table stops
    (``games.live.director``), both in one transaction or neither.

    Locks: the live table, then the match's round and the match as every result path takes
    them. The finished-table handler (``online.record_live_result``) is called holding the
    table's lock and stores its record under the round's and the match's, so in this one
    order the two never wait on each other: whichever comes second finds the other's result
    (or the table no longer in play) and changes nothing."""
    require_organiser(user, match.round.tournament)
    if side_of(user, match) is not None:
        raise PermissionDenied(gettext("an organiser who plays in a match does not settle "
                                       "its result"))
    reason = _checked_reason(reason)
    scores = _checked_sheet(match, hand_scores, out_seats)
    table_id = (Match.objects.filter(pk=match.pk).values_list("live_table_id", flat=True)
                .first())
    if table_id is None:
        raise TournamentUserError(gettext("%(match)s is not played at a live table; enter "
                                          "its result as usual") % {"match": match})
    with transaction.atomic():
        LiveTable.objects.select_for_update().filter(pk=table_id).values_list("pk").first()
        result = _store(match, Result.Source.ENDED, scores, user=user, record=None,
                        confirmed=True, reason=reason)
        if not end_table(table_id, reason):
            raise TournamentUserError(gettext(
                "the live table of %(match)s is no longer in play: its game finished (its "
                "result comes by itself) or it was ended already") % {"match": match})
    return result


def match_adjudicate_live_table(*, match: Match, reason: str) -> Result | None:
    """The schedule's hard deadline settles a table still being played (no person decides):
    its finished hands count as played and each hand not finished scores 0-0 with nobody out;
    the result (source *ended*, with ``reason``) counts at once and the table stops, in one
    transaction, in the locks' order of :func:`match_end_live_table`. None when the game
    finished meanwhile (its own result comes by itself) or the match has a result."""
    table_id = (Match.objects.filter(pk=match.pk).values_list("live_table_id", flat=True)
                .first())
    if table_id is None:
        return None
    with transaction.atomic():
        if LiveTable.objects.select_for_update().filter(
                pk=table_id, status=LiveTable.Status.PLAYING).first() is None:
            return None
        played = hands_so_far(table_id)
        sheet = [list(scores) for scores, _out in played] + [[0, 0]] * (5 - len(played))
        outs = [out for _scores, out in played] + [None] * (5 - len(played))
        try:
            # not a score sheet (no hand scores 0 at the table): the engine's own hands, and
            # nothing for those never finished
            result = _store(match, Result.Source.ENDED, (sheet, outs), user=None, record=None,
                            confirmed=True, reason=reason)
        except ResultExists:
            return None
        end_table(table_id, reason)
    return result


def _checked_reason(given: Any) -> str:
    reason = given.strip() if isinstance(given, str) else ""
    limit = Result._meta.get_field("reason").max_length or 0
    if not reason:
        raise TournamentUserError(gettext("say why the table is ended (the reason is shown "
                                          "with the result); nothing was stored"))
    if len(reason) > limit:
        raise TournamentUserError(gettext("say why in %(limit)d characters at most; nothing "
                                          "was stored") % {"limit": limit})
    return reason


def _bot_match_to_play(match_id: int) -> Match | None:
    """The match, locked, if bots still have to play it: published round, no result, a bot
    in each of its four seats, and no live table (whose game alone gives its result)."""
    match = lock_match(match_id)
    if (match is None or match.is_bye or match.round.status != Round.Status.PUBLISHED
            or match.live_table_id is not None
            or Result.objects.filter(match=match).exists()):
        return None
    seats = list(match.seats.all())
    if len(seats) != 4 or any(not seat.is_bot for seat in seats):
        return None
    return match


def lock_match(match_id: int) -> Match | None:
    """Lock the match's round, shared, and then the match (with its round and tournament
    read after the locks are held): the order of every path that changes a round's results.
    The shared lock lets results of the round's other matches land meanwhile (bots play
    them in parallel) but keeps ``round_complete``, which takes the round exclusively, from
    completing the round under a result being stored or withdrawn."""
    round_id = Match.objects.filter(pk=match_id).values_list("round_id", flat=True).first()
    if round_id is None:
        return None
    if connection.features.has_select_for_update:  # SQLite has one writer at a time anyway
        with connection.cursor() as cursor:  # Django's ORM has no FOR SHARE
            cursor.execute(f"SELECT 1 FROM {Round._meta.db_table} WHERE id = %s FOR SHARE",
                           [round_id])
    return (Match.objects.select_for_update(of=("self",)).select_related("round__tournament")
            .filter(pk=match_id).first())


def _refuse_complete(match: Match) -> None:
    if match.round.status == Round.Status.COMPLETE:
        raise TournamentUserError(gettext("round %(number)d is complete, so its results are "
                                          "final") % {"number": match.round.number})


def _refuse_live(match: Match) -> None:
    """A match whose live table is in play takes its result from the table alone: the
    game's record when it ends, or an organiser's decision when they end the table
    (``match_end_live_table``). A score sheet or a record entered meanwhile (by a player,
    an upload, the admin or the API) would stand in for the game being played."""
    if (match.live_table_id is not None and LiveTable.objects.filter(
            pk=match.live_table_id, status=LiveTable.Status.PLAYING).exists()):
        raise TournamentUserError(gettext(
            "%(match)s is being played at its live table: its result comes from the "
            "table's game when it ends, or from an organiser who ends the table in the "
            "director's view; nothing was stored") % {"match": match})


def _play(match: Match, seats: list[Seat]) -> dict[str, Any]:
    level = match.round.tournament.bot_level
    bots = [make_bot(seat.bot_level or level, match.pk * 4 + seat.position) for seat in seats]
    first_dealer, decks = match_deals(match)
    # stored in the record: the same in every language the request may be in
    names = [seat.player.name if seat.player else f"{seat.bot_level} bot" for seat in seats]
    return play_game(bots, first_dealer, decks, players=names).to_json()


def _check_deals(match: Match, record: Any) -> None:
    """A record from another match (names dropped or not) is refused: it must be played on
    this match's packs, hand by hand, with its first dealer."""
    mismatch = deal_mismatch(load_record(record), *match_deals(match))
    if mismatch is not None:
        raise ResultRejected(mismatch.located(gettext), verdict="wrong_deal")


def _check_players(match: Match, names: list[str] | None) -> None:
    """A record that names its players (they are optional) must seat the match's players
    where the match does: its seats 0 and 2 are team A, so a record with the seats turned
    would credit the wrong team. Bot seats may carry any name."""
    if not names:
        return
    for seat in match.seats.select_related("player").order_by("position"):
        named = names[seat.position]
        if seat.player is not None and named.strip().casefold() != seat.player.name.casefold():
            raise ResultRejected(gettext(
                "players[%(position)d]: the record seats %(named)r where the match seats "
                "%(player)r (seats 0 and 2 are team A); correct the names or leave them out")
                % {"position": seat.position, "named": named, "player": seat.player.name})


def _accept_verdict(verdict: Verdict) -> None:
    if verdict.status == "malformed":
        raise ResultRejected(verdict.reason or gettext("malformed record"), verdict="malformed")
    if verdict.status == "illegal":
        assert verdict.error is not None
        raise ResultRejected(verdict.error.reason, hand=verdict.error.hand,
                             action=verdict.error.action, verdict="illegal")
    if verdict.status == "incomplete":
        raise ResultRejected(gettext("the game is incomplete: %(finished)d of 5 hands "
                                     "finished (R3.1)") % {"finished": len(verdict.hands)},
                             verdict="incomplete")


def verdict_scores(verdict: Verdict) -> tuple[list[list[int]], list[int | None]]:
    return ([list(h.scores) for h in verdict.hands], [h.out_seat for h in verdict.hands])


def verdict_record_json(record: Any) -> Any:
    """The record as decoded JSON, for storing (it has been verified, so it parses)."""
    return json.loads(record) if isinstance(record, str | bytes) else record


def _store(match: Match, source: str, scores: tuple[list[list[int]], list[int | None]], *,
           user: RequestUser | None, record: Any, confirmed: bool, reason: str = "",
           bot_share: float = 0.0) -> Result:
    with transaction.atomic():
        locked = lock_match(match.pk)
        if locked is None:
            raise TournamentUserError(gettext("%(match)s was removed") % {"match": match})
        if locked.is_bye:
            raise TournamentUserError(gettext("a bye has no result to enter"))
        if Result.objects.filter(match=locked).exists():
            raise ResultExists(gettext("%(match)s already has a result") % {"match": locked})
        if locked.round.status == locked.round.Status.DRAFT:
            raise TournamentUserError(gettext("publish the round before entering its results"))
        _refuse_complete(locked)
        if source not in (Result.Source.ONLINE, Result.Source.ENDED):
            _refuse_live(locked)
        return _write(locked, source, scores, user=user, record=record, confirmed=confirmed,
                      reason=reason, bot_share=bot_share)


def _write(match: Match, source: str, scores: tuple[list[list[int]], list[int | None]], *,
           user: RequestUser | None, record: Any, confirmed: bool, reason: str = "",
           bot_share: float = 0.0) -> Result:
    result = Result.objects.create(
        match=match, source=source, **_scored(*scores), record=record,
        entered_by=user if user is not None and user.is_authenticated else None,
        confirmed=confirmed, reason=reason, bot_share=bot_share)
    match.status = Match.Status.DONE if confirmed else Match.Status.AWAITING
    match.save(update_fields=["status"])
    if confirmed:
        standings_later(match.round.tournament_id)
        schedule_nudge_later(match.round.tournament_id)
    else:
        side = side_of(user, match) if user is not None else None
        if side is not None:  # a player entered it: the other team confirms it
            result_waits(result, side)
    result_stored(result, now_confirmed=confirmed)
    return result


def _scored(hand_scores: list[list[int]], out_seats: list[int | None]) -> dict[str, Any]:
    """A result's fields that follow from its hands: the totals, the winner and the hands
    each team went out in."""
    total_a = sum(s[0] for s in hand_scores)
    total_b = sum(s[1] for s in hand_scores)
    team = winner((total_a, total_b))  # R9.2; the engine's team 0 sits as team A
    out_a, out_b = out_hands(out_seats)
    return {"hand_scores": hand_scores, "out_seats": out_seats, "total_a": total_a,
            "total_b": total_b, "out_a": out_a, "out_b": out_b,
            "winner": "d" if team is None else "ab"[team]}
