"""Tournaments: the list, one tournament's entries and its public rounds."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy

from tournaments.models import Entry, Round, Tournament

from .visibility import PUBLIC_ROUNDS


def tournaments_by_status() -> list[tuple[Any, list[Tournament]]]:
    """Running, upcoming and finished tournaments, each with ``entry_count``."""
    listed = list(Tournament.objects.annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn=False))).order_by("-id"))
    return [(label, [t for t in listed if t.status == status])
            for status, label in ((Tournament.Status.RUNNING, gettext_lazy("Running")),
                                  (Tournament.Status.UPCOMING, gettext_lazy("Upcoming")),
                                  (Tournament.Status.FINISHED, gettext_lazy("Finished")))]


def tournament_entries(tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.select_related("team__player_a", "team__player_b")


def tournament_is_live(tournament: Tournament) -> bool:
    """True while a round is being played: published, not yet complete."""
    return tournament.rounds.filter(status=Round.Status.PUBLISHED).exists()


def public_rounds(tournament: Tournament) -> QuerySet[Round]:
    return (tournament.rounds.filter(status__in=PUBLIC_ROUNDS).order_by("number")
            .annotate(table_count=Count("matches", filter=Q(matches__is_bye=False))))


def public_round(tournament: Tournament, number: int) -> Round | None:
    return tournament.rounds.filter(number=number, status__in=PUBLIC_ROUNDS).first()
