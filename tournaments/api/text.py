"""Text fields of the API's request bodies whose ``max_length`` holds for the text as sent.

DRF trims the spaces around a text before it checks the text's length, so a name of 201
characters whose first is a space was taken where the schema says ``maxLength: 200`` (the
schema's fuzzing found it). A client reads the schema as a limit on what it sends: these
fields refuse a longer text, whatever it would be once trimmed; a shorter one is trimmed as
before. ``Body`` is the model serializer for request bodies, its model's text fields made so.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models
from rest_framework import serializers

_M = TypeVar("_M", bound=models.Model)


class _SentLength:
    max_length: int | None

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)  # type: ignore[attr-defined]
        return super().to_internal_value(data)  # type: ignore[misc]


class SentText(_SentLength, serializers.CharField):
    """A ``CharField`` whose ``max_length`` counts the text as sent."""


class SentSlug(_SentLength, serializers.SlugField):
    """A ``SlugField`` whose ``max_length`` counts the text as sent."""


class Body(serializers.ModelSerializer[_M]):
    """A request body's serializer: its model's text fields count their length as sent."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: SentText, models.TextField: SentText, models.SlugField: SentSlug,
    }
