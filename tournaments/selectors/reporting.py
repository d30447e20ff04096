"""What a player reports and confirms at the venue: the results waiting for them.

A score sheet a player enters waits for a player of the other team; these reads find, for
the player who is logged in, which results wait for them and where they sit."""

from __future__ import annotations

from config.users import RequestUser
from games.engine import team_of
from tournaments.models import Match, Result, Seat

from .viewmodels import HandLine


def side_in(user: RequestUser | None, match: Match) -> int | None:
    """The side ``user`` plays on in ``match`` (0: team A, seats 0 and 2; 1: team B), or
    ``None``."""
    if user is None or not user.is_authenticated:
        return None
    position = (Seat.objects.filter(match=match, player__user=user)
                .values_list("position", flat=True).first())
    return None if position is None else team_of(position)


def waits_for(user: RequestUser, result: Result) -> bool:
    """Whether ``result`` waits for ``user`` to confirm or dispute it: unconfirmed, not
    disputed, entered by a player of the match on the other side from ``user``."""
    if result.confirmed or result.disputed_by_id is not None or result.entered_by is None:
        return False
    side = side_in(user, result.match)
    entered = side_in(result.entered_by, result.match)
    return side is not None and entered is not None and side != entered


def results_to_confirm(user: RequestUser) -> list[Result]:
    """The results waiting for ``user``'s confirmation, oldest first."""
    if not user.is_authenticated:
        return []
    waiting = (Result.objects.filter(confirmed=False, disputed_by__isnull=True,
                                     entered_by__isnull=False, match__seats__player__user=user)
               .select_related("match__round__tournament", "match__team_a", "match__team_b",
                               "entered_by")
               .order_by("created", "pk").distinct())
    return [result for result in waiting if waits_for(user, result)]


def sheet_lines(result: Result, match: Match) -> list[HandLine]:
    """A result's hands as the match page lists them, for its players to check before they
    confirm it (the public sees none of it until it is confirmed)."""
    names = {seat.position: str(seat) for seat in match.seats.select_related("player")}
    return [HandLine(number, (scores[0], scores[1]), out,
                     names.get(out, "") if out is not None else "")
            for number, (scores, out) in enumerate(zip(result.hand_scores, result.out_seats,
                                                       strict=False), start=1)]
