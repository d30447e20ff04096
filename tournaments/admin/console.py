"""The organiser's console: one page per tournament that shows where it stands (its latest
round, the round's status, each table with its result in or missing, the bot job's
progress) and offers the steps of a round as buttons, the next one first, each saying what
it will do or why it does not apply now. A draft's draw is edited here too (swap two teams,
swap a team's seats, move a table).

Every button is a POST (with Django's CSRF check) to one view that calls one service; a
refused step comes back as the service's sentence, never a 500. The tournament is found
through the scoped tournament admin, so an organiser reaches only the tournaments they
organise; another's answers 404.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import admin, messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import PlatformError
from tournaments import selectors, services
from tournaments.models import Match, Round, Seat, Tournament

from .matches import end_table_url, table_in_play
from .rounds import REFRESH_SECONDS, result_summary
from .schedule import SCHEDULE_STEPS, schedule_context, schedule_step
from .scoping import change_url, console_url, link, progress, with_next

ROUND_STEPS = {"fill", "publish", "play", "complete"}


def console_link(tournament: Tournament) -> SafeString:
    return format_html('<a class="console-link" href="{}">{}</a>', console_url(tournament),
                       _("Console: run the rounds"))


TournamentView = Callable[[admin.ModelAdmin[Any], HttpRequest, str], HttpResponse]


def tournament_pages(model_admin: admin.ModelAdmin[Any], name: str, page: TournamentView,
                     live: TournamentView, do: TournamentView) -> list[Any]:
    """A page of the tournament admin, ``<id>/<name>/``, with its live fragment
    (``live/``) and the view its buttons post to (``do/``), each an admin view."""
    def wrap(view: TournamentView, post: bool = False) -> Any:
        def bound(request: HttpRequest, object_id: str) -> HttpResponse:
            return view(model_admin, request, object_id)
        return model_admin.admin_site.admin_view(require_POST(bound) if post else bound)
    return [
        path(f"<path:object_id>/{name}/", wrap(page), name=f"tournaments_tournament_{name}"),
        path(f"<path:object_id>/{name}/live/", wrap(live),
             name=f"tournaments_tournament_{name}_live"),
        path(f"<path:object_id>/{name}/do/", wrap(do, post=True),
             name=f"tournaments_tournament_{name}_do"),
    ]


def console_urls(model_admin: admin.ModelAdmin[Any]) -> list[Any]:
    """The console's pages, under the tournament admin."""
    return tournament_pages(model_admin, "console", console_view, console_live, console_do)


@dataclass
class SideRow:
    side: int
    name: str
    seats: str
    team: int | None


@dataclass
class TableRow:
    match: Match
    number: int
    sides: list[SideRow]
    result: str
    has_result: bool
    url: str
    end_url: str = ""  # being played at a live table: where the organiser may end it


def scoped_tournament(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
                object_id: str) -> Tournament:
    tournament = model_admin.get_object(request, object_id)  # None outside the user's
    if tournament is None:
        raise Http404(_("No tournament of yours has this number."))
    assert isinstance(tournament, Tournament)
    return tournament


def console_view(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
                 object_id: str) -> HttpResponse:
    tournament = scoped_tournament(model_admin, request, object_id)
    context = _context(request, tournament)
    return render(request, "admin/tournaments/console.html", {
        **model_admin.admin_site.each_context(request), **context,
        "opts": model_admin.opts, "original": tournament,
        "title": _("Console: %(tournament)s") % {"tournament": tournament},
        "live_url": reverse("admin:tournaments_tournament_console_live", args=[tournament.pk]),
        "poll_ms": REFRESH_SECONDS * 1000})


