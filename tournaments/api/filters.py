"""django-filter filter sets of the list endpoints. A malformed value is a 400 that names
the parameter; an id that matches nothing gives an empty page."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field

from tournaments import selectors
from tournaments.models import Match, Player, Round, Team, Tournament
from tournaments.params import BIGINT_MAX, SMALLINT_MAX


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": BIGINT_MAX})
class IdFilter(django_filters.Filter):
    """A whole number within the database's range (ids are 64-bit)."""

    field_class = forms.IntegerField
    maximum = BIGINT_MAX

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, min_value=1, max_value=self.maximum, **kwargs)


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": SMALLINT_MAX})
class RoundNumberFilter(IdFilter):
    maximum = SMALLINT_MAX


class StrictFilterSet(django_filters.FilterSet):
    """An id or choice parameter given empty (``?round=``) is a 400, not "no filter"."""

    def get_form_class(self) -> Any:
        base = super().get_form_class()

        class StrictForm(base):  # type: ignore[misc, valid-type]
            def clean(self) -> Any:
                cleaned = super().clean()
                for name, field in self.fields.items():
                    if isinstance(field, forms.IntegerField | forms.ChoiceField) \
                            and self.data.get(name) == "":
                        self.add_error(name, _("empty: give a value or leave the parameter out"))
                return cleaned

        return StrictForm


class TournamentFilter(StrictFilterSet):
    # Not ``?format=``: DRF reads that as the response format (``?format=csv``).
    status = django_filters.ChoiceFilter(choices=Tournament.Status.choices)
    game_format = django_filters.ChoiceFilter(field_name="format",
                                              choices=Tournament.Format.choices)

    class Meta:
        model = Tournament
        fields = ["status", "game_format"]


class RoundFilter(StrictFilterSet):
    tournament = IdFilter(field_name="tournament_id", label="tournament id")
    status = django_filters.ChoiceFilter(choices=Round.Status.choices)
    number = RoundNumberFilter(field_name="number", label="round number")

    class Meta:
        model = Round
        fields = ["tournament", "status", "number"]


class MatchFilter(StrictFilterSet):
    tournament = IdFilter(field_name="round__tournament_id", label="tournament id")
    round = IdFilter(field_name="round_id", label="round id")
    round_number = RoundNumberFilter(field_name="round__number",
                                     label="round number (with tournament)")
    team = IdFilter(method="filter_team", label="team id: the team plays in the match")
    status = django_filters.ChoiceFilter(choices=Match.Status.choices, method="filter_status")

    class Meta:
        model = Match
        fields = ["tournament", "round", "round_number", "team", "status"]

    def filter_team(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        return queryset.filter(Q(team_a_id=value) | Q(team_b_id=value))

    def filter_status(self, queryset: QuerySet[Match], name: str,
                      value: str) -> QuerySet[Match]:
        """The status each match shows the asker (``selectors.shown_status``): a secret
        duplicate round's matches are all being played."""
        user = getattr(self.request, "user", None)
        secret = Q(round__in=selectors.rounds_hidden_from(user).values("pk"))
        if value == Match.Status.PLAYING:
            return queryset.filter(Q(status=value) | secret)
        return queryset.filter(status=value).exclude(secret)


class TeamFilter(StrictFilterSet):
    tournament = IdFilter(field_name="entries__tournament_id", distinct=True,
                          label="tournament id: teams entered in it")
    player = IdFilter(method="filter_player", label="player id: teams the player is in")
    name = django_filters.CharFilter(lookup_expr="icontains", max_length=100)

    class Meta:
        model = Team
        fields = ["tournament", "player", "name"]

    def filter_player(self, queryset: QuerySet[Team], name: str, value: int) -> QuerySet[Team]:
        return queryset.filter(Q(player_a_id=value) | Q(player_b_id=value))


class PlayerFilter(StrictFilterSet):
    team = IdFilter(method="filter_team", label="team id: the team's two players")
    name = django_filters.CharFilter(lookup_expr="icontains", max_length=100)

    class Meta:
        model = Player
        fields = ["team", "name"]

    def filter_team(self, queryset: QuerySet[Player], name: str,
                    value: int) -> QuerySet[Player]:
        return queryset.filter(Q(pk__in=Team.objects.filter(pk=value).values("player_a"))
                               | Q(pk__in=Team.objects.filter(pk=value).values("player_b")))
