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


def rating_fields(rating: Rating) -> dict[str, float]:
    """A rating as the API gives it: on the site's scale, with the model's mu and sigma."""
    return {"value": rating.scaled, "deviation": rating.deviation, "mu": rating.mu,
            "sigma": rating.sigma}


class RatingSerializer(serializers.Serializer[dict[str, Any]]):
    value = serializers.IntegerField(
        help_text="the rating as the site shows it: 1500 for a new player, and of two players "
                  "200 points apart the better wins about three games in four "
                  "(1500 + 48 (mu - 25))")
    deviation = serializers.IntegerField(help_text="its uncertainty on the same scale (48 sigma)")
    mu = serializers.FloatField(help_text="the openskill model's mean skill")
    sigma = serializers.FloatField(help_text="the openskill model's uncertainty")


class PlayerSerializer(serializers.ModelSerializer[Player]):
    rating = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "rating"]

    @extend_schema_field(RatingSerializer())
    def get_rating(self, player: Player) -> dict[str, float]:
        return rating_fields(Rating(player.rating_mu, player.rating_sigma))


class RatingEntrySerializer(serializers.ModelSerializer[RatingEntry]):
    tournament = serializers.IntegerField(source="match.round.tournament_id")
    round_number = serializers.IntegerField(source="match.round.number")
    rating = serializers.SerializerMethodField()

    class Meta:
        model = RatingEntry
        fields = ["match", "tournament", "round_number", "rating"]

    @extend_schema_field(RatingSerializer())
    def get_rating(self, entry: RatingEntry) -> dict[str, float]:
        return rating_fields(Rating(entry.mu, entry.sigma))


class PlayerDetailSerializer(PlayerSerializer):
    rating_history = RatingEntrySerializer(many=True, help_text="after each rated game, oldest "
                                                                "first")

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "rating_history"]
