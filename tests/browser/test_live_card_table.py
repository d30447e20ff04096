"""The live table as a card table, in chromium: what a decision needs fits one screen on a
phone and on a laptop, a whole turn by the keyboard's shortcuts, every move that is off
says why, the ways a selection fits are asked one difference at a time, and the new
table passes axe-core. Each test opens a table of its own (``_seeded_table``) and waits
with Playwright's ``expect``; the site runs in daphne as in ``test_live_table``."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest

from config.environment import read
from games.engine import parse_action
from games.live.models import LiveTable
from games.live.state import move_of

from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixtures)
from .axe import EVERY_IMPACT, assert_accessible
from .test_csp import Tab
from .test_live_table import FIRST, _seeded_table, _view, alice, serve, site  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
SHOTS = read().PUSH_SCREENSHOTS  # a folder: the tests save what they saw there


def _tab(browser: Any, address: str, user: Any, screen: str) -> tuple[Any, list[str], Tab]:
    """A tab at ``screen``'s size, logged in as ``user`` (``None``: logged out), with the
    JavaScript errors and the CSP's reports it will collect."""
    from django.test import Client

    context = browser.new_context(locale="en-US", viewport=SCREENS[screen],
                                  has_touch=screen == "phone")
    context.set_default_timeout(TIMEOUT_MS)
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                              "url": address}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors, Tab(page, address)


@pytest.fixture(params=sorted(SCREENS))
def screen(request: Any) -> str:
    return str(request.param)


@pytest.fixture
def tab(browser: Any, site: str, alice: Any, screen: str) -> Any:  # noqa: F811
    """alice's tab at ``screen``'s size; a JavaScript error or a CSP violation fails."""
    page, errors, watch = _tab(browser, site, alice, screen)
    yield page
    page.context.close()
    assert errors == [], f"JavaScript errors: {errors}"
    assert watch.violations == [], f"Content-Security-Policy violations: {watch.violations}"


def _decision(page: Any) -> list[Any]:
    """What a decision needs: the discard top, the stock, the hand's first and last cards
    and every move button."""
    hand = page.locator("[data-hand] button")
    moves = page.get_by_role("group", name="Your moves").get_by_role("button")
    return [page.locator("[data-top]"), page.locator("[data-stock]"),
            hand.first, hand.last, *[moves.nth(i) for i in range(5)]]


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


@pytest.mark.parametrize("screen", sorted(SCREENS), indirect=True)
def test_what_a_decision_needs_is_on_one_screen(tab: Any, site: str, alice: Any,  # noqa: F811
                                                screen: str) -> None:
    page = tab
    table = _seeded_table(alice)
    page.goto(f"{site}/tables/{table.pk}/")
    take = page.get_by_role("button", name="Take the discard")
    expect(take).to_be_enabled()
    # take, push, lay down, discard, clear, and at a practice table the hint
    expect(page.get_by_role("group", name="Your moves").get_by_role("button")).to_have_count(6)
    for part in _decision(page):
        _shot(page, f"{screen}-draw")
        expect(part).to_be_in_viewport(ratio=1)
    take.click()
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn: lay down"))
    expect(page.locator("[data-hand] button")).to_have_count(7)
    page.locator("[data-hand] button").first.click()
    expect(page.locator("[data-hand] [aria-pressed=true]")).to_have_count(1)
    for part in _decision(page):
        _shot(page, f"{screen}-play")
        expect(part).to_be_in_viewport(ratio=1)
    # the selected card is raised above the others
    expect(page.locator("[data-hand] [aria-pressed=true]")).to_have_css(
        "transform", re.compile(r"^matrix\(1, 0, 0, 1, 0, -\d+"))
    _shot(page, f"{screen}-play")


