"""The pages of live tables: "Play now", the table itself and, once the game is over, its
replay and record. Thin: the table service creates tables; the game itself reaches the
browser only through the websocket (consumers.py), seat by seat.

Who sees what: the seat holder plays at their seat; everyone else, staff included, sees
the table as a spectator (the public view: no hand but the sizes), so no page ever shows
a card its viewer may not see. The replay and the record, which hold every card, open
only when the game is over; a game ended unfinished (abandoned) has neither."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine import HANDS_PER_GAME
from games.replay import replay_frames
from games.replay_text import replay_view
from games.views import replay_data
from games.vocabulary import bot_description, bot_label

from . import frames, hints, kinds, limits, listing, presence, service
from .chat_words import chat_messages
from .exit_words import exit_messages
from .forms import PlayNowForm
from .models import LiveSeat, LiveTable
from .naming import table_names
from .table_words import card_table_messages
from .texts import seat_names, table_messages, team_names


def _login_url() -> str:
    return reverse("login")


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """A practice table for the logged-in player (seat 0) against bots of the chosen level."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("home"), _login_url())
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        errors = " ".join(str(error) for error in form.errors.get("bot", []))
        return render(request, "live/play_now.html", {"error": errors}, status=400)
    try:
        table = service.create_practice_table(request.user, form.cleaned_data["bot"])
    except service.TableError as exc:  # e.g. too many tables open: they are linked
        return render(request, "live/play_now.html", {
            "error": exc.message, "bot": form.cleaned_data["bot"],
            "open_tables": limits.open_practice_tables(request.user),
            "waiting_tables": limits.waiting_friend_tables(request.user)}, status=409)
    return redirect("live:table", table.pk)


def tables_now(request: HttpRequest) -> HttpResponse:
    """The tables running now: the visitor's own first ("My tables"), then those they may
    watch (``listing``)."""
    lists = listing.tables_now(request.user)
    return render(request, "live/tables.html", {"lists": lists, "shown": listing.SHOWN})


def _table(table_id: int) -> tuple[LiveTable, list[LiveSeat]]:
    table = LiveTable.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404(_("There is no table with this number."))
    return table, list(table.seats.select_related("user").order_by("seat"))


def _shown(request: HttpRequest, table_id: int) -> tuple[LiveTable, list[LiveSeat], int | None]:
    """The table, its seats and the seat the visitor holds, for a page or file that shows
    its game: one who holds no seat sees it only as the table's kind lets them watch it, in
    play or finished (``service.seat_of``: a finished duplicate table holds the boards the
    others still play); a refusal is ``WatchRefused``, a 403."""
    table, seats = _table(table_id)
    return table, seats, service.seat_of(table.pk, request.user)


def _bot_level(seats: list[LiveSeat]) -> str:
    return next((place.bot for place in seats if place.bot), "")


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table, seats = _table(table_id)
    # a spectator the table's kind refuses: its WatchRefused is a 403 page (error_pages)
    seat = service.seat_of(table.pk, request.user)
    names = table_names(table, seats)
    players, teams = seat_names(names.seats, seat), team_names(seat, names.teams)
    bot = _bot_level(seats)
    return render(request, "live/table.html", {
        "table": table,
        "seat": seat,
        "teams": teams,
        "event": names.event,
        "event_words": names.event_words,
        "bot": bot,
        "bot_label": bot_description(bot) if bot else "",
        "people": sum(place.user_id is not None for place in seats),
        "finished": table.status == LiveTable.Status.FINISHED,
        "abandoned": table.status == LiveTable.Status.ABANDONED,
        "ended": table.status == LiveTable.Status.ENDED,
        "resigned": table.status == LiveTable.Status.RESIGNED,
        "playing": table.status == LiveTable.Status.PLAYING,
        # resigning, leaving and a rematch: a person's own practice or friends' table only
        "can_quit": seat is not None and not table.reports_to,
        # a hint on request: the seat holder's, at a practice or friends' table only
        "hints": seat is not None and hints.hints_given(table),
        "abandon_hours": limits.abandon_hours(),
        "chat_open": kinds.chat_open(table),
        "chat_max": frames.MAX_CHAT_CHARS,
        "messages_data": {**table_messages(teams, players), **card_table_messages(),
                          **exit_messages(), **chat_messages(), **hints.hint_messages()},
        "config": {"ws": f"/ws/tables/{table.pk}/", "seat": seat, "players": players,
                   "teams": teams, "humans": [place.user_id is not None for place in seats],
                   "hands": HANDS_PER_GAME, "login": _login_url(),
                   "heartbeat": presence.HEARTBEAT_SECONDS,
                   "me": request.user.pk if request.user.is_authenticated else None,
                   "bots": [bot_label(place.bot) if place.bot else "" for place in seats],
                   "marks": [place.mark for place in names.seats]},
    })


