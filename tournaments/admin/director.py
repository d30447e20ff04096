"""The director's view of a round played online: every live table of the round on one
page, following the games as they go (hand, score, whose turn, each seat's person or bot,
connected or not, time left), and from it the director pauses and resumes a table, seats
a person's substitute bot for the rest of the game or gives the seat back, adds time, and
messages every table. It shows no card of any hand (``games.live.summary``).

As in the console, every button is a POST with Django's CSRF check to one view calling
one service, a refusal comes back as the service's sentence, and the tournament is found
through the scoped tournament admin, so an organiser reaches only their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.users import RequestUser
from games.live.summary import SeatSummary, TableSummary, summaries
from games.vocabulary import bot_label
from tournaments import selectors, services
from tournaments.models import Match, Player, Round, Tournament

from .console import scoped_tournament, tournament_pages
from .rounds import REFRESH_SECONDS


def director_urls(model_admin: admin.ModelAdmin[Any]) -> list[Any]:
    """``<id>/director/``, its live fragment and the view its buttons post to."""
    return tournament_pages(model_admin, "director", director_view, director_live,
                            director_do)


def director_url(tournament: Tournament | int) -> str:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return reverse("admin:tournaments_tournament_director", args=[pk])


@dataclass
class SeatLine:
    summary: SeatSummary
    name: str
    bot_name: str


@dataclass
class TableLine:
    match: Match
    number: int
    state: TableSummary
    seats: list[SeatLine]


def _round(tournament: Tournament) -> Round | None:
    """The round being played online: the latest published one."""
    return tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()


def _context(tournament: Tournament, user: RequestUser) -> dict[str, Any]:
    round = _round(tournament)
    lines: list[TableLine] = []
    # an organiser who plays in a secret duplicate round sees none of its games' states
    # (``selectors.may_see_game``): the other tables play the boards still to come to theirs
    secret = round is not None and selectors.boards_hidden_from(round, user)
    if round is not None and not secret:
        matches = list(round.matches.exclude(live_table=None)
                       .select_related("table").prefetch_related("seats__player"))
        states = summaries(m.live_table_id for m in matches if m.live_table_id)
        for match in matches:
            state = states.get(match.live_table_id or 0)
            if state is None:
                continue
            players = {seat.position: seat.player for seat in match.seats.all()}
            lines.append(TableLine(match, match.table.number if match.table else 0, state, [
                SeatLine(seat, _seat_name(players.get(seat.seat), seat),
                         bot_label(seat.bot) if seat.bot else "")
                for seat in state.seats]))
    lines.sort(key=lambda line: line.number)
    playing = [line for line in lines if line.state.playing]
    return {"round": round, "tables": lines, "playing": len(playing), "secret": secret,
            "live": bool(playing),
            "action_url": reverse("admin:tournaments_tournament_director_do",
                                  args=[tournament.pk])}


def _seat_name(player: Player | None, seat: SeatSummary) -> str:
    """The paired player, and the login playing the seat."""
    if not seat.person:
        return str(player) if player is not None else _("bot")
    return f"{player} ({seat.username})" if player is not None else seat.username


def director_view(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
                  object_id: str) -> HttpResponse:
    tournament = scoped_tournament(model_admin, request, object_id)
    context = _context(tournament, request.user)
    return render(request, "admin/tournaments/director.html", {
        **model_admin.admin_site.each_context(request), **context,
        "opts": model_admin.opts, "original": tournament,
        "title": _("Director: %(tournament)s") % {"tournament": tournament},
        "live_url": reverse("admin:tournaments_tournament_director_live",
                            args=[tournament.pk]),
        "poll_ms": REFRESH_SECONDS * 1000})


def director_live(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
                  object_id: str) -> HttpResponse:
    """The tables alone, which the page asks for every few seconds (``live.js``)."""
    tournament = scoped_tournament(model_admin, request, object_id)
    return render(request, "admin/tournaments/director_body.html",
                  _context(tournament, request.user))


def _number(request: HttpRequest, name: str) -> int | None:
    raw = request.POST.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 9:
        raise services.TournamentUserError(_("%(field)s must be a whole number, not %(value)s.")
                                           % {"field": name, "value": raw[:20]})
    return int(raw)


def director_do(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
                object_id: str) -> HttpResponse:
    """One button: ``do`` (a table's action, or ``message``) and its table, seat, seconds
    or text; back to the page saying what happened or why not (nothing changed then)."""
    tournament = scoped_tournament(model_admin, request, object_id)
    do = request.POST.get("do", "")
    try:
        round = _round(tournament)
        if round is None:
            raise services.TournamentUserError(_("No round is being played."))
        if do == "message":
            sent = services.director_message(round=round, user=request.user,
                                             text=request.POST.get("text", ""))
            said = _("The message went to %(count)d table(s).") % {"count": sent}
        else:
            table = _number(request, "table")
            if table is None:
                raise services.TournamentUserError(_("Say which table."))
            changed = services.director_table_act(
                round=round, user=request.user, action=do, table_id=table,
                seat=_number(request, "seat"), seconds=_number(request, "seconds"))
            said = (_("Done at table %(table)s.") if changed
                    else _("Nothing to change at table %(table)s.")) % {"table": table}
    except services.TournamentUserError as exc:
        messages.error(request, _("Not done: %(reason)s.") % {"reason": str(exc).rstrip(".")})
    else:
        messages.success(request, said)
    return HttpResponseRedirect(director_url(tournament))
