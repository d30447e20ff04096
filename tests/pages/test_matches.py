"""The match page: scores per hand, who went out, the replay, and the record download."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import verify

from . import bot_match, swiss_cup

pytestmark = pytest.mark.django_db


def embedded(html: str, element_id: str) -> object:
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>',
                      html, re.S)
    assert found, f"no {element_id} in the page"
    return json.loads(found.group(1))


def test_it_shows_the_hand_scores_who_went_out_and_the_totals(client: Client) -> None:
    data = bot_match()
    match, result = data["match"], data["result"]

    html = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()

    body = html[html.index("<tbody>", html.index("scores-caption")):]
    body = body[:body.index("</tbody>")]
    assert body.count("<tr>") == 5
    for scores in result.hand_scores:
        assert f'<td class="num">{scores[0]}</td>' in body
    went_out = [seat for seat in result.out_seats if seat is not None]
    for seat in went_out:
        assert f"(seat {seat})" in body
    assert f'<td class="num">{result.total_a}</td>' in html
    assert f'<td class="num">{result.total_b}</td>' in html


def test_it_embeds_the_replay_frames_and_the_words_for_them(client: Client) -> None:
    data = bot_match()
    match, record = data["match"], data["result"].record

    html = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()

    replay = embedded(html, "replay-data")
    assert isinstance(replay, dict)
    assert len(replay["hands"]) == 5
    for hand, hand_record in zip(replay["hands"], record["hands"], strict=True):
        assert len(hand["frames"]) == len(hand_record["actions"]) + 1
        assert len(hand["frames"][0]["hands"]) == 4  # every hand is shown: the game is over
    messages = embedded(html, "replay-messages")
    assert isinstance(messages, dict)
    assert messages["players"][0].startswith("Bot (")
    assert "{player}" in messages["take"]
    assert "tournaments/replay.js" in html


def test_bots_are_marked_on_the_match_page(client: Client) -> None:
    data = bot_match()

    html = client.get(reverse("tournaments:match_detail", args=[data["match"].pk])).content
    text = html.decode()
    assert text.count('class="badge badge-bot"') >= 8  # four seats, in the list and the replay
    assert "substitute for" in text


def test_the_record_downloads_as_valid_push_record_json(client: Client) -> None:
    data = bot_match()
    match = data["match"]

    response = client.get(reverse("tournaments:match_record", args=[match.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["format"] == "push-record/1"
    assert verify(record).status == "complete"
    assert record == data["result"].record
    page = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()
    assert reverse("tournaments:match_record", args=[match.pk]) in page


def test_a_score_sheet_result_has_no_replay_and_no_record(client: Client) -> None:
    cup = swiss_cup()
    match = cup["round"].matches.first()

    html = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()

    assert "no game record to replay" in html and "replay-data" not in html
    assert client.get(reverse("tournaments:match_record", args=[match.pk])).status_code == 404


def test_a_bye_has_no_match_page(client: Client) -> None:
    from . import knockout_cup

    cup = knockout_cup()
    bye = cup["round"].matches.filter(is_bye=True).first()

    assert client.get(reverse("tournaments:match_detail", args=[bye.pk])).status_code == 404