@pytest.mark.parametrize("screen", ["laptop"], indirect=True)
def test_a_whole_turn_by_the_keyboard_shortcuts(tab: Any, site: str, alice: Any,  # noqa: F811
                                                screen: str) -> None:
    """t takes, the arrows walk the hand, Space selects, d discards: a turn in a few keys,
    with no Tab and no mouse; ? lists the keys; then the page passes axe-core."""
    page = tab
    table = _seeded_table(alice)
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.get_by_role("button", name="Take the discard")).to_be_enabled()
    keys = 0

    def press(key: str) -> None:
        nonlocal keys
        keys += 1
        page.keyboard.press(key)

    press("?")
    help_dialog = page.get_by_role("dialog", name="Keys")
    expect(help_dialog).to_be_visible()
    expect(help_dialog).to_contain_text("Discard the selected card")
    assert_accessible(page, EVERY_IMPACT)
    page.keyboard.press("Escape")
    expect(help_dialog).to_be_hidden()
    keys = 0

    press("t")
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn: lay down"))
    focused = page.locator("[data-hand] button:focus")
    expect(focused).to_have_count(1)  # the draw hands the focus to the hand
    view = _view(table)
    order = page.locator("[data-hand] button").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('data-key'))")
    at = next(i for i, key in enumerate(order)
              if f"{FIRST} discard {key.split('#')[0]}" in view["legal"])
    start = order.index(focused.get_attribute("data-key"))
    for _ in range(at - start):
        press("ArrowRight")
    expect(focused).to_have_attribute("data-key", order[at])
    press("Space")
    expect(page.locator("[data-hand] [aria-pressed=true]")).to_have_attribute("data-key", order[at])
    press("d")
    code = order[at].split("#")[0]
    face = ("10" if code[0] == "T" else code[0]) + {"S": "♠", "H": "♥", "D": "♦",
                                                    "C": "♣"}[code[1]]
    expect(page.get_by_role("log")).to_contain_text(f"alice discards {face}.")
    assert keys <= 12, f"a turn took {keys} keys"
    expect(page.get_by_role("button", name="Take the discard")).to_be_enabled()  # round again
    # every seat shows its last move: the bots' too
    for place, name in [("left", "Left opponent"), ("top", "Partner"), ("right", "Right opponent")]:
        expect(page.locator(f'[data-place="{place}"] .seat-last')).to_contain_text(name)
    expect(page.locator('[data-place="bottom"] .seat-thinking')).to_contain_text("to move")
    assert_accessible(page, EVERY_IMPACT)


@pytest.mark.parametrize("screen", ["phone"], indirect=True)
def test_a_move_that_is_off_says_why(tab: Any, site: str, alice: Any,  # noqa: F811
                                     screen: str) -> None:
    page = tab
    table = _seeded_table(alice)
    page.goto(f"{site}/tables/{table.pk}/")
    discard = page.get_by_role("button", name="Discard the selected card")
    expect(page.get_by_role("button", name="Take the discard")).to_be_enabled()
    expect(discard).to_be_disabled()
    expect(discard).to_have_accessible_description("Take the discard or push first (R6.2).")
    discard.focus()
    expect(page.locator("#why-discard")).to_be_visible()  # shown where the focus is
    page.get_by_role("button", name="Take the discard").click()
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn: lay down"))
    take = page.get_by_role("button", name="Take the discard")
    expect(take).to_have_accessible_description(
        "You have drawn this turn; now meld or discard (R6.2).")
    # the card just taken (R6.5): marked in the hand, and the discard says why it is off
    view = _view(table)
    taken = view["taken"]
    assert f"{FIRST} discard {taken}" not in view["legal"], "this deal's taken card stays (R6.5)"
    page.locator("[data-hand] button.taken").click()
    expect(page.locator("[data-hand] [aria-pressed=true]")).to_have_count(1)
    expect(discard).to_be_disabled()
    expect(discard).to_have_accessible_description(
        "The card just taken from the discard pile cannot be discarded this turn (R6.5).")
    # the meld buttons (none yet) and the lay-down say theirs too
    expect(page.locator("[data-why-meld]")).to_have_text(
        "Lay down your contract first: until then you cannot lay off or swap a wild "
        "(R7.1, R7.3).")


