"""Helpers of the entry tests: a tournament open for entries, players with logins, what the
database holds of a tournament's entries (to assert that a refusal stored nothing)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from tournaments import services
from tournaments.models import Entry, EntryRequest, Notification, Player, Team, Tournament

from .factories import PlayerFactory, TournamentFactory, UserFactory


def open_tournament(**kwargs: Any) -> Tournament:
    """A tournament taking entries now (open mode unless told), entries closing in a day."""
    now = timezone.now()
    values: dict[str, Any] = {"entry_mode": Tournament.EntryMode.OPEN,
                              "entries_open": now - timedelta(hours=1),
                              "entries_close": now + timedelta(days=1), **kwargs}
    return TournamentFactory(**values)


def player_with_login(name: str | None = None) -> tuple[Player, User]:
    user = UserFactory(is_staff=False)
    player = PlayerFactory(user=user, **({"name": name} if name else {}))
    return player, user


def stored(tournament: Tournament) -> dict[str, object]:
    """Everything a step of entering may write, for a before and after comparison."""
    return {
        "entries": sorted(Entry.objects.filter(tournament=tournament)
                          .values_list("team_id", "withdrawn")),
        "requests": sorted(EntryRequest.objects.filter(tournament=tournament).values_list(
            "pk", "state", "partner_id", "team_id", "number")),
        "teams": Team.objects.count(),
        "notifications": Notification.objects.count(),
    }


def enter_team(tournament: Tournament, a: tuple[Player, User], b: tuple[Player, User]
               ) -> EntryRequest:
    """``a`` asks ``b``, who accepts: the request as it stands then."""
    ask = services.entry_ask(tournament=tournament, partner_handle=b[0].handle, user=a[1])
    return services.entry_answer(request=ask, accept=True, user=b[1])


def awaiting(organiser: Any, teams: int = 2, **kwargs: Any) -> tuple[Tournament,
                                                                     list[EntryRequest]]:
    """A tournament of ``organiser``'s taking entries by approval, and ``teams`` requests
    of two players each awaiting it."""
    tournament = open_tournament(entry_mode=Tournament.EntryMode.APPROVAL,
                                 organisers=[organiser], **kwargs)
    return tournament, [enter_team(tournament, player_with_login(), player_with_login())
                        for _ in range(teams)]
