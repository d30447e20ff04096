"""Two teams completing at once for the last place: one gets it, the other the first place
on the waiting list (PostgreSQL row locks: the tournament's row first, then the request's),
each on a connection of its own."""

from __future__ import annotations

import pytest
from django.conf import settings

from tournaments import services
from tournaments.models import Entry, EntryRequest

from .entering import enter_team, open_tournament, player_with_login
from .test_concurrency import at_once

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                                 reason="row locks are tested on PostgreSQL (set DATABASE_URL)")]


@pytest.mark.parametrize("waiting_list", [True, False])
def test_two_last_entries_at_once_get_the_place_and_the_first_waiting_place(
        waiting_list: bool) -> None:
    tournament = open_tournament(capacity=3, waiting_list=waiting_list)
    for _ in range(2):
        enter_team(tournament, player_with_login(), player_with_login())
    pairs = [(player_with_login(), player_with_login()) for _ in range(2)]
    asks = [services.entry_ask(tournament=tournament, partner_handle=b[0].handle, user=a[1])
            for a, b in pairs]

    errors = at_once(*(
        lambda ask=ask, partner=b: services.entry_answer(request=ask, accept=True,
                                                         user=partner[1])
        for ask, (_a, b) in zip(asks, pairs, strict=True)))

    states = sorted(EntryRequest.objects.get(pk=ask.pk).state for ask in asks)
    assert Entry.objects.filter(tournament=tournament).count() == 3
    if waiting_list:
        assert errors == []
        assert states == ["entered", "waiting"]
        waiting = EntryRequest.objects.get(tournament=tournament, state="waiting")
        entered = EntryRequest.objects.get(pk__in=[a.pk for a in asks], state="entered")
        assert waiting.number == entered.number + 1  # arrival order: the one served second
    else:
        assert [str(e) for e in errors] == [
            f"{tournament.name} is full (3 teams) and has no waiting list."]
        assert states == ["asked", "entered"]
