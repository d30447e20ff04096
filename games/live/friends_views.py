"""The pages of tables for friends (``friends``): opening one, its waiting page (the seats
and, for the host, each friend's link and Start), the waiting page's live part, which the
page asks for again every few seconds (``tournaments/static/tournaments/live.js``), and a
seat's link. Thin: the service decides who may do what, under the table's lock.

A waiting table shows only its seats and who holds them: it has no deal yet. Its page is
its host's and its seated friends' alone; the links are shown to the host only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers, set_response_etag
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import conditional_page, require_POST

from games.vocabulary import bot_description, bot_label

from . import friends, limits
from .errors import TableError
from .forms import FriendsForm
from .models import FriendSeat, FriendTable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: How often a waiting page asks whether someone took a seat or the game started.
POLL_MS = 2000


def _to_login(request: HttpRequest) -> HttpResponse:
    """To the login page, and back to this page after it."""
    return redirect_to_login(request.get_full_path(), reverse("login"))


def friends_new(request: HttpRequest) -> HttpResponse:
    """The form that opens a table for friends, and its answer."""
    user = request.user
    if not user.is_authenticated:
        return _to_login(request)
    form = FriendsForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            table = friends.open_friend_table(
                user, seat=form.cleaned_data["seat"], friends=form.friend_seats(),
                bot=form.cleaned_data["bot"], auto_start=form.cleaned_data["auto_start"])
        except TableError as exc:  # e.g. too many tables open: they are linked
            return render(request, "live/friends_new.html", {
                "form": form, "error": exc.message,
                "open_tables": limits.open_practice_tables(user),
                "waiting_tables": limits.waiting_friend_tables(user)}, status=exc.status)
        return redirect("live:friends", table.pk)
    return render(request, "live/friends_new.html", {"form": form},
                  status=400 if form.is_bound else 200)


def _seats(request: HttpRequest, user: User, table: FriendTable,
           seats: list[FriendSeat]) -> dict[str, Any]:
    """The waiting table as ``user`` sees it: each seat, where it sits from the viewer's,
    who holds it; for the host, the links of the friends' seats still free."""
    mine = next(s.seat for s in seats if s.user_id == user.pk)
    host = table.host_id == user.pk
    # a rematch's seats are its people's alone, taken on their last game's page: no links
    tokens = friends.seat_tokens(table, seats) if host and table.rematch_of_id is None else {}
    rows = []
    for place in seats:
        if place.user is not None:
            who = place.user.get_username()
        elif place.kind == FriendSeat.Kind.BOT:
            who = _("bot (%(level)s)") % {"level": bot_label(table.bot)}
        else:
            who = _("waiting for a friend")
        token = tokens.get(place.seat)
        rows.append({
            "number": place.seat, "who": who, "you": place.seat == mine,
            "host": place.kind == FriendSeat.Kind.HOST, "free": token is not None,
            "place": "" if place.seat == mine else friends.relative_seat(mine, place.seat),
            "link": token and request.build_absolute_uri(reverse("live:friends_join",
                                                                 args=[token])),
        })
    started = table.table_id if table.status == FriendTable.Status.STARTED else None
    return {"friend_table": table, "seats": rows, "is_host": host,
            "waiting": table.status == FriendTable.Status.WAITING,
            "rematch": table.rematch_of_id,
            "abandoned": table.status == FriendTable.Status.ABANDONED,
            "abandon_hours": limits.abandon_hours(), "bot_label": bot_description(table.bot),
            "started_url": reverse("live:table", args=[started]) if started else ""}


def friends_table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The waiting page; once the game has started, its table. (Who may see it is the
    service's to say: a refusal is answered as every PlatformError is.)"""
    user = request.user
    if not user.is_authenticated:
        return _to_login(request)
    table, seats = friends.table_for(user, table_id)
    if table.table_id is not None:
        return redirect("live:table", table.table_id)
    context = _seats(request, user, table, seats)
    response = _fragment(render_to_string("live/_friends_seats.html", context, request=request))
    return render(request, "live/friends_table.html", {
        **context, "poll_ms": POLL_MS, "live_html": mark_safe(response.content.decode()),
        "live_etag": response["ETag"],
        "live_url": reverse("live:friends_seats", args=[table.pk])})


def _fragment(html: str) -> HttpResponse:
    response = HttpResponse(html)
    set_response_etag(response)  # the page and its fragment's answers agree on it
    return response


@conditional_page  # a 304 while the seats are as the page has them
def friends_seats(request: HttpRequest, table_id: int) -> HttpResponse:
    """The waiting page's live part, as the page asks for it again."""
    user = request.user
    if not user.is_authenticated:
        raise Http404(_("Log in to see a table for friends."))
    table, seats = friends.table_for(user, table_id)
    response = _fragment(render_to_string("live/_friends_seats.html",
                                          _seats(request, user, table, seats), request=request))
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


@require_POST
def friends_start(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host starts the game: to its table."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("live:friends", args=[table_id]), reverse("login"))
    game = friends.start_friend_table(request.user, table_id)
    return redirect("live:table", game.pk)


def friends_join(request: HttpRequest, token: str) -> HttpResponse:
    """A seat's link: who invites whom to which seat, and the button that takes it (a
    POST); a link for a seat taken, or a table started or ended, says so."""
    user = request.user
    if not user.is_authenticated:
        return _to_login(request)
    try:
        found = friends.invitation(token)
    except friends.FriendTableError as exc:
        return render(request, "live/friends_join.html", {"error": exc.message},
                      status=exc.status)
    problem: TableError | None = friends.seat_problem(found, user)
    if request.method == "POST" and problem is None:
        try:
            table = friends.take_seat(user, token)
        except TableError as exc:  # meanwhile: taken, started, or too many tables open
            problem = exc
        else:
            return (redirect("live:table", table.table_id) if table.table_id is not None
                    else redirect("live:friends", table.pk))
    elif found.seats[found.seat].user_id == user.pk:
        return redirect("live:friends", found.table.pk)
    host = found.table.host
    return render(request, "live/friends_join.html", {
        "found": found, "host": host.get_username(), "error": problem and problem.message,
        "watch": getattr(problem, "table", None),
        "place": friends.relative_seat(
            next(s.seat for s in found.seats if s.kind == FriendSeat.Kind.HOST), found.seat),
        "bot_label": bot_description(found.table.bot),
    }, status=problem.status if problem is not None and request.method == "POST" else 200)
