"""What a run sets up for itself: the tests that read ../shared (the conformance records,
the rules' numbers) skip where it is missing, saying so, and fail in CI, where it is always
laid beside the checkout; the translations are compiled at the start, so plain ``pytest``
needs no step before it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from config.environment import read

from .conftest import compile_translations
from .services import SHARED, shared_file


def test_a_file_there_is_found() -> None:
    assert shared_file("push-rules.md") == SHARED / "push-rules.md"


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Neither CI's variable nor PUSH_REQUIRE_SERVICES, unless the test sets one; the
    environment read again with the test's values, and again after it."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PUSH_REQUIRE_SERVICES", raising=False)
    read.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    read.cache_clear()


@pytest.mark.parametrize(("name", "value"), [("CI", "true"), ("PUSH_REQUIRE_SERVICES", "1")])
def test_a_missing_file_fails_in_ci(environment: pytest.MonkeyPatch, name: str,
                                    value: str) -> None:
    environment.setenv(name, value)
    with pytest.raises(pytest.fail.Exception, match="CI lays ../shared"):
        shared_file("no-such-file.md")


def test_a_missing_file_skips_elsewhere_saying_which(environment: pytest.MonkeyPatch) -> None:
    with pytest.raises(pytest.skip.Exception, match="no-such-file.md not found"):
        shared_file("no-such-file.md")


def test_a_po_newer_than_its_mo_is_compiled_at_the_start(settings: Any, tmp_path: Path) -> None:
    source = Path(settings.LOCALE_PATHS[0]) / "fi" / "LC_MESSAGES" / "django.po"
    po = tmp_path / "fi" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(source.read_bytes())
    settings.LOCALE_PATHS = [str(tmp_path)]

    assert compile_translations() == [po]
    assert po.with_suffix(".mo").stat().st_size > 1000
    assert compile_translations() == []  # up to date: not written again
