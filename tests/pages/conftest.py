"""Fixtures shared by the page tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation


@pytest.fixture
def finnish(settings: Any) -> Iterator[None]:
    """Finnish, from the catalogue the run compiled at its start (tests/conftest.py)."""
    settings.LOCALE_PATHS = list(settings.LOCALE_PATHS)  # clears Django's catalogue cache
    yield
    translation.activate("en")
