"""Fixtures shared by the page tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import translation


@pytest.fixture
def finnish(settings: Any) -> Iterator[None]:
    """Compile the .po as `make test` does, and make Django read the new catalogue."""
    call_command("compile_translations", verbosity=0)
    settings.LOCALE_PATHS = list(settings.LOCALE_PATHS)  # clears Django's catalogue cache
    yield
    translation.activate("en")