@pytest.mark.parametrize("screen", ["laptop"], indirect=True)
def test_ways_that_lead_to_the_same_table_are_one_and_the_rest_asked_by_difference(
        tab: Any, site: str, alice: Any, screen: str) -> None:  # noqa: F811
    """The page's own choosing (static/live/ways.js), given real answers of the engine's
    ``ways``: identical tables collapse, a handful is offered, more are asked by a wild."""
    page = tab
    table = _seeded_table(alice)
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.get_by_role("button", name="Take the discard")).to_be_enabled()
    sets = [f"2 contract {a} {b}" for a, b in [
        ("set(8S 8D 8D)", "set(8C 2H=8 JK=8)"), ("set(8S 8D 8C)", "set(8D 2H=8 JK=8)"),
        ("set(8S 8D 2H=8)", "set(8D 8C JK=8)"), ("set(8S 8D JK=8)", "set(8D 8C 2H=8)"),
        ("set(8S 8C 2H=8)", "set(8D 8D JK=8)"), ("set(8S 8C JK=8)", "set(8D 8D 2H=8)"),
        ("set(8S 2H=8 JK=8)", "set(8D 8D 8C)")]]
    plan = _plan(page, sets)
    assert plan["choose"] == [sets[0], sets[2]]  # 7 ways, 2 tables: where the 2 and JK go
    runs = ["0 contract run(4H 5H 6H 2C=7H) run(9S TS 2D=JS JK=QS)",
            "0 contract run(4H 5H 6H 2C=7H) run(JK=8S 9S TS 2D=JS)",
            "0 contract run(2C=3H 4H 5H 6H) run(9S TS 2D=JS JK=QS)",
            "0 contract run(2C=3H 4H 5H 6H) run(JK=8S 9S TS 2D=JS)",
            "0 contract run(JK=3H 4H 5H 6H) run(9S TS 2D=JS 2C=QS)",
            "0 contract run(JK=3H 4H 5H 6H) run(2C=8S 9S TS 2D=JS)",
            "0 contract run(4H 5H 6H JK=7H) run(9S TS 2D=JS 2C=QS)"]
    plan = _plan(page, runs)
    assert "choose" not in plan
    options = plan["ask"]["options"]
    assert 2 <= len(options) <= 5
    assert sorted(w for o in options for w in o["ways"]) == sorted(runs)  # none lost
    natural = _ways(page, "collapse(moves)", ["3 meld run(2H=3D 4D 2D=5D)",
                                              "3 meld run(2D=3D 4D 2H=5D)",
                                              "3 meld run(2D 2H=3D 4D)"])
    assert natural == ["3 meld run(2H=3D 4D 2D=5D)", "3 meld run(2D 2H=3D 4D)"]  # R5.4


def _ways(page: Any, call: str, actions: list[str]) -> Any:
    """``call`` of the page's own ways module (the one its table imported: a module is one
    per address) on ``actions`` as the server sends them (structured moves), each move in
    the answer given back as its text."""
    moves = [move_of(parse_action(a)) for a in actions]
    return page.evaluate(
        "async ([moves]) => { const { collapse, plan } = await import('/static/live/ways.js');"
        " const text = (m) => m.text;"
        " const answer = " + call + ";"
        " return Array.isArray(answer) ? answer.map(text) : JSON.parse(JSON.stringify(answer,"
        " (key, value) => value && value.text !== undefined && value.do ? value.text : value));"
        " }", [moves])


def _plan(page: Any, actions: list[str]) -> Any:
    return _ways(page, "plan(moves, 0)", actions)


HAND_PAUSE = 30  # seconds the server waits after a hand's end: the summary stays as long


@pytest.fixture(scope="module")
def paused_site(django_db_setup: None, django_db_blocker: Any) -> Any:
    """The site in daphne as ``site``, but pausing after a hand's end as in production."""
    yield from serve(django_db_blocker, hand_pause=HAND_PAUSE)


def _play_my_turn(page: Any, table: LiveTable, seat: int = FIRST, name: str = "alice") -> None:
    """The turn of ``name`` at ``seat`` through the page: take, lay down the contract when
    they can, discard the first card they may (R6.5)."""
    page.get_by_role("button", name="Take the discard").click()
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn: lay down"))
    view = _view(table, seat)
    contract = next((a for a in view["legal"] if a.startswith(f"{seat} contract ")), None)
    if contract is not None:
        for code in re.findall(r"[2-9TJQKA][SHDC]|JK", contract):
            card = page.locator("[data-hand] button[aria-pressed=false]").and_(
                page.locator(f'[data-key^="{code}#"]')).first
            card.click()
        page.get_by_role("button", name="Lay down the selection").click()
        expect(page.get_by_role("log")).to_contain_text(f"{name} lays down the contract")
        view = _view(table, seat)
    if view["to_move"] == seat and view["hand"]:
        code = next(a.split()[-1] for a in view["legal"] if " discard " in a)
        page.locator(f'[data-hand] button[data-key="{code}#0"]').click()
        page.get_by_role("button", name="Discard the selected card").click()
        # the discard in the log, or, when it ended the hand at once, the hand's summary
        expect(page.get_by_role("log").filter(has_text=f"{name} discards").or_(
            page.get_by_role("dialog", name=re.compile(r"^Hand \d is over"))).first
        ).to_be_visible()


