"""An event as a chat message: what each says, the standings' top ten, Discord's limit,
and the words in Finnish."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import translation

from tournaments.webhook_words import DISCORD_LIMIT, chat_body, chat_text

TOURNAMENT = {"id": 1, "name": "Spring Swiss", "format": "swiss", "status": "running"}


def match(table: int, result: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    return {"id": table, "round_number": 3, "table": table, "is_bye": False,
            "bot_opponent": False, "team_a": {"id": 1, "name": f"A{table}"},
            "team_b": {"id": 2, "name": f"B{table}"}, "result": result, **kwargs}


def standings(count: int) -> dict[str, Any]:
    return {"after_round": 3, "rows": [{"rank": n, "team": f"T{n}", "points": 10.0 - n / 2}
                                       for n in range(1, count + 1)]}


def test_a_completed_round_lists_its_results_then_the_top_ten() -> None:
    data = {"tournament": TOURNAMENT, "standings": standings(12), "round": {
        "number": 3, "matches": [match(1, {"totals": [70, 115]}),
                                 match(2, None, team_b=None, bot_opponent=True)]}}
    assert chat_text("round.completed", data).splitlines() == [
        "Round 3 of Spring Swiss completed:", "table 1: A1 70 – 115 B1",
        "Standings after round 3:", *[f"{n}. T{n}, {10 - n / 2:g} points"
                                      for n in range(1, 11)]]


@pytest.mark.parametrize("event, first", [
    ("tournament.started", "Spring Swiss has started."),
    ("table.opened", "A table of round 3 of Spring Swiss opened:"),
    ("result.submitted", "A result of round 3 of Spring Swiss was entered, to be confirmed:"),
    ("standings.changed", "The standings of Spring Swiss changed:"),
    ("tournament.finished", "Spring Swiss has finished. Final standings:"),
    ("ping", "A test event from Push league: this webhook works."),
])
def test_each_event_says_what_happened(event: str, first: str) -> None:
    data = {"tournament": TOURNAMENT, "match": match(4, {"totals": [10, 20]}),
            "standings": standings(2)}
    assert chat_text(event, data).splitlines()[0] == first


def test_discord_and_slack_bodies_and_discords_limit() -> None:
    data = {"tournament": TOURNAMENT, "round": {
        "number": 1, "matches": [match(n) for n in range(1, 200)]}}
    discord = json.loads(chat_body("discord", "round.published", data))["content"]
    assert len(discord) == DISCORD_LIMIT and discord.endswith("…")
    slack = json.loads(chat_body("slack", "round.published", data))["text"]
    assert slack.startswith("Round 1 of Spring Swiss published:\ntable 1: A1 vs B1\n")
    with pytest.raises(ValueError, match="no chat format 'teams'"):
        chat_body("teams", "round.published", data)


def test_the_words_are_the_sites_language() -> None:
    with translation.override("fi"):
        text = chat_text("result.confirmed", {"tournament": TOURNAMENT,
                                              "match": match(2, {"totals": [0, 40]})})
    assert text == "Turnauksen Spring Swiss kierroksen 3 tulos:\npöytä 2: A2 0 – 40 B2"
