"""The tests that read ../shared (the conformance records, the rules' numbers) skip where
it is missing, saying so, and fail in CI, where it is always laid beside the checkout."""

from __future__ import annotations

import pytest

from .services import SHARED, shared_file


def test_a_file_there_is_found() -> None:
    assert shared_file("push-rules.md") == SHARED / "push-rules.md"


@pytest.mark.parametrize("ci", [{"CI": "true"}, {"PUSH_REQUIRE_SERVICES": "1"}])
def test_a_missing_file_fails_in_ci(monkeypatch: pytest.MonkeyPatch, ci: dict[str, str]) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PUSH_REQUIRE_SERVICES", raising=False)
    for name, value in ci.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(pytest.fail.Exception, match="CI lays ../shared"):
        shared_file("no-such-file.md")


def test_a_missing_file_skips_elsewhere_saying_which(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PUSH_REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no-such-file.md not found"):
        shared_file("no-such-file.md")
