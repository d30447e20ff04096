"""Players report their match's result at the venue (issue 11): the score-sheet page, sized
for a phone, and the other team's confirm and dispute buttons on the match page.

Thin like the other views: the services decide who may do what and check every score; this
reads the form, and says what is wrong hand by hand ("hand 3: ...") with nothing stored."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from config.users import RequestUser
from games.engine import HANDS_PER_GAME, score_sheet_errors, team_of
from games.engine.scoresheet import VALUE_STEP
from tournaments import selectors, services
from tournaments.models import Match, Result, Round
from tournaments.selectors.reporting import sheet_lines, side_in, waits_for
from tournaments.selectors.viewmodels import TableView

SCORE = re.compile(r"[0-9]{1,4}")  # a hand is worth at most a pack (PACK_VALUE, R2.4)
SEATS = ("0", "1", "2", "3")


def _match(match_id: int) -> Match:
    match = selectors.public_match(match_id)
    if match is None:
        raise Http404(gettext("There is no public match with this number."))
    return match


def read_sheet(data: QueryDict, names: list[str]) -> tuple[list[Any], list[Any], list[str]]:
    """The five hands of the form (``hand-N-out``: a seat 0..3 or ``none``; ``hand-N-team-T``:
    team T's points), and what keeps it from being a sheet, as sentences naming the hand. A
    blank score of the team that went out is its 0 (R9.1); the engine checks the rest."""
    hand_scores: list[Any] = []
    out_seats: list[Any] = []
    errors: list[str] = []
    for hand in range(1, HANDS_PER_GAME + 1):
        chosen = data.get(f"hand-{hand}-out", "")
        out = None if chosen == "none" else int(chosen) if chosen in SEATS else -1
        if out == -1:
            errors.append(gettext("hand %(hand)d: choose who went out (or nobody, when the "
                                  "stock ran out)") % {"hand": hand})
            out = None
        scores = []
        for team, name in enumerate(names):
            text = data.get(f"hand-{hand}-team-{team}", "").strip()
            if not text and out is not None and out % 2 == team:
                text = "0"
            if not SCORE.fullmatch(text):
                errors.append(gettext("hand %(hand)d: enter the points of %(team)s as a "
                                      "whole number") % {"hand": hand, "team": name})
            scores.append(int(text) if SCORE.fullmatch(text) else 0)
        hand_scores.append(scores)
        out_seats.append(out)
    if not errors:  # the engine's sentences, naming the teams as this page does
        errors = [error.located(gettext, names)
                  for error in score_sheet_errors(hand_scores, out_seats)]
    return hand_scores, out_seats, errors


def _hands(data: QueryDict | None, table: TableView) -> list[dict[str, Any]]:
    """What the form shows for each hand: the went-out choices (each seat, or nobody) and
    the two teams' points, as typed (kept when the sheet comes back with errors)."""
    data = data or QueryDict()
    choices = [(str(seat.position), seat.name, str(team_of(seat.position)))
               for seat in table.seats] + [("none", gettext("Nobody: the stock ran out"), "")]
    hands = []
    for hand in range(1, HANDS_PER_GAME + 1):
        chosen = data.get(f"hand-{hand}-out", "")
        hands.append({
            "number": hand,
            "choices": [{"value": value, "label": label, "team": team,
                         "checked": value == chosen} for value, label, team in choices],
            "teams": [{"index": team, "name": side.name,
                       "value": data.get(f"hand-{hand}-team-{team}", "")}
                      for team, side in enumerate(table.sides)]})
    return hands


@login_required
def score_sheet(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player of the match enters the table's score sheet; it then waits for the other
    team's confirmation (``services.match_submit_score_sheet``)."""
    match = _match(match_id)
    if side_in(request.user, match) is None:
        raise PermissionDenied(gettext("only the players of this match enter its score "
                                       "sheet"))
    table = selectors.table_view(match)
    names = [side.name for side in table.sides]
    errors: list[str] = []
    open_for_entry = (not hasattr(match, "result")
                      and match.round.status == Round.Status.PUBLISHED)
    if request.method == "POST" and open_for_entry:
        hand_scores, out_seats, errors = read_sheet(request.POST, names)
        if not errors:
            try:
                services.match_submit_score_sheet(match=match, hand_scores=hand_scores,
                                                  out_seats=out_seats, user=request.user)
            except services.TournamentUserError as exc:
                errors = [str(exc)]
            else:
                messages.success(request, gettext(
                    "Your score sheet is stored. It counts once a player of the other team "
                    "(or an organiser) confirms it."))
                return redirect("tournaments:match_detail", match.pk)
    return render(request, "tournaments/score_sheet.html", {
        "match": match, "table": table, "tournament": match.round.tournament,
        "round": match.round, "open_for_entry": open_for_entry, "errors": errors,
        "hands": _hands(request.POST if request.method == "POST" else None, table),
        "step": VALUE_STEP}, status=400 if errors else 200)


def _result(match: Match, user: RequestUser) -> Result:
    result = services.result_to_answer(user, match)
    if result is None:
        raise Http404(gettext("This match has no result yet."))
    return result


@require_POST
@login_required
def confirm_result(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    try:
        services.result_confirm(result=_result(match, request.user), user=request.user)
    except services.TournamentUserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, gettext("You confirmed the result: it counts now."))
    return redirect("tournaments:match_detail", match.pk)


@require_POST
@login_required
def dispute_result(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    try:
        services.result_dispute(result=_result(match, request.user), user=request.user,
                                reason=request.POST.get("reason", ""))
    except services.TournamentUserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, gettext("You disputed the result: an organiser will "
                                          "confirm or correct it."))
    return redirect("tournaments:match_detail", match.pk)


def report_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    """What the match page shows its players about reporting: the link to the score sheet,
    or the sheet that waits for them with its Confirm and Dispute buttons."""
    user = request.user
    side = side_in(user, match)
    result = getattr(match, "result", None)
    pending = None
    if result is not None and not result.confirmed and side is not None:
        pending = result  # its players see it before it counts (``visible_result``)
    return {"report": {
        "may_enter": (side is not None and result is None
                      and match.round.status == Round.Status.PUBLISHED),
        "pending": pending,
        "pending_hands": sheet_lines(pending, match) if pending else None,
        "may_confirm": pending is not None and waits_for(user, pending),
        "login": (not user.is_authenticated and match.round.status == Round.Status.PUBLISHED
                  # every table of a secret round alike: which have finished is its secret
                  and (not selectors.may_see_game(match, None)
                       or match.status in (Match.Status.PENDING, Match.Status.AWAITING))
                  and match.seats.filter(player__isnull=False).exists()),
    }}
