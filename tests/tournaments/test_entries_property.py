"""Teams entering and withdrawing in any order (services.entries, on the database): the
places never exceed the capacity, the waiting list is served first come first served, and
every team is in one state at most; the services agree step by step with a plain model of
a queue."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments import services
from tournaments.models import Entry, EntryRequest
from tournaments.selectors.entries import waiting_list

from .entering import enter_team, open_tournament, player_with_login

pytestmark = pytest.mark.django_db

TEAMS = 6
# entering three times as often as withdrawing, so that the waiting list grows long enough
# for its order to matter
steps = st.lists(st.tuples(st.sampled_from(["enter", "enter", "enter", "withdraw"]),
                           st.integers(0, TEAMS - 1)), min_size=4, max_size=16)


@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(capacity=st.integers(2, 3), waiting=st.booleans(), steps=steps)
def test_entering_and_withdrawing_keep_the_places_and_the_queue(
        capacity: int, waiting: bool, steps: list[tuple[str, int]]) -> None:
    tournament = open_tournament(capacity=capacity, waiting_list=waiting)
    pairs = [(player_with_login(), player_with_login()) for _ in range(TEAMS)]
    team_of: dict[int, int] = {}  # a team's id: its index in pairs
    entered: set[int] = set()  # the plain model: who has a place,
    queue: list[int] = []  # and who waits, in order

    for step, i in steps:
        a, b = pairs[i]
        held = i in entered or i in queue
        if step == "enter":
            expect_refusal = held or (len(entered) >= capacity and not waiting)
            try:
                done = enter_team(tournament, a, b)
            except services.TournamentUserError:
                assert expect_refusal
            else:
                assert not expect_refusal
                assert done.team is not None
                team_of[done.team.pk] = i
                if len(entered) < capacity:
                    entered.add(i)
                else:
                    queue.append(i)
        else:
            try:
                services.entry_withdraw(tournament=tournament, user=a[1])
            except services.TournamentUserError:
                assert not held
            else:
                assert held
                if i in entered:
                    entered.discard(i)
                    if queue:
                        entered.add(queue.pop(0))
                else:
                    queue.remove(i)

        places = {team_of[t] for t in Entry.objects.filter(tournament=tournament)
                  .values_list("team_id", flat=True)}
        assert len(places) <= capacity
        assert places == entered
        assert [team_of[r.team_id] for r in waiting_list(tournament)] == queue
        # a player (so a team) is held by one request at most: asked, waiting or entered
        held_by = Counter(itertools.chain.from_iterable(
            EntryRequest.objects.filter(tournament=tournament, state__in=EntryRequest.ACTIVE)
            .values_list("asker_id", "partner_id")))
        held_by.pop(None, None)
        assert all(count == 1 for count in held_by.values())
