"""Rounds: pair the next one (a draft), publish it, fill empty seats with bots, complete it.

A draft's ``draw_note`` names each pair the organiser asked to keep apart that its format
tried to keep apart and could not (Swiss), and says why, for the organiser to see before
publishing."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.users import RequestUser
from tournaments.formats.base import Pairing, PairingError
from tournaments.models import Job, Match, Round, Seat, Table, Team, Tournament, new_deal_seed
from tournaments.selectors import (
    absent_player_ids,
    boards_hidden,
    marked_absent_ids,
    round_job,
    rounds_total,
    tournament_format,
)

from . import webhooks
from .access import require_organiser
from .derived import standings_rebuild
from .errors import TournamentUserError
from .followups import ratings_later
from .jobs import job_start_round_bots
from .online import open_live_tables, pin_absent
from .telling import round_ended, seats_substituted


def round_pair_next(*, tournament: Tournament, user: RequestUser | None = None) -> Round:
    """Pair the next round as a draft for the organiser to inspect and publish.

    Safe to repeat: while the next round is still a draft, that draft is the answer."""
    if user is not None:
        require_organiser(user, tournament)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
        last = tournament.rounds.order_by("-number").first()
        if last is not None and last.status == Round.Status.DRAFT:
            return last
        if last is not None and last.status != Round.Status.COMPLETE:
            raise TournamentUserError(_("complete round %(number)d before pairing the next")
                                      % {"number": last.number})
        number = last.number + 1 if last else 1
        spec, data = tournament_format(tournament)
        try:  # counting a bracket's rounds draws the bracket, which needs two teams
            total = spec.rounds_total(data)
            pairings = spec.pairings(data, number) if number <= total else []
        except PairingError as exc:
            raise TournamentUserError(str(exc)) from None
        if number > total:
            raise TournamentUserError(_("all %(count)d rounds of %(tournament)s are paired")
                                      % {"count": number - 1, "tournament": tournament})
        unkept = spec.unkept_apart(data, [pairing for _slot, pairing in pairings])
        new = Round.objects.create(tournament=tournament, number=number,
                                   seed=new_deal_seed() if tournament.duplicate else None,
                                   draw_note=_unkept_note(unkept, pairings))
        _create_matches(tournament, new, pairings)
        if tournament.status == Tournament.Status.UPCOMING:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
            webhooks.tournament_started(tournament)
    return new


def _unkept_note(unkept: list[tuple[int, int]],
                 pairings: list[tuple[int | None, Pairing]]) -> str:
    """A line for each pair to keep apart the draw brings together, naming both teams and
    why: the format brought together as few such pairs as any draw of the round could."""
    if not unkept:
        return ""
    names = dict(Team.objects.filter(pk__in={team for pair in unkept for team in pair})
                 .values_list("pk", "name"))
    active = sum(len(pairing.teams) for _slot, pairing in pairings)
    return "\n".join(
        ngettext("%(first)s and %(second)s meet although the organiser asked to keep them "
                 "apart: every draw of the %(teams)d active teams brings together at least "
                 "%(count)d pair to keep apart",
                 "%(first)s and %(second)s meet although the organiser asked to keep them "
                 "apart: every draw of the %(teams)d active teams brings together at least "
                 "%(count)d pairs to keep apart", len(unkept)) % {
            "first": names[home], "second": names[away], "teams": active,
            "count": len(unkept)}
        for home, away in unkept)


def _create_matches(tournament: Tournament, new: Round,
                    pairings: list[tuple[int | None, Pairing]]) -> None:
    """The round's tables, matches and seats as paired, three inserts for them all (the
    matches in the pairings' order, so their ids are too)."""
    teams = Team.objects.in_bulk({t for _slot, p in pairings for t in p.teams})
    absent = absent_player_ids(tournament, new.number)  # or not checked in, where required
    played = [pairing for _slot, pairing in pairings if not pairing.is_bye]
    tables = iter(Table.objects.bulk_create(
        Table(round=new, number=number) for number in range(1, len(played) + 1)))
    matches = []
    for slot, pairing in pairings:
        home = teams[pairing.home]
        if pairing.is_bye:
            matches.append(Match(round=new, team_a=home, is_bye=True, bracket_slot=slot))
            continue
        away = teams[pairing.away] if pairing.away is not None else None
        # a duplicate round deals every match the round's boards, each other its own packs
        matches.append(Match(round=new, table=next(tables), team_a=home, team_b=away,
                             bot_opponent=pairing.against_bot, bracket_slot=slot,
                             **({} if new.seed is None else {"seed": new.seed})))
    Match.objects.bulk_create(matches)
    seats = []
    for match in matches:
        if match.is_bye:
            continue
        home, away = match.team_a, match.team_b
        players = [home.player_a_id, away.player_a_id if away else None,
                   home.player_b_id, away.player_b_id if away else None]
        seats += [_seat(match, new, position, player, tournament.bot_level, absent)
                  for position, player in enumerate(players)]
    Seat.objects.bulk_create(seats)


