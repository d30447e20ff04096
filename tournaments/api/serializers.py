"""Read serializers: what the API shows of tournaments, rounds, matches, teams and players.

Nothing here writes; result submission has its own input serializers (submissions.py). A
match's result is shown as ``tournaments.selectors.visibility`` rules for the user who asks
(the public sees confirmed results only).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments import selectors
from tournaments.formats import PairingError
from tournaments.models import (
    Entry,
    Match,
    Player,
    Result,
    Round,
    Seat,
    Team,
    Tournament,
)
from tournaments.selectors.entries import EntryCounts, entry_counts
from tournaments.standings import TIEBREAKS

WINNERS = {"a": "a", "b": "b", "d": "draw"}


class PlayerRefSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name"]


class TeamRefSerializer(serializers.ModelSerializer[Team]):
    class Meta:
        model = Team
        fields = ["id", "name"]


class TournamentRefSerializer(serializers.ModelSerializer[Tournament]):
    class Meta:
        model = Tournament
        fields = ["id", "name"]


class RoundRefSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["id", "number", "status"]


# ---------------------------------------------------------------- tournaments


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    class Meta:
        model = Tournament
        fields = ["id", "name", "format", "status"]


class TournamentSettingsSerializer(serializers.ModelSerializer[Tournament]):
    points_win = serializers.DecimalField(max_digits=4, decimal_places=1, coerce_to_string=False)
    points_draw = serializers.DecimalField(max_digits=4, decimal_places=1,
                                           coerce_to_string=False)
    points_loss = serializers.DecimalField(max_digits=4, decimal_places=1,
                                           coerce_to_string=False)
    points_bye = serializers.DecimalField(max_digits=4, decimal_places=1, coerce_to_string=False)
    tiebreaks = serializers.ListField(child=serializers.ChoiceField(choices=sorted(TIEBREAKS)),
                                      help_text="tie-break keys, in the order applied")

    class Meta:
        model = Tournament
        fields = ["rounds_planned", "points_win", "points_draw", "points_loss", "points_bye",
                  "tiebreaks", "bye_policy", "bot_level", "knockout_tie_rule",
                  "third_place_match", "play", "spectators", "turn_seconds",
                  "reserve_seconds", "grace_seconds", "wait_for_players", "dealing", "duplicate",
                  "confirm_score_sheets"]


class EntrySerializer(serializers.ModelSerializer[Entry]):
    team = TeamRefSerializer()

    class Meta:
        model = Entry
        fields = ["team", "seed", "withdrawn"]


class TournamentEntriesSerializer(serializers.ModelSerializer[Tournament]):
    mode = serializers.CharField(source="entry_mode", help_text=(
        '"invite" (only the organisers enter teams), "open" (players enter with a partner) '
        'or "approval" (players enter, the organisers approve each team)'))
    opens = serializers.DateTimeField(source="entries_open", allow_null=True)
    closes = serializers.DateTimeField(source="entries_close", allow_null=True)
    capacity = serializers.IntegerField(allow_null=True,
                                        help_text="how many teams may enter (null: no limit)")
    places_taken = serializers.SerializerMethodField(
        help_text="the teams entered and not withdrawn")
    waiting = serializers.SerializerMethodField(help_text="the teams on the waiting list")

    class Meta:
        model = Tournament
        fields = ["mode", "opens", "closes", "capacity", "waiting_list", "places_taken",
                  "waiting"]

    def to_representation(self, tournament: Tournament) -> dict[str, Any]:
        # both fields from one count of each (two queries), not one count of both per field
        self._counts: EntryCounts = entry_counts(tournament)
        return super().to_representation(tournament)

    def get_places_taken(self, tournament: Tournament) -> int:
        return self._counts.taken

    def get_waiting(self, tournament: Tournament) -> int:
        return self._counts.waiting


class TournamentDetailSerializer(TournamentSerializer):
    settings = TournamentSettingsSerializer(source="*")
    entries = TournamentEntriesSerializer(
        source="*", help_text="players entering by themselves: the window and the places")
    rounds_total = serializers.SerializerMethodField(
        help_text="how many rounds the tournament has (null when it cannot be paired yet)")
    teams = EntrySerializer(source="entries", many=True)
    rounds = serializers.SerializerMethodField(
        help_text="the rounds you may see: published and complete ones, and drafts to the "
                  "tournament's organisers")

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "settings", "entries", "rounds_total",
                  "teams", "rounds"]

    def get_rounds_total(self, tournament: Tournament) -> int | None:
        try:
            return selectors.rounds_total(tournament)
        except PairingError:  # e.g. a bracket with fewer than two teams
            return None

    @extend_schema_field(RoundRefSerializer(many=True))
    def get_rounds(self, tournament: Tournament) -> Any:
        rounds = self.context["visible_rounds"].filter(tournament=tournament)
        return RoundRefSerializer(rounds, many=True).data


# ---------------------------------------------------------------- rounds and matches


class ResultSummarySerializer(serializers.ModelSerializer[Result]):
    totals = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField(help_text='"a", "b" or "draw" (lower total wins)')

    class Meta:
        model = Result
        fields = ["totals", "winner", "confirmed"]

    def get_totals(self, result: Result) -> list[int]:
        return [result.total_a, result.total_b]

    @extend_schema_field({"type": "string", "enum": ["a", "b", "draw"]})
    def get_winner(self, result: Result) -> str:
        return WINNERS[result.winner]


class HandSerializer(serializers.Serializer[dict[str, Any]]):
    hand = serializers.IntegerField(help_text="1..5")
    scores = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="[team a, team b] penalty points")
    out_seat = serializers.IntegerField(allow_null=True,
                                        help_text="the seat that went out; null: stock ran out")


class ResultSerializer(ResultSummarySerializer):
    hands = serializers.SerializerMethodField()
    winner_team = serializers.SerializerMethodField(help_text="null for a draw or the bot team")
    has_record = serializers.SerializerMethodField(
        help_text="a game record is stored (see /matches/{id}/record/)")

    class Meta(ResultSummarySerializer.Meta):
        fields = ["source", "hands", "totals", "winner", "winner_team", "decided_by",
                  "confirmed", "has_record", "created"]

    @extend_schema_field(HandSerializer(many=True))
    def get_hands(self, result: Result) -> list[dict[str, Any]]:
        return [{"hand": number, "scores": list(scores), "out_seat": out}
                for number, (scores, out) in enumerate(
                    zip(result.hand_scores, result.out_seats, strict=False), start=1)]

    def get_winner_team(self, result: Result) -> int | None:
        return {"a": result.match.team_a_id, "b": result.match.team_b_id}.get(result.winner)

    def get_has_record(self, result: Result) -> bool:
        return result.record is not None


class SeatSerializer(serializers.ModelSerializer[Seat]):
    team = serializers.SerializerMethodField(help_text='"a" (seats 0 and 2) or "b" (1 and 3)')
    player = PlayerRefSerializer(allow_null=True)
    bot = serializers.BooleanField(source="is_bot")
    substitute_for = serializers.SerializerMethodField(
        help_text="the absent player a substitute bot plays for")

    class Meta:
        model = Seat
        fields = ["position", "team", "player", "bot", "bot_level", "substitute",
                  "substitute_for"]

    @extend_schema_field({"type": "string", "enum": ["a", "b"]})
    def get_team(self, seat: Seat) -> str:
        return "ab"[seat.position % 2]

    @extend_schema_field(PlayerRefSerializer(allow_null=True))
    def get_substitute_for(self, seat: Seat) -> Any:
        if not seat.substitute:
            return None
        match = seat.match
        team = match.team_a if seat.position % 2 == 0 else match.team_b
        if team is None:
            return None
        player = team.player_a if seat.position < 2 else team.player_b
        return PlayerRefSerializer(player).data


class MatchSerializer(serializers.ModelSerializer[Match]):
    tournament = serializers.IntegerField(source="round.tournament_id")
    round_number = serializers.IntegerField(source="round.number")
    table = serializers.IntegerField(source="table.number", allow_null=True, default=None)
    team_a = TeamRefSerializer()
    team_b = TeamRefSerializer(allow_null=True)
    result = serializers.SerializerMethodField(
        help_text="null until there is a confirmed result (status \"awaiting\": entered, "
                  "waiting for a second organiser; its organisers see it, confirmed false)")

    class Meta:
        model = Match
        fields = ["id", "tournament", "round", "round_number", "table", "team_a", "team_b",
                  "is_bye", "bot_opponent", "bracket_slot", "status", "result"]

    def visible_result(self, match: Match) -> Result | None:
        request = self.context.get("request")
        return selectors.visible_result(match, request.user if request is not None else None)

    def to_representation(self, match: Match) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(match)
        request = self.context.get("request")
        # a secret duplicate round's tables are all being played, finished or not
        data["status"] = selectors.shown_status(
            match, request.user if request is not None else None)
        return data

    @extend_schema_field(ResultSummarySerializer(allow_null=True))
    def get_result(self, match: Match) -> Any:
        result = self.visible_result(match)
        return None if result is None else ResultSummarySerializer(result).data


class MatchDetailSerializer(MatchSerializer):
    seats = SeatSerializer(many=True)
    record = serializers.SerializerMethodField(
        help_text="the stored push-record/1 game, with ?include=record (else absent)")

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "seats", "record"]

    def to_representation(self, match: Match) -> dict[str, Any]:
        data = super().to_representation(match)
        if not self.context.get("include_record"):
            data.pop("record")
        return data

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_result(self, match: Match) -> Any:
        result = self.visible_result(match)
        return None if result is None else ResultSerializer(result).data

    @extend_schema_field({"type": "object", "nullable": True, "additionalProperties": True})
    def get_record(self, match: Match) -> Any:
        result = self.visible_result(match)
        return None if result is None else result.record


class RoundSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "status"]


class RoundDetailSerializer(RoundSerializer):
    matches = MatchSerializer(many=True)

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "matches"]
