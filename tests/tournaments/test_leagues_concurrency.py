"""Two organisers drafting a league's next season at once, or confirming it at once: one
season is drafted (or confirmed) and the other is told why not (PostgreSQL row locks: the
league, then the season)."""

from __future__ import annotations

import pytest
from django.conf import settings

from tournaments.models import Season, Tournament
from tournaments.services import TournamentUserError
from tournaments.services.leagues import season_confirm, season_draft_next

from .leagues import league_with_divisions
from .test_concurrency import at_once

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                                 reason="row locks are tested on PostgreSQL (set DATABASE_URL)")]


def test_two_drafts_and_two_confirmations_at_once_make_one_season() -> None:
    league, season, _teams, organiser = league_with_divisions([2, 2])
    tournaments = Tournament.objects.count()

    errors = at_once(lambda: season_draft_next(season=season, user=organiser),
                     lambda: season_draft_next(season=season, user=organiser))

    assert [type(e) for e in errors] == [TournamentUserError]
    assert "already has a next season" in str(errors[0])
    drafts = Season.objects.filter(league=league, number=2)
    assert drafts.count() == 1 and Tournament.objects.count() == tournaments + 2
    draft = drafts.get()
    errors = at_once(lambda: season_confirm(season=draft, user=organiser),
                     lambda: season_confirm(season=draft, user=organiser))
    assert [type(e) for e in errors] == [TournamentUserError]
    assert "is not a draft" in str(errors[0])
    draft.refresh_from_db()
    assert draft.status == Season.Status.CURRENT
