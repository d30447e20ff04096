"""Moves shown as motion at the live table, in chromium: a bot's discard slides onto the
discard pile on a person's page in at most 300 ms, and nothing slides when the person's
system asks for reduced motion. alice sits after the three bots, which move one at a
time after their pause, as in production (``test_live_in_process``'s site)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from games.live import service

from ..live.conftest import FIRST, SEED
from . import browser_fixture, expect, made_apart  # noqa: F401  (fixtures)
from .test_live_in_process import _page
from .test_live_table import alice, serve  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)

BOT_PAUSE = 0.5  # seconds each bot waits before its move: one move an update
# Records every slide the page starts (motion.js's animations, id "move") as it runs,
# frame by frame: where its card is, its length, and the log's last line at the time.
SLIDES = """
window.__slides = [];
(function watch() {
  document.getAnimations().forEach(function (slide) {
    if (slide.id !== "move" || slide.seen) {
      return;
    }
    slide.seen = true;
    const card = slide.effect.target;
    const line = document.querySelector("[data-log] li:last-child");
    window.__slides.push({ pile: Boolean(card.closest("[data-top]")),
      ms: slide.effect.getTiming().duration, line: line ? line.textContent : "" });
  });
  requestAnimationFrame(watch);
})();
"""
BOT_DISCARDS = re.compile(r"^(Left opponent|Partner|Right opponent) discards")


@pytest.fixture(scope="module")
def paced_site(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    yield from serve(django_db_blocker, bot_pause=BOT_PAUSE, delays=True)


def _after_the_bots(browser: Any, site: str, user: Any) -> Any:
    """alice's page at a table where she moves after the three bots, recording slides."""
    assert FIRST is not None
    table = made_apart(lambda: service.create_practice_table(user, "greedy", seat=(FIRST + 3) % 4,
                                                        seed=SEED))
    page = _page(browser, site, user)
    page.add_init_script(SLIDES)
    return page, f"{site}/tables/{table.pk}/"


def test_a_bots_discard_slides_onto_the_pile(browser: Any, paced_site: str,
                                             alice: Any) -> None:  # noqa: F811
    page, address = _after_the_bots(browser, paced_site, alice)
    page.goto(address)
    page.wait_for_function("() => window.__slides.some((s) => s.pile && "
                           f"/{BOT_DISCARDS.pattern}/.test(s.line))")
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn"))
    slides = page.evaluate("window.__slides")
    assert all(0 < slide["ms"] <= 300 for slide in slides), slides
    page.context.close()


def test_nothing_slides_under_reduced_motion(browser: Any, paced_site: str,
                                             alice: Any) -> None:  # noqa: F811
    page, address = _after_the_bots(browser, paced_site, alice)
    page.emulate_media(reduced_motion="reduce")
    page.goto(address)
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn"))
    expect(page.locator("[data-log] li").filter(has_text=BOT_DISCARDS)).to_have_count(3)
    # a slide starts with the drawing of its move: two frames later it would be recorded
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => "
                  "requestAnimationFrame(done)))")
    assert page.evaluate("window.__slides") == []
    page.context.close()
