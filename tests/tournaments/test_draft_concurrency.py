"""A draft's draw edited while it is published, or edited twice at once: each edit is
whole or refused (PostgreSQL row locks: the round, then its matches)."""

from __future__ import annotations

import pytest
from django.conf import settings

from tournaments import services
from tournaments.models import Match, Round, Seat

from .factories import UserFactory, tournament_with_teams
from .test_concurrency import at_once

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                                 reason="row locks are tested on PostgreSQL (set DATABASE_URL)")]


def teams(round: Round) -> list[tuple[int, int | None]]:
    return list(Match.objects.filter(round=round).order_by("table__number")
                .values_list("team_a_id", "team_b_id"))


def seated_once(round: Round) -> bool:
    players = list(Seat.objects.filter(round=round, player__isnull=False)
                   .values_list("player_id", flat=True))
    return len(players) == len(set(players)) == 4 * round.matches.count()


def edit_and_publish_at_once(round: Round, user: object) -> list[BaseException]:
    """Swap the first two tables' A teams while publishing; what the edit was told."""
    first, second = (team_a for team_a, _b in teams(round)[:2])
    refused: list[BaseException] = []

    def edit() -> None:
        try:
            services.draft_swap_teams(round=Round.objects.get(pk=round.pk), team_1=first,
                                      team_2=second, user=user)
        except services.TournamentUserError as exc:
            refused.append(exc)

    assert at_once(edit, lambda: services.round_publish(round=Round.objects.get(pk=round.pk),
                                                        user=user)) == []
    return refused


def two_swaps_at_once(round: Round, user: object) -> None:
    first, second, third = (team_a for team_a, _b in teams(round)[:3])
    assert at_once(
        lambda: services.draft_swap_teams(round=Round.objects.get(pk=round.pk), team_1=first,
                                          team_2=second, user=user),
        lambda: services.draft_swap_teams(round=Round.objects.get(pk=round.pk), team_1=first,
                                          team_2=third, user=user),
    ) == []


def test_an_edit_and_a_publish_at_once_leave_the_draw_edited_or_untouched() -> None:
    organiser = UserFactory()
    for _ in range(4):
        tournament = tournament_with_teams(6, organisers=[organiser])
        round = services.round_pair_next(tournament=tournament, user=organiser)
        before = teams(round)

        refused = edit_and_publish_at_once(round, organiser)

        round.refresh_from_db()
        assert round.status == Round.Status.PUBLISHED
        assert seated_once(round)
        if refused:
            assert "only a draft's draw can be changed" in str(refused[0])
            assert teams(round) == before and round.draw_note == ""
        else:
            assert teams(round)[0][0] == before[1][0] and "swapped" in round.draw_note


def test_two_edits_at_once_are_both_made_one_after_the_other() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(8, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    for _ in range(3):
        two_swaps_at_once(round, organiser)
        assert seated_once(round)
    round.refresh_from_db()
    assert len(round.draw_note.splitlines()) == 6
    assert sorted(t for pair in teams(round) for t in pair) == sorted(
        tournament.entries.values_list("team_id", flat=True))
