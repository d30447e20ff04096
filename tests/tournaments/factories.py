"""factory_boy factories for the tournament models."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Entry, Player, Team, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    is_staff = True


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    name = factory.Sequence(lambda n: f"Team {n}")
    player_a = factory.SubFactory(PlayerFactory)
    player_b = factory.SubFactory(PlayerFactory)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Cup {n}")
    format = Tournament.Format.SWISS
    rounds_planned = 3
    bot_level = "random"
    tiebreaks = ["score_diff", "buchholz"]

    @factory.post_generation
    def organisers(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create and extracted:
            self.organisers.add(*extracted)


def tournament_with_teams(teams: int, **kwargs: Any) -> Tournament:
    """A tournament with ``teams`` entered teams, seeded 1..n."""
    tournament = TournamentFactory(**kwargs)
    for seed in range(1, teams + 1):
        Entry.objects.create(tournament=tournament, team=TeamFactory(), seed=seed)
    return tournament
