"""The replay's frames, fetched by the match page's script (``matches/<id>/replay.json``):
every frame of a result the public may see, cached by the browser and revalidated with
its ETag; nothing of an unconfirmed result or a game being played."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.bots import make_bot
from games.engine.play import deal_from_seed, play_game
from games.replay import expand_frames, replay_frames
from games.replay_text import card_words, replay_messages
from tournaments import services
from tournaments.models import Match

from ..tournaments.factories import tournament_with_teams
from . import bot_match, organiser, published_round

pytestmark = pytest.mark.django_db


def frames_url(match: Match) -> str:
    return reverse("tournaments:match_replay", args=[match.pk])


def test_it_answers_every_frame_of_the_game(client: Client) -> None:
    data = bot_match()

    response = client.get(frames_url(data["match"]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    whole = replay_frames(data["result"].record)
    for hand, back in zip(whole["hands"], expand_frames(response.json())["hands"],
                          strict=True):
        assert len(back["frames"]) == len(hand["frames"])
        for frame, again in zip(hand["frames"], back["frames"], strict=True):
            assert frame == {k: v for k, v in again.items() if (k, v) != ("pending", [])}


def test_the_browser_revalidates_it_and_gets_a_304(client: Client) -> None:
    data = bot_match()
    first = client.get(frames_url(data["match"]))
    assert "no-cache" in first["Cache-Control"] and first["ETag"]

    again = client.get(frames_url(data["match"]), HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 304 and again.content == b""
    changed = client.get(frames_url(data["match"]), HTTP_IF_NONE_MATCH='"other"')
    assert changed.status_code == 200 and changed.content == first.content


def record_awaiting_confirmation() -> tuple[Match, Any]:
    """A record an organiser uploaded to a tournament that confirms results: it waits."""
    user = organiser()
    tournament = tournament_with_teams(2, organisers=[user], confirm_score_sheets=True)
    match = published_round(tournament).matches.get()
    record = play_game([make_bot("random", seat) for seat in range(4)],
                       *deal_from_seed(match.seed)).to_json()
    services.match_submit_record(match=match, record=record, user=user)
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING
    return match, user


def test_an_unconfirmed_record_is_refused_to_everyone_even_its_organiser(
        client: Client) -> None:
    match, user = record_awaiting_confirmation()

    assert client.get(frames_url(match)).status_code == 404
    page = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()
    assert "data-replay" not in page and "Hand score" not in page
    client.force_login(user)  # the public pages show the public view, organisers included
    assert client.get(frames_url(match)).status_code == 404


def test_a_game_being_played_has_no_frames(client: Client) -> None:
    user = organiser()
    match = published_round(tournament_with_teams(2, organisers=[user])).matches.get()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.PLAYING)

    assert client.get(frames_url(match)).status_code == 404


def test_a_draft_rounds_match_and_an_unknown_match_have_none(client: Client) -> None:
    user = organiser()
    draft = services.round_pair_next(tournament=tournament_with_teams(2, organisers=[user]))

    assert client.get(frames_url(draft.matches.get())).status_code == 404
    assert client.get(reverse("tournaments:match_replay", args=[999999])).status_code == 404


@pytest.mark.parametrize(("code", "words"), [
    ("7H", "7 of hearts"), ("TS", "10 of spades"), ("AD", "ace of diamonds"),
    ("JK", "joker"), ("2C=TS", "2 of clubs standing for 10 of spades"),
    ("JK=7", "joker standing for 7"), ("2H=Q", "2 of hearts standing for queen"),
])
def test_cards_are_named_in_words(code: str, words: str) -> None:
    assert card_words(code, replay_messages(["A", "B"], ["0", "1", "2", "3"])) == words
