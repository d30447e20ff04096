"""The one rule for a test that needs a real service: where it is missing the test skips,
saying what is missing; in CI (PUSH_REQUIRE_SERVICES=1) it fails instead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from config.environment import read


def require(missing: str | None, what: str) -> None:
    """Carry on when nothing is ``missing``; else skip ``what``, or fail it in CI."""
    if not missing:
        return
    if read().PUSH_REQUIRE_SERVICES:
        pytest.fail(f"CI requires the real services: {missing}", pytrace=False)
    pytest.skip(f"{what} not tested: {missing}")


#: The folder beside the checkout with the rules, the record format and the conformance
#: records (CI always lays it there).
SHARED = Path(__file__).resolve().parents[2] / "shared"


def shared_file(*parts: str, module_level: bool = False) -> Path:
    """``../shared/<parts>``; where it is missing the test skips saying so, and in CI
    (``CI=true``, or PUSH_REQUIRE_SERVICES=1) fails, since there it is always laid."""
    path = SHARED.joinpath(*parts)
    if path.exists():
        return path
    reason = f"../shared is missing: {path} not found"
    if os.environ.get("CI") == "true" or read().PUSH_REQUIRE_SERVICES:
        pytest.fail(f"CI lays ../shared beside the checkout, yet {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=module_level)
