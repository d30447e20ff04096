"""Result submission: the request body's shape (checked here, 400 naming the field and
position) and the answers' shapes. Whether the game could have happened is the services'
business (``ResultRejected``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine import HANDS_PER_GAME, PACK_VALUE


class ScoreSheetSerializer(serializers.Serializer[dict[str, Any]]):
    hand_scores = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=PACK_VALUE),
            min_length=2, max_length=2),
        min_length=HANDS_PER_GAME, max_length=HANDS_PER_GAME,
        help_text="five [team a, team b] hand scores (team a sits in seats 0 and 2)")
    out_seats = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=3, allow_null=True),
        min_length=HANDS_PER_GAME, max_length=HANDS_PER_GAME,
        help_text="per hand, the seat (0-3) that went out, or null when the stock ran out")


@extend_schema_field({"type": "object", "additionalProperties": True,
                      "description": "a push-record/1 game record (push-record.md)"})
class RecordField(serializers.JSONField):
    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                _("expected a push-record/1 game record: a JSON object"))
        return super().to_internal_value(data)


class ResultSubmissionSerializer(serializers.Serializer[dict[str, Any]]):
    """Exactly one of ``record`` (verified move by move) and ``score_sheet``."""

    record = RecordField(required=False)
    score_sheet = ScoreSheetSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [key for key in ("record", "score_sheet") if key in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                _('send exactly one of "record" (a push-record/1 game) and "score_sheet"'))
        return attrs


class CorrectionSerializer(serializers.Serializer[dict[str, Any]]):
    """An organiser's correction: the score sheet they find right."""

    score_sheet = ScoreSheetSerializer()


class DetailSerializer(serializers.Serializer[dict[str, Any]]):
    detail = serializers.CharField()
