"""Read serializers of the shared register: teams, players and their ratings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Entry, Player, RatingEntry, Team
from tournaments.ratings import Rating

from .serializers import PlayerRefSerializer, TournamentRefSerializer


class TeamSerializer(serializers.ModelSerializer[Team]):
    players = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "name", "players"]

    @extend_schema_field(PlayerRefSerializer(many=True))
    def get_players(self, team: Team) -> Any:
        return PlayerRefSerializer([team.player_a, team.player_b], many=True).data


class TeamEntrySerializer(serializers.ModelSerializer[Entry]):
    tournament = TournamentRefSerializer()

    class Meta:
        model = Entry
        fields = ["tournament", "seed", "withdrawn"]


class TeamDetailSerializer(TeamSerializer):
    tournaments = TeamEntrySerializer(source="entries", many=True)

    class Meta(TeamSerializer.Meta):
        fields = [*TeamSerializer.Meta.fields, "tournaments"]


class RatingSerializer(serializers.Serializer[dict[str, Any]]):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    display = serializers.FloatField(help_text="the rating shown to people: mu - 3 sigma")


class PlayerSerializer(serializers.ModelSerializer[Player]):
    rating = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "rating"]

    @extend_schema_field(RatingSerializer())
    def get_rating(self, player: Player) -> dict[str, float]:
        rating = Rating(player.rating_mu, player.rating_sigma)
        return {"mu": rating.mu, "sigma": rating.sigma, "display": rating.display}


class RatingEntrySerializer(serializers.ModelSerializer[RatingEntry]):
    tournament = serializers.IntegerField(source="match.round.tournament_id")
    round_number = serializers.IntegerField(source="match.round.number")

    class Meta:
        model = RatingEntry
        fields = ["match", "tournament", "round_number", "mu", "sigma", "display"]


class PlayerDetailSerializer(PlayerSerializer):
    rating_history = RatingEntrySerializer(many=True, help_text="after each rated game, oldest "
                                                                "first")

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "rating_history"]
