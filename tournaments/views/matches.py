"""The match page: scores per hand, the replay of the game record, and the record itself.

The replay's frames are not in the page: the replay script fetches them from
``matches/<id>/replay.json`` (``games.views.replay_data``, which a live table's replay uses
too) when the viewer comes near the screen or is used. The page itself has the game in
words."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from games.replay_text import replay_view
from games.views import replay_data
from tournaments import selectors
from tournaments.models import Match

from .live import fragment, live_context, render_fragment
from .reporting import report_context


def _match(match_id: int) -> Match:
    match = selectors.public_match(match_id)
    if match is None:
        raise Http404(_("There is no public match with this number."))
    return match


def _context(match: Match) -> dict[str, Any]:
    table = selectors.table_view(match)
    result = table.result
    replay = None
    if result is not None and result.record:
        replay = replay_view(result.record, [side.name for side in table.sides],
                             [(seat.name, seat.is_bot) for seat in table.seats])
    return {"match": match, "table": table, "tournament": match.round.tournament,
            "round": match.round, "result": result,
            "hands": selectors.match_hands(match, table.seats),
            "replay": replay,
            "replay_url": reverse("tournaments:match_replay", args=[match.pk]),
            "boards_hidden": selectors.boards_hidden(match.round),
            **live_context(selectors.match_is_live(match))}


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    context = _context(match)
    return render(request, "tournaments/match_detail.html", {
        **context, **fragment(request, "tournaments/_match_live.html", context),
        **report_context(request, match)})


def match_live(request: HttpRequest, match_id: int) -> HttpResponse:
    return render_fragment(request, "tournaments/_match_live.html", _context(_match(match_id)))


def match_replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """The replay's frames, for the page's script: only of a result the public may see
    (a 404 for an unconfirmed result, a game being played or a score sheet)."""
    result = selectors.visible_result(_match(match_id))
    if result is None or not result.record:
        raise Http404(_("This match has no game record to replay."))
    return replay_data(request, result.record)


def match_record(request: HttpRequest, match_id: int) -> HttpResponse:
    """The stored ``push-record/1`` game, as a file to download."""
    result = selectors.visible_result(_match(match_id))
    if result is None or not result.record:
        raise Http404(_("This match has no game record."))
    response = JsonResponse(result.record, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="push-match-{match_id}.json"'
    return response

