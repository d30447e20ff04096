"""The one base of every error the platform tells a person about (Zulip's ``JsonableError``).

A :class:`PlatformError` is the person's to fix: it carries a ``code`` a client can test, a
message template with its parameters (translated when the message is read, so in the
language of whoever reads it), and the HTTP ``status`` it answers with. The pairing
formats, the round and result services, check-in, query parameters, live tables and
uploaded records raise subclasses of it; the engine's own errors stay pure and are wrapped
where the platform meets them.

Everything else that goes wrong is a bug: nothing catches it politely, so it is logged
and answered with a 500. The edges turn a PlatformError into an answer in one place each:
``tournaments.api.errors.exception_handler`` for the API, ``config.error_pages`` for the
pages and the admin (a view that shows the message beside its form catches it itself;
that middleware is the answer for one that does not).

Pure apart from Django's lazy-text type, so the pure cores (the formats, the parameter
readers) can raise it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from django.utils.functional import Promise


class PlatformError(Exception):
    """Something the person asked for cannot be done; the message says what to fix."""

    code: ClassVar[str] = "invalid"
    status: int = 400  # a class's own, or one error's (as the standings' ``?round=`` sets)

    def __init__(self, template: str | Promise, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(template)
        self.template = template
        self.params = dict(params or {})

    @property
    def message(self) -> str:
        """The message in the active language, its parameters filled in."""
        text = str(self.template)
        return text % self.params if self.params else text

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        """The error as an API answers it."""
        return {"detail": self.message, "code": self.code}
