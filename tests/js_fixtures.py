"""The data the browser code's unit tests (tests/js) read, as the server makes it: the
live table's English words and the structured moves of the actions the tests use, made
by the engine (``games.live.state.move_of``). tests/test_js.py checks that
tests/js/fixtures.json is what this makes; after a change of either, write it anew:

    DJANGO_DEBUG=true .venv/bin/python -m tests.js_fixtures
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PATH = Path(__file__).parent / "js" / "fixtures.json"
PLAYERS = ["alice", "Left opponent", "Partner", "Right opponent"]
TEAMS = ["Your team", "Opponents"]
# every kind of action, and the ways of tests/browser/test_live_card_table.py
ACTIONS = [
    "0 take", "0 push", "1 discard TS", "2 discard JK",
    "0 contract set(7H 7S JK=7) set(QS QD QD)", "3 meld run(4H 5H 6H)",
    "2 layoff 3 JK=8 9S", "2 swap 0 7S JK", "1 swap 4 9D 2C",
    "2 contract set(8S 8D 8D) set(8C 2H=8 JK=8)", "2 contract set(8S 8D 8C) set(8D 2H=8 JK=8)",
    "2 contract set(8S 8D 2H=8) set(8D 8C JK=8)", "2 contract set(8S 8D JK=8) set(8D 8C 2H=8)",
    "2 contract set(8S 8C 2H=8) set(8D 8D JK=8)", "2 contract set(8S 8C JK=8) set(8D 8D 2H=8)",
    "2 contract set(8S 2H=8 JK=8) set(8D 8D 8C)",
    "0 contract run(4H 5H 6H 2C=7H) run(9S TS 2D=JS JK=QS)",
    "0 contract run(4H 5H 6H 2C=7H) run(JK=8S 9S TS 2D=JS)",
    "0 contract run(2C=3H 4H 5H 6H) run(9S TS 2D=JS JK=QS)",
    "0 contract run(2C=3H 4H 5H 6H) run(JK=8S 9S TS 2D=JS)",
    "0 contract run(JK=3H 4H 5H 6H) run(9S TS 2D=JS 2C=QS)",
    "0 contract run(JK=3H 4H 5H 6H) run(2C=8S 9S TS 2D=JS)",
    "0 contract run(4H 5H 6H JK=7H) run(9S TS 2D=JS 2C=QS)",
    "3 meld run(2H=3D 4D 2D=5D)", "3 meld run(2D=3D 4D 2H=5D)", "3 meld run(2D 2H=3D 4D)",
    "1 layoff 2 JK=9H", "1 layoff 5 JK=9H", "1 layoff 2 2S=9H", "1 layoff 5 JK=TS",
    "1 layoff 7 8C", "1 layoff 8 8C", "1 layoff 9 8C", "1 layoff 10 8C", "1 layoff 11 8C",
    "1 layoff 12 8C",
]


def fixtures() -> dict[str, Any]:
    from django.utils import translation

    from games.engine import parse_action
    from games.live.state import move_of
    from games.live.table_words import card_table_messages
    from games.live.texts import table_messages

    with translation.override("en"):
        messages = {**table_messages(TEAMS, PLAYERS), **card_table_messages()}
    return {"players": PLAYERS, "messages": json.loads(json.dumps(messages)),
            "moves": {text: move_of(parse_action(text)) for text in ACTIONS}}


def text() -> str:
    return json.dumps(fixtures(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


if __name__ == "__main__":
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    PATH.write_text(text(), encoding="utf-8")
