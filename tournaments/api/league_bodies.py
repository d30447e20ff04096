"""The bodies of an organiser's league and season writes (``api.leagues``): their shapes
checked here, a list of messages a field; what the model refuses (a name or a season
number taken) is the services' check, by field (``services.leagues``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from tournaments.models import League, Season, Tournament
from tournaments.services import leagues as services

from .text import Body, SentSlug, SentText


class LeagueBody(Body[League]):
    """A league's settings; its uniqueness checks are the model's, by field."""

    slug = SentSlug(max_length=60, required=False,
                    help_text="its page's address (omitted: made from the name)")

    class Meta:
        model = League
        fields = list(services.LEAGUE_SETTINGS)
        validators: list[Any] = []
        extra_kwargs: dict[str, Any] = {"name": {"validators": []}}


class DivisionBody(serializers.Serializer[Any]):
    level = serializers.IntegerField(min_value=1, max_value=32767, help_text="1: the top")
    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all(),
                                                    help_text="a tournament you organise")


class SeasonBody(Body[Season]):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all(),
                                                help_text="a league you organise")
    number = serializers.IntegerField(min_value=1, max_value=32767, required=False,
                                      help_text="omitted: the league's next")
    name = SentText(max_length=100, required=False,
                    help_text='omitted: "Season <number>"')
    place_points = serializers.ListField(child=serializers.IntegerField(min_value=0),
                                         required=False, max_length=1000,
                                         help_text="a series: the points for 1st, 2nd ...")
    divisions = serializers.ListField(child=DivisionBody(), required=False, max_length=1000,
                                      help_text="a season of divisions: one tournament a level")
    events = serializers.PrimaryKeyRelatedField(
        queryset=Tournament.objects.all(), many=True, required=False,
        help_text="a series: its tournaments (ids)")

    class Meta:
        model = Season
        fields = ["league", *services.SEASON_SETTINGS, "divisions", "events"]
        validators: list[Any] = []  # the number's uniqueness is the model's check

    def validate_divisions(self, divisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        levels = [division["level"] for division in divisions]
        if len(set(levels)) != len(levels):
            raise serializers.ValidationError(_("a level is given twice"))
        return divisions
