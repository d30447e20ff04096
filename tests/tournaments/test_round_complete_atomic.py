"""Completing a round is one step: the round's status, its standings and the ratings'
follow-up commit together or not at all. A step that fails leaves the round, the
tournament and the follow-ups as they were (on SQLite and on PostgreSQL alike), and the
round can be completed again."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import services
from tournaments.models import OutboxTask, Round, Standing, Tournament

from .factories import UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db


def ratings_queued() -> int:
    return OutboxTask.objects.filter(task="recalculate_ratings").count()


def test_a_failed_standings_step_leaves_the_round_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    services.match_submit_score_sheet(
        match=round.matches.get(), hand_scores=[[0, 40], [30, 0], [0, 50], [40, 0], [20, 0]],
        out_seats=[0, 1, 0, 1, 1], user=organiser)
    queued, status = ratings_queued(), Tournament.objects.get(pk=tournament.pk).status

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the standings could not be computed")

    monkeypatch.setattr("tournaments.services.derived.standings_by_round", broken)
    with pytest.raises(RuntimeError):
        services.round_complete(round=round, user=organiser)
    assert Round.objects.get(pk=round.pk).status == Round.Status.PUBLISHED
    assert Tournament.objects.get(pk=tournament.pk).status == status
    assert not Standing.objects.filter(tournament=tournament, round_number=1).exists()
    assert ratings_queued() == queued

    monkeypatch.undo()
    services.round_complete(round=round, user=organiser)
    assert Round.objects.get(pk=round.pk).status == Round.Status.COMPLETE
    assert Standing.objects.filter(tournament=tournament, round_number=1).count() == 2
    assert ratings_queued() == queued + 1
