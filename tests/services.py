"""The one rule for a test that needs a real service: where it is missing the test skips,
saying what is missing; in CI (PUSH_REQUIRE_SERVICES=1) it fails instead."""

from __future__ import annotations

import os

import pytest


def require(missing: str | None, what: str) -> None:
    """Carry on when nothing is ``missing``; else skip ``what``, or fail it in CI."""
    if not missing:
        return
    if os.environ.get("PUSH_REQUIRE_SERVICES") == "1":
        pytest.fail(f"CI requires the real services: {missing}", pytrace=False)
    pytest.skip(f"{what} not tested: {missing}")
