"""Phones for browser tests: tabs of a 390-pixel touch screen, each with its own login."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ..tournaments.venue import PASSWORD
from . import TIMEOUT_MS

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 3, "locale": "en-US"}


@pytest.fixture(name="phones")
def phones_fixture(browser: Any) -> Iterator[Any]:
    """Opens phone-sized tabs, each in its own browser context (its own login) in the one
    browser; JavaScript errors in any of them fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_phone() -> Any:
        context = browser.new_context(**PHONE)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_phone
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors: {errors}"


def log_in(page: Any, url: str, username: str) -> None:
    """Open ``url``, which asks for a login first, and log in there (the venue's password)."""
    page.goto(url)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
