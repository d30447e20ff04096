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


def test_the_page_has_the_game_in_words_and_leaves_the_frames_to_the_script(
        client: Client) -> None:
    data = bot_match()
    match, record = data["match"], data["result"].record
    frames_url = reverse("tournaments:match_replay", args=[match.pk])

    html = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()

    assert '"frames"' not in html and "replay-data" not in html  # no frames embedded
    frames = client.get(frames_url).content
    assert len(html) < len(frames) / 1.5
    assert f'data-replay-url="{frames_url}"' in html
    assert "games/replay.js" in html
    messages = embedded(html, "replay-messages")
    assert isinstance(messages, dict)
    assert messages["players"][0].startswith("Bot (")
    assert "{player}" in messages["take"]
    # without JavaScript: the viewer is hidden, the game in words is there, hand by hand
    assert re.search(r'<div class="replay-viewer" data-replay-viewer hidden>', html)
    words = html[html.index('id="replay-words-heading"'):]
    hands = words.split("<details>")[1:]
    assert len(hands) == 5
    for number, (hand, hand_record) in enumerate(zip(hands, record["hands"], strict=True),
                                                 start=1):
        summary = hand[hand.index("<summary>"):hand.index("</summary>")]
        assert f"Hand {number}: " in summary and "Hand score: " in summary
        assert f"deals {5 + number} cards each" in hand
        actions = hand[hand.index("<ol>"):hand.index("</ol>")]
        assert actions.count("<li>") == len(hand_record["actions"])
    assert re.search(r"<li>Bot \(.+?\) (takes|pushes)", hands[0])


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

    assert "no game record to replay" in html and "data-replay" not in html
    assert client.get(reverse("tournaments:match_record", args=[match.pk])).status_code == 404
    assert client.get(reverse("tournaments:match_replay", args=[match.pk])).status_code == 404


def test_a_bye_has_no_match_page(client: Client) -> None:
    from . import knockout_cup

    cup = knockout_cup()
    bye = cup["round"].matches.filter(is_bye=True).first()

    assert client.get(reverse("tournaments:match_detail", args=[bye.pk])).status_code == 404


@pytest.mark.parametrize("winner", ["a", "b"])
def test_the_result_line_names_the_winner_and_gives_its_total_first(
        client: Client, winner: str) -> None:
    from tournaments.models import Result
    match = swiss_cup()["round"].matches.select_related("team_a", "team_b").first()
    low, high = 35, 210
    totals = (low, high) if winner == "a" else (high, low)
    Result.objects.filter(match=match).update(total_a=totals[0], total_b=totals[1],
                                              winner=winner)
    html = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()
    line = re.sub(r"<[^>]+>|\s+", " ", html[html.index('class="result-line"'):])
    line = " ".join(line[:line.index(")") + 1].split())
    team = (match.team_a if winner == "a" else match.team_b).name
    assert line.endswith(f"{team} won ({low}–{high})"), line
