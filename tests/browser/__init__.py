"""Browser tests: Playwright driving Debian's chromium against pytest-django's live server.

They skip, saying why, when chromium or the playwright package is missing; with
PUSH_REQUIRE_SERVICES=1 (CI) they fail instead. Playwright never downloads a browser here:
it launches the system's chromium (``PUSH_CHROMIUM``), by default its headless shell
(Debian's package chromium-headless-shell), the build Playwright itself runs headless
tests in: it renders the same pages with the same engine, at well under half the CPU of
the whole browser in headless mode (the suite's browser tests: 123 against 296 CPU
seconds), which was the largest single part of a test run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from config.environment import read

CHROMIUM = Path(read().PUSH_CHROMIUM)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 10_000


def missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright)"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (apt-get install -y chromium-headless-shell)"
    return None


def expect(target: Any) -> Any:
    """Playwright's waiting assertion (``expect(locator).to_have_text(...)``): it retries until
    the page catches up, so a test never reads state right after an action. Imported here,
    when called, so a machine without playwright skips the tests rather than failing them."""
    from playwright.sync_api import expect as playwright_expect

    playwright_expect.set_options(timeout=TIMEOUT_MS)
    return playwright_expect(target)


@pytest.fixture(scope="module", name="browser")
def browser_fixture() -> Iterator[Any]:
    """A headless chromium for one test module.

    The sync Playwright API keeps an asyncio loop in this thread, which trips Django's
    "async context" guard on every query the test makes; the guard is lifted only while the
    browser is up, and the browser is closed with the module so later tests keep the guard."""
    reason = missing()
    if reason:
        if read().PUSH_REQUIRE_SERVICES:
            pytest.fail(f"PUSH_REQUIRE_SERVICES=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                                 args=CHROMIUM_ARGS)
            yield browser
            browser.close()


@pytest.fixture(name="page")
def page_fixture(browser: Any) -> Iterator[Any]:
    """A fresh English-speaking tab at desktop size; console errors fail the test."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"


def made_apart(make: Callable[[], Any]) -> Any:
    """``make()`` in a thread of its own: the table service announces through
    async_to_sync, which refuses to run in the test's thread, where Playwright keeps its
    event loop."""
    def run() -> Any:
        try:
            return make()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()
