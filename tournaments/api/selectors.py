"""What a user may read: everything public, plus the draft rounds (and their matches) of the
tournaments they organise. Superusers organise every tournament (see services.access)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from tournaments.models import Match, Player, Round, Team, Tournament

PUBLIC_ROUNDS = (Round.Status.PUBLISHED, Round.Status.COMPLETE)


def _round_visible(user: Any, prefix: str = "") -> Q:
    public = Q(**{f"{prefix}status__in": PUBLIC_ROUNDS})
    if not getattr(user, "is_authenticated", False):
        return public
    if user.is_superuser:
        return Q()
    organised = Tournament.objects.filter(organisers=user).values("pk")
    return public | Q(**{f"{prefix}tournament__in": organised})


def visible_rounds(user: Any) -> QuerySet[Round]:
    return Round.objects.filter(_round_visible(user)).select_related("tournament")


def visible_matches(user: Any) -> QuerySet[Match]:
    return (Match.objects.filter(_round_visible(user, "round__"))
            .select_related("round__tournament", "table", "team_a", "team_b", "result"))


def tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.all()


def teams() -> QuerySet[Team]:
    return Team.objects.select_related("player_a", "player_b")


def players() -> QuerySet[Player]:
    return Player.objects.order_by("name", "id")  # names repeat; pages must not
