"""The shared query-parameter readers (``tournaments.params``) as the API answers them: a
bad parameter is a 400 whose body names it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, TypeVar

from rest_framework.exceptions import ValidationError

from tournaments import params
from tournaments.params import BIGINT_MAX, SMALLINT_MAX

__all__ = ["BIGINT_MAX", "SMALLINT_MAX", "choices", "positive_int"]

Read = TypeVar("Read")


def _answered(read: Callable[..., Read]) -> Callable[..., Read]:
    @wraps(read)
    def answered(query: Mapping[str, str], *args: Any, **kwargs: Any) -> Read:
        try:
            return read(query, *args, **kwargs)
        except params.ParameterError as error:
            raise ValidationError({error.name: [error.message]}) from None
    return answered


positive_int = _answered(params.positive_int)
choices = _answered(params.choices)