def console_live(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
                 object_id: str) -> HttpResponse:
    """The console's body alone, which the page asks for every few seconds while the bot
    matches are played (``tournaments/live.js``)."""
    tournament = scoped_tournament(model_admin, request, object_id)
    return render(request, "admin/tournaments/console_body.html",
                  _context(request, tournament))


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    view = selectors.tournament_console(tournament)
    round = view.round
    draft = round is not None and round.status == Round.Status.DRAFT
    # an organiser who plays in a secret duplicate round sees nothing of its tables (their
    # results, how many are done, the steps that count them), as in the director's view
    secret = round is not None and selectors.boards_hidden_from(round, request.user)
    rows = [] if secret else [_row(match, tournament) for match in view.tables]
    return {"console": view, "round": round, "rows": rows, "draft": draft, "secret": secret,
            "waiting": _waiting(view),
            "job_progress": progress(view.job) if view.job else "",
            "job_link": link(view.job, _("job page")) if view.job else "",
            "round_link": link(round, _("round page")) if round else "",
            "action_url": reverse("admin:tournaments_tournament_console_do",
                                  args=[tournament.pk]),
            **schedule_context(tournament),
            "teams_at_tables": [(side.team, _("%(team)s (table %(table)d)") % {
                "team": side.name, "table": row.number})
                for row in rows for side in row.sides if side.team is not None]}


def _row(match: Match, tournament: Tournament) -> TableRow:
    seats = {seat.position: seat for seat in match.seats.all()}
    sides = []
    for side, team in enumerate((match.team_a, match.team_b)):
        names = [_seat_name(seats.get(position)) for position in (side, side + 2)]
        sides.append(SideRow(side, str(team) if team else _("the bot team"),
                             " · ".join(f"{position} {name}" for position, name
                                        in zip((side, side + 2), names, strict=True)),
                             team.pk if team else None))
    assert match.table is not None  # the console lists byes apart: each row is at a table
    back = console_url(tournament)  # a result entered from the match's pages comes back here
    return TableRow(match, match.table.number, sides, result_summary(match),
                    hasattr(match, "result"), with_next(change_url(match), back),
                    with_next(end_table_url(match), back) if table_in_play(match) else "")


def _seat_name(seat: Seat | None) -> str:
    if seat is not None and seat.player is not None:
        return str(seat.player)
    return _("bot for an absent player") if seat is not None and seat.substitute else _("bot")


def _waiting(view: selectors.ConsoleView) -> str:
    """What the organiser waits for when no step applies."""
    if view.next is not None:
        return ""
    if view.over:
        return view.over
    round = view.round
    if round is not None and round.status == Round.Status.PUBLISHED:
        missing = len(view.tables) - view.results_in
        if view.live:
            return _("The bot matches are being played; this page follows them.")
        if view.live_tables is not None and view.live_tables.playing:
            return _("%(count)d table(s) are being played online; each result comes by "
                     "itself when its game ends. A table whose game cannot finish can be "
                     "ended from its row below.") % {"count": view.live_tables.playing}
        return _("Waiting for %(count)d result(s): enter them from the tables below (or "
                 "players report them); then complete the round.") % {"count": missing}
    pair = view.steps[0]
    return pair.reason


def console_do(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
               object_id: str) -> HttpResponse:
    """Take one step (``step`` in the POST) and come back to the console saying what
    happened, or why it could not be done; nothing is changed by a refused step."""
    tournament = scoped_tournament(model_admin, request, object_id)
    step = request.POST.get("step", "")
    try:
        said, warnings = _take(step, tournament, request)
    except (services.TournamentUserError, BadRequest) as exc:
        messages.error(request, _("Not done: %(reason)s.") % {"reason": str(exc).rstrip(".")})
    else:
        messages.success(request, said)
        for warning in warnings:
            messages.warning(request, capfirst(warning) + ".")
    return HttpResponseRedirect(console_url(tournament))


class BadRequest(PlatformError):
    """A POST the console's own buttons would not send; the message says what was wrong."""


