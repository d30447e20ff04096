"""The admin shows a player's rating as the site does (1500 scale, with its uncertainty),
and the model's mu and sigma beside it, read-only: ratings are rebuilt from results."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Player, RatingEntry
from tournaments.ratings import Rating

from .factories import UserFactory, tournament_with_teams
from .test_admin import logged_in, published_round, url

pytestmark = pytest.mark.django_db


def test_the_admin_shows_the_sites_rating_with_mu_and_sigma_read_only() -> None:
    superuser = UserFactory(is_superuser=True)
    match = published_round(tournament_with_teams(2)).matches.get()
    services.match_submit_score_sheet(match=match, hand_scores=[[0, 50]] * 5,
                                      out_seats=[0] * 5, user=superuser)
    services.ratings_rebuild()
    winner = Player.objects.get(pk=match.team_a.player_a_id)
    rating = Rating(winner.rating_mu, winner.rating_sigma)
    assert rating.scaled > 1500
    client = logged_in(superuser)

    listed = client.get(url("player_changelist")).content.decode()
    page = client.get(url("player_change", winner.pk)).content.decode()
    entries = client.get(url("ratingentry_changelist")).content.decode()

    assert f"{rating.scaled} ± {rating.deviation}" in listed
    assert f"{rating.scaled} ± {rating.deviation}" in page
    assert 'name="rating_mu"' not in page and 'name="rating_sigma"' not in page
    assert f"{winner.rating_mu:.2f}"[:4] in page  # mu shown, as text
    entry = RatingEntry.objects.get(player=winner)
    assert str(Rating(entry.mu, entry.sigma)) in entries
    assert str(rating) == str(Rating(entry.mu, entry.sigma))  # one game: the same rating
