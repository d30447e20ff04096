"""Query parameters read by hand (those django-filter does not cover): a bad one is a 400
that names the parameter, never a 500."""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

BIGINT_MAX = 2**63 - 1  # the largest id the database can hold


def positive_int(params: Mapping[str, str], name: str, *,
                 maximum: int = BIGINT_MAX) -> int | None:
    """``params[name]`` as a whole number from 1 to ``maximum``; None when it is absent."""
    raw = params.get(name)
    if raw is None:
        return None
    value = int(raw) if re.fullmatch(r"[0-9]{1,19}", raw) else 0
    if not 1 <= value <= maximum:
        raise ValidationError({name: [_("expected a whole number from 1 to %(maximum)d, not "
                                        "%(given)r") % {"maximum": maximum, "given": raw[:40]}]})
    return value


def choices(params: Mapping[str, str], name: str, allowed: set[str]) -> set[str]:
    """The comma-separated values of ``params[name]``, each one of ``allowed``."""
    raw = params.get(name)
    if raw is None:
        return set()
    values = {v.strip() for v in raw.split(",")}
    unknown = sorted(values - allowed)
    if unknown:
        raise ValidationError({name: [_("unknown value(s) %(unknown)s; expected %(allowed)s")
                                      % {"unknown": ", ".join(map(repr, unknown)),
                                         "allowed": ", ".join(sorted(allowed))}]})
    return values