def _take(step: str, tournament: Tournament,
          request: HttpRequest) -> tuple[str | SafeString, list[str]]:
    user = request.user
    if step == "pair":
        round = services.round_pair_next(tournament=tournament, user=user)
        return _("Round %(number)d is paired as a draft: check its tables below, change "
                 "them if needed, then publish it.") % {"number": round.number}, []
    if step in SCHEDULE_STEPS:
        return schedule_step(step, tournament, request), []
    if step in ROUND_STEPS or step in DRAFT_EDITS:
        round = _round(tournament, request)
        if selectors.boards_hidden_from(round, user):  # its refusals would count tables
            raise services.TournamentUserError(_(
                "you play in round %(number)d, whose boards are secret until every table has "
                "finished: another organiser runs its steps") % {"number": round.number})
        if step in DRAFT_EDITS:
            edit = DRAFT_EDITS[step](round, request)
            return _("The draw of round %(number)d is changed: %(edit)s.") % {
                "number": round.number, "edit": edit.description}, edit.warnings
        return ROUND_ACTIONS[step](round, request), []
    raise BadRequest(_("unknown step %(step)r: use the console's buttons") % {"step": step})


def _round(tournament: Tournament, request: HttpRequest) -> Round:
    round = Round.objects.filter(tournament=tournament,
                                 pk=_number(request, "round", _("the round"))).first()
    if round is None:
        raise BadRequest(_("that round is not one of %(tournament)s's") % {
            "tournament": tournament})
    return round


def _number(request: HttpRequest, name: str, what: str) -> int:
    value = request.POST.get(name, "").strip()
    if not value.isdigit() or len(value) > 9:
        raise BadRequest(_("choose %(what)s (%(name)s must be a whole number, got "
                           "%(value)r)") % {"what": what, "name": name, "value": value[:20]})
    return int(value)


def _publish(round: Round, request: HttpRequest) -> str:
    if round.status != Round.Status.DRAFT:
        raise services.TournamentUserError(_("round %(number)d is already %(status)s") % {
            "number": round.number, "status": round.get_status_display()})
    job = services.round_publish(round=round, user=request.user)
    if job is None:
        return _("Round %(number)d is published.") % {"number": round.number}
    return _("Round %(number)d is published; its %(count)d bot match(es) are being played.") \
        % {"number": round.number, "count": job.total}


def _fill(round: Round, request: HttpRequest) -> str:
    changed = services.round_fill_seats(round=round, user=request.user)
    return _("Round %(number)d: %(count)d seat(s) of absent players now have a bot.") % {
        "number": round.number, "count": changed}


def _play(round: Round, request: HttpRequest) -> str:
    job = services.job_play_round_bots(round=round, user=request.user)
    return _("Round %(number)d: %(count)d bot match(es) are being played.") % {
        "number": round.number, "count": job.total}


def _complete(round: Round, request: HttpRequest) -> str:
    services.round_complete(round=round, user=request.user)
    return _("Round %(number)d is complete; the standings are updated.") % {
        "number": round.number}


ROUND_ACTIONS: dict[str, Callable[[Round, HttpRequest], str]] = {
    "publish": _publish, "fill": _fill, "play": _play, "complete": _complete}


def _swap_teams(round: Round, request: HttpRequest) -> services.DraftEdit:
    first = _number(request, "team_1", _("the first team"))
    second = _number(request, "team_2", _("the second team"))
    if first == second:
        raise BadRequest(_("choose two different teams to swap"))
    return services.draft_swap_teams(round=round, team_1=first, team_2=second,
                                     user=request.user)


def _swap_seats(round: Round, request: HttpRequest) -> services.DraftEdit:
    return services.draft_swap_seats(round=round, match_id=_number(request, "match",
                                                                   _("a table")),
                                     side=_number(request, "side", _("a team")),
                                     user=request.user)


def _move_table(round: Round, request: HttpRequest) -> services.DraftEdit:
    return services.draft_move_table(round=round, match_id=_number(request, "match",
                                                                   _("a table")),
                                     number=_number(request, "number", _("a table number")),
                                     user=request.user)


DRAFT_EDITS: dict[str, Callable[[Round, HttpRequest], services.DraftEdit]] = {
    "swap_teams": _swap_teams, "swap_seats": _swap_seats, "move_table": _move_table}