def test_the_end_of_a_hand_shows_every_hand_left_and_the_scores(
        browser: Any, paused_site: str, alice: Any) -> None:  # noqa: F811
    page, errors, watch = _tab(browser, paused_site, alice, "phone")
    table = _seeded_table(alice)
    page.goto(f"{paused_site}/tables/{table.pk}/")
    summary = page.get_by_role("dialog", name="Hand 1 is over")
    turns = 0
    while not _view(table)["scores"]:
        turns += 1
        assert turns < 60, "the hand should have ended long ago"
        # alice's turn again, or the hand's end
        expect(page.locator('[data-do="take"]:not([aria-disabled="true"])').or_(summary).first
               ).to_be_visible()
        if not _view(table)["scores"]:
            _play_my_turn(page, table)
    expect(summary).to_be_visible()
    scores = _view(table)["scores"][0]
    teams = ["Your team", "Opponents"] if FIRST % 2 == 0 else ["Opponents", "Your team"]
    expect(summary).to_contain_text(f"Hand score: {teams[0]} {scores[0]}, {teams[1]} {scores[1]}.")
    expect(summary.get_by_role("row")).to_have_count(5)  # the heading and the four seats
    # every seat's cards left, revealed, with their penalty points (R2.4, R9.1)
    last = _view(table)["last_hand"]
    assert last["hand_no"] == 1
    for seat, points in enumerate(last["penalties"]):
        row = summary.get_by_role("row").nth(1 + (seat - FIRST) % 4)
        expect(row.get_by_role("cell").last).to_have_text(str(points))
        expect(row.get_by_role("img")).to_have_count(len(last["hands"][seat]))
    expect(summary.get_by_role("row").nth(1).get_by_role("rowheader")).to_have_text("alice")
    out = summary.get_by_role("row").nth(1 + (last["out_seat"] - FIRST) % 4)
    expect(out.get_by_role("cell").first).to_have_text("went out")
    _shot(page, "hand-end")
    assert_accessible(page, EVERY_IMPACT)
    summary.get_by_role("button", name="Next hand").click()
    expect(summary).to_be_hidden()
    expect(page.get_by_role("log")).to_contain_text(f"{teams[0]} {scores[0]}")
    # the earlier hand on demand: its every action, and how it ended
    page.get_by_role("button", name="Earlier hands").click()
    earlier = page.get_by_role("dialog", name="Earlier hands")
    earlier.get_by_role("button", name="Hand 1").click()
    expect(earlier.get_by_role("status")).to_have_text("Every action of hand 1:")
    lines = earlier.get_by_role("listitem").filter(has_not_text="Hand 1")
    expect(lines.first).to_contain_text("alice takes")
    expect(lines.last).to_contain_text(
        f"Hand score: {teams[0]} {scores[0]}, {teams[1]} {scores[1]}.")
    earlier.get_by_role("button", name="Close").click()
    expect(earlier).to_be_hidden()
    page.context.close()
    assert errors == [], f"JavaScript errors: {errors}"
    assert watch.violations == [], f"Content-Security-Policy violations: {watch.violations}"


def _short_stock(route: Any) -> None:
    """A websocket between the page and the server that passes every frame on, but the
    server's updates with a stock of one card."""
    server = route.connect_to_server()

    def to_page(message: str | bytes) -> None:
        if isinstance(message, str):
            frame = json.loads(message)
            if frame.get("type") == "update":
                frame["view"]["stock_size"] = 1
                message = json.dumps(frame)
        route.send(message)

    route.on_message(server.send)
    server.on_message(to_page)


@pytest.mark.parametrize("screen", ["phone"], indirect=True)
def test_a_push_that_would_end_the_hand_asks_first(tab: Any, site: str, alice: Any,  # noqa: F811
                                                   screen: str) -> None:
    """With fewer than two cards in the stock a push ends the hand (R6.4, R8.2): the page
    warns, and asks before it sends the push. The stock is made short in the views the page
    receives, between the server and the page (a real deal takes a whole hand to get
    there); the push then goes to the server."""
    page = tab
    table = _seeded_table(alice)
    page.goto(f"{site}/tables/{table.pk}/")
    push = page.get_by_role("button", name="Push", exact=True)
    expect(push).to_be_enabled()
    warning = page.locator("[data-push-warning]")
    expect(warning).to_be_hidden()
    # from now on every view the server sends says the stock holds one card
    page.route_web_socket(re.compile(r"/ws/"), _short_stock)
    page.reload()
    expect(warning).to_be_visible()
    page.keyboard.press("p")
    ask = page.get_by_role("dialog", name="Push and end the hand?")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("ends the hand at once")
    ask.get_by_role("button", name="Cancel").click()
    expect(ask).to_be_hidden()
    expect(push).to_be_focused()
    expect(page.get_by_role("log")).not_to_contain_text("alice pushes")
    expect(push).to_be_enabled()  # nothing was sent
    push.click()
    expect(ask).to_be_visible()
    ask.get_by_role("button", name="Push and end the hand").click()
    expect(page.get_by_role("log")).to_contain_text("alice pushes")