def _finished(table: LiveTable) -> dict[str, Any] | None:
    """The record of a finished or resigned game; ``None`` while it is in play (it holds
    every card), and for good once it was ended unfinished (abandoned): its hands stay
    secret."""
    if (table.status not in (LiveTable.Status.FINISHED, LiveTable.Status.RESIGNED)
            or not table.record):
        return None
    record: dict[str, Any] = table.record
    return record


def table_replay(request: HttpRequest, table_id: int) -> HttpResponse:
    table, seats, seat = _shown(request, table_id)
    record = _finished(table)
    if record is None:
        return render(request, "live/replay.html", {
            "table": table, "in_play": True, "abandon_hours": limits.abandon_hours(),
            "abandoned": table.status == LiveTable.Status.ABANDONED,
            "ended": table.status == LiveTable.Status.ENDED}, status=403)
    names = table_names(table, seats)
    players, teams = seat_names(names.seats, seat), team_names(seat, names.teams)
    hands = [{"number": hand["hand"], "scores": hand["frames"][-1]["end"]["scores"]}
             for hand in replay_frames(record)["hands"] if hand["frames"][-1]["end"]]
    return render(request, "live/replay.html", {
        "table": table,
        "teams": teams,
        "event": names.event,
        "event_words": names.event_words,
        "hands": hands,
        "totals": record.get("result", {}).get("totals"),
        "replay": hints.marked(
            replay_view(record, teams, [(players[p.seat], not p.user_id) for p in seats]),
            hints.replay_hints(table, seat)),
        "replay_url": reverse("live:replay_data", args=[table.pk]),
    })


def table_replay_data(request: HttpRequest, table_id: int) -> HttpResponse:
    """The finished game's replay frames, fetched by the replay script (404 in play, and
    for an abandoned game)."""
    try:
        table, _seats, seat = _shown(request, table_id)
    except service.WatchRefused as refused:
        return JsonResponse({"detail": refused.message}, status=refused.status)
    record = _finished(table)
    if record is None:
        raise Http404(_("The game is still being played."))
    # what each hint said, beside the frames: the record marks only the move after one
    return replay_data(request, record, {"hints": hints.replay_hints(table, seat)})


def table_record(request: HttpRequest, table_id: int) -> HttpResponse:
    """The finished game's ``push-record/1`` record, as a file to download."""
    try:
        table, _seats, _seat = _shown(request, table_id)
    except service.WatchRefused as refused:
        return JsonResponse({"detail": refused.message}, status=refused.status)
    record = _finished(table)
    if record is None:
        detail = (_("This table was ended after %(hours)s hours without play, before the "
                    "game finished; an unfinished game has no record.")
                  % {"hours": limits.abandon_hours()}
                  if table.status == LiveTable.Status.ABANDONED else
                  _("The organisers ended this table before the game finished; an "
                    "unfinished game has no record.")
                  if table.status == LiveTable.Status.ENDED else
                  _("The game is still being played; its record opens when it ends."))
        return JsonResponse({"detail": detail}, status=403)
    response = JsonResponse(record, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="push-table-{table.pk}.json"'
    return response