def _seat(match: Match, new: Round, position: int, player: int | None, bot_level: str,
          absent: set[int]) -> Seat:
    if player is None:  # the house bot team
        return Seat(match=match, round=new, position=position, bot_level=bot_level)
    if player in absent:
        return Seat(match=match, round=new, position=position, bot_level=bot_level,
                    substitute=True)
    return Seat(match=match, round=new, position=position, player_id=player)




def round_fill_seats(*, round: Round, user: RequestUser | None = None) -> int:
    """Seat a bot substitute for every player marked absent since the round was paired.
    Returns how many seats changed; repeating changes nothing more."""
    tournament = round.tournament
    if user is not None:
        require_organiser(user, tournament)
    if round.status == Round.Status.COMPLETE:
        raise TournamentUserError(_("round %(number)d is complete") % {"number": round.number})
    absent = marked_absent_ids(tournament, round.number)
    with transaction.atomic():
        seats = Seat.objects.select_for_update(of=("self",)).filter(
            round=round, player_id__in=absent, match__result__isnull=True)
        # at a live table already open, the seat's substitute plays for the rest of the
        # game (the seats' rows locked first, then each table's, as the results service)
        playing = list(seats.exclude(match__live_table=None)
                       .values_list("match__live_table_id", "position"))
        taken = list(seats.values_list("match_id", "player_id"))
        changed = seats.update(player=None, bot_level=tournament.bot_level, substitute=True)
        for table_id, position in sorted(playing):
            pin_absent(table_id, position)
        if round.status != Round.Status.DRAFT:  # a draft's seats are no one's yet
            seats_substituted(round, [(m, p) for m, p in taken if p is not None])
        return changed


def round_publish(*, round: Round, user: RequestUser | None = None) -> Job | None:
    """Make a draft round official, start playing its all-bot matches in the background
    and, online, open a live table for each other match; ``round`` shows its new status.
    Returns the job playing the all-bot matches (None if no table has bots in every seat).
    Safe to repeat: a round already published starts nothing again, and the answer is its
    existing job."""
    if user is not None:
        require_organiser(user, round.tournament)
    with transaction.atomic():
        locked = (Round.objects.select_for_update(of=("self",)).select_related("tournament")
                  .get(pk=round.pk))
        if locked.status != Round.Status.DRAFT:
            job = round_job(locked)
        else:
            locked.status = Round.Status.PUBLISHED
            locked.save(update_fields=["status"])
            job = job_start_round_bots(locked)
            webhooks.round_published(locked)
            open_live_tables(locked)
            seats_substituted(locked, _absent_when_paired(locked))
    round.refresh_from_db()
    return job


def _absent_when_paired(round: Round) -> list[tuple[int, int]]:
    """``(match id, player id)`` of each player whose seat a bot holds from the start: they
    were absent (or not checked in) when the round was paired, or marked so before it was
    published. Such a seat keeps no player, so the player is read from the teams (seats 0
    and 2 team A's, 1 and 3 team B's, as ``_create_matches`` seats them)."""
    seats = Seat.objects.filter(round=round, substitute=True, player__isnull=True).values_list(
        "match_id", "position", "match__team_a__player_a_id", "match__team_b__player_a_id",
        "match__team_a__player_b_id", "match__team_b__player_b_id")
    return [(match, players[position]) for match, position, *players in seats
            if players[position] is not None]


