"""Which confirmed results count in the standings and the ratings: all of them, except, in
a tournament with a ``bot_share_limit``, the games bots played more than that share of some
person's actions in (``tournaments.bot_share``). Those are still shown, marked; the
standings' and the ratings' pure functions never see them."""

from __future__ import annotations

from django.db.models import F, Q, QuerySet

from tournaments.bot_share import left_out
from tournaments.models import Result, Tournament

from .visibility import maybe_secret


def counted_results(tournament: Tournament) -> QuerySet[Result]:
    """The tournament's confirmed results its standings count."""
    return _counted().filter(match__round__tournament=tournament)


def _counted() -> QuerySet[Result]:
    return Result.objects.filter(counts_q("", "match__round__tournament__"), confirmed=True)


def rated_results() -> QuerySet[Result]:
    """Every confirmed result the ratings count, in any tournament (each by its own limit).
    A duplicate round's count once it is completed or its boards released: a rating that
    moved would tell a result the round still keeps secret (``visibility``)."""
    return _counted().exclude(maybe_secret("match__round__"))


def counts_q(result: str, tournament: str) -> Q:
    """The condition a counted result meets, its fields reached through ``result`` and its
    tournament's through ``tournament`` (both lookup prefixes, "" or ending in ``__``): the
    question ``bot_share.left_out`` asks, on the same floating-point numbers."""
    return (Q(**{f"{tournament}bot_share_limit__isnull": True})
            | Q(**{f"{result}bot_share__lte": F(f"{tournament}bot_share_limit") / 100.0}))


def is_left_out(result: Result | None, tournament: Tournament) -> bool:
    """Whether ``result`` is shown but counted in neither the standings nor the ratings."""
    return result is not None and left_out(result.bot_share, tournament.bot_share_limit)
