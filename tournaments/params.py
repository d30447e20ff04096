"""Query parameters read by hand (those django-filter does not cover), for the pages and the
API alike: a bad one is a ``ParameterError`` naming the parameter, which each edge answers
in its own way (the API with a 400 body, a page with its error page), never a 500."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from config.errors import PlatformError

BIGINT_MAX = 2**63 - 1  # the largest id the database can hold
SMALLINT_MAX = 32767  # the largest round number, seed or score column the database holds


class ParameterError(PlatformError):
    """Parameter ``name`` is wrong: ``message`` says how, for the person who sent it."""

    code = "parameter"

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name

    def as_dict(self) -> dict[str, Any]:
        return {self.name: [self.message]}  # as DRF's own validation errors


def positive_int(params: Mapping[str, str], name: str, *,
                 maximum: int = BIGINT_MAX) -> int | None:
    """``params[name]`` as a whole number from 1 to ``maximum``; None when it is absent."""
    raw = params.get(name)
    if raw is None:
        return None
    value = int(raw) if re.fullmatch(r"[0-9]{1,19}", raw) else 0
    if not 1 <= value <= maximum:
        raise ParameterError(name, _("expected a whole number from 1 to %(maximum)d, not "
                                     "%(given)r") % {"maximum": maximum, "given": raw[:40]})
    return value


def choices(params: Mapping[str, str], name: str, allowed: set[str]) -> set[str]:
    """The comma-separated values of ``params[name]``, each one of ``allowed``."""
    raw = params.get(name)
    if raw is None:
        return set()
    values = {v.strip() for v in raw.split(",")}
    unknown = sorted(values - allowed)
    if unknown:
        raise ParameterError(name, _("unknown value(s) %(unknown)s; expected %(allowed)s")
                             % {"unknown": ", ".join(map(repr, unknown)),
                                "allowed": ", ".join(sorted(allowed))})
    return values