def round_complete(*, round: Round, user: RequestUser | None = None) -> Round:
    """Close a round whose every match has a confirmed result, and update the standings
    (and, in the background, the ratings). One step: the round's status, its standings and
    the ratings' follow-up commit together, or nothing changes.

    Locks: the tournament (whose standings are rebuilt), the round, then its matches."""
    tournament = round.tournament
    if user is not None:
        require_organiser(user, tournament)
    with transaction.atomic():
        Tournament.objects.select_for_update(of=("self",)).filter(pk=tournament.pk).first()
        locked = Round.objects.select_for_update(of=("self",)).get(pk=round.pk)
        if locked.status == Round.Status.COMPLETE:
            return locked
        if locked.status == Round.Status.DRAFT:
            raise TournamentUserError(_("publish round %(number)d before completing it")
                                      % {"number": locked.number})
        # Round, then its matches: the order of every path that changes a round's results
        # (services.results.lock_match), so none is halfway through a match of it now.
        list(Match.objects.select_for_update(of=("self",)).filter(round=locked)
             .order_by("pk").values_list("pk", flat=True))
        open_matches = locked.matches.filter(is_bye=False).exclude(status=Match.Status.DONE)
        if open_matches.exists():
            count = open_matches.count()
            raise TournamentUserError(
                ngettext("round %(number)d still has %(count)d match without a confirmed result",
                         "round %(number)d still has %(count)d matches without a confirmed "
                         "result", count) % {"number": locked.number, "count": count})
        _record_tie_decisions(locked)
        locked.status = Round.Status.COMPLETE
        locked.save(update_fields=["status"])
        finished = locked.number >= rounds_total(tournament)
        if finished:
            Tournament.objects.filter(pk=tournament.pk).update(
                status=Tournament.Status.FINISHED)
        round_ended(locked, tournament_finished=finished)
        standings_rebuild(tournament=tournament, full=False)
        webhooks.round_completed(locked, tournament_finished=finished)
        ratings_later()  # the round's games are final: every player's rating follows
    return locked


def round_release_boards(*, round: Round, user: RequestUser | None = None) -> Round:
    """Show a duplicate round's boards and every result on them before all its tables have
    finished (``selectors.visibility``: they are shown by themselves once all have), and
    count its results in the standings. Repeating changes nothing."""
    if user is not None:
        require_organiser(user, round.tournament)
    if round.seed is None:
        raise TournamentUserError(_("round %(number)d is not a duplicate round: its matches "
                                    "have their own deals, shown as each ends")
                                  % {"number": round.number})
    if round.status == Round.Status.DRAFT:
        raise TournamentUserError(_("publish round %(number)d before releasing its boards")
                                  % {"number": round.number})
    with transaction.atomic():
        was_hidden = boards_hidden(round)
        if Round.objects.filter(pk=round.pk, boards_released=False).update(
                boards_released=True):
            standings_rebuild(tournament=round.tournament, full=False)
            webhooks.boards_released(round, was_hidden=was_hidden)
            ratings_later()  # the ratings leave out a secret round's games until now
    round.refresh_from_db()
    return round


def _record_tie_decisions(round: Round) -> None:
    """Store which rule decided each drawn game of the round that a bracket needed decided."""
    drawn = list(round.matches.filter(result__winner="d", bracket_slot__isnull=False)
                 .select_related("result"))
    if not drawn:
        return
    spec, data = tournament_format(round.tournament)
    decisions = spec.decisions(data)
    for match in drawn:
        decision = decisions.get((round.number, match.bracket_slot or 0))
        if decision is not None:
            match.result.decided_by = decision.decided_by
            match.result.save(update_fields=["decided_by"])
