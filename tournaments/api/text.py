"""Text fields of the API's request bodies that take a text as sent: a JSON string, no
longer than its ``max_length`` before it is trimmed.

DRF's text fields take a number too (``"name": 42`` is stored as "42") where the schema
says ``type: string``: these refuse it, as they refuse a list or ``true`` (the schema's
fuzzing found both). DRF also trims the spaces around a text before it checks the text's
length, so a name of 201 characters whose first is a space was taken where the schema says
``maxLength: 200``. A client reads the schema as a limit on what it sends: these
fields refuse a longer text, whatever it would be once trimmed; a shorter one is trimmed as
before. ``Body`` is the model serializer for request bodies, its model's text fields made so.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models
from rest_framework import serializers

_M = TypeVar("_M", bound=models.Model)


class _AsSent:
    max_length: int | None

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):  # CharField's words: a slug's "invalid" is of its letters
            raise serializers.ValidationError(
                serializers.CharField.default_error_messages["invalid"], code="invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)  # type: ignore[attr-defined]
        return super().to_internal_value(data)  # type: ignore[misc]


class SentText(_AsSent, serializers.CharField):
    """A ``CharField`` that takes only a string, its ``max_length`` counted as sent."""


class SentSlug(_AsSent, serializers.SlugField):
    """A ``SlugField`` that takes only a string, its ``max_length`` counted as sent."""


class Body(serializers.ModelSerializer[_M]):
    """A request body's serializer: its model's text fields take only strings, their length
    counted as sent."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: SentText, models.TextField: SentText, models.SlugField: SentSlug,
    }
