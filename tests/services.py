"""The one rule for a test that needs a real service: where it is missing the test skips,
saying what is missing; in CI (PUSH_REQUIRE_SERVICES=1) it fails instead."""

from __future__ import annotations

import pytest

from config.environment import read


def require(missing: str | None, what: str) -> None:
    """Carry on when nothing is ``missing``; else skip ``what``, or fail it in CI."""
    if not missing:
        return
    if read().PUSH_REQUIRE_SERVICES:
        pytest.fail(f"CI requires the real services: {missing}", pytrace=False)
    pytest.skip(f"{what} not tested: {missing}")
