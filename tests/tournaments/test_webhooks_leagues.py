"""A league's webhook events: its next season drafted (who goes up and down) and begun,
delivered to a real receiver, to the subscriptions of the league's organisers for all their
events; not to one limited to a tournament, nor to another organiser's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import tasks_in_process
from tournaments import webhook_words
from tournaments.models import WebhookDelivery
from tournaments.services import webhooks
from tournaments.services.leagues import season_confirm, season_draft_next

from .factories import TournamentFactory, UserFactory
from .leagues import league_with_divisions
from .webhook_receiver import Receiver, receiver

pytestmark = pytest.mark.django_db
SEASONS = ["season.drafted", "season.confirmed"]


@pytest.fixture
def hook(settings: Any) -> Iterator[Receiver]:
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True
    with receiver() as state:
        yield state


def test_a_league_tells_its_organisers_of_its_next_season_drafted_and_begun(
        hook: Receiver, django_capture_on_commit_callbacks: Any) -> None:
    league, season, (first, second), organiser = league_with_divisions([4, 4])
    webhooks.webhook_create(user=organiser, url=hook.url, format="json", events=SEASONS)
    division = season.divisions.get(level=1).tournament
    webhooks.webhook_create(user=organiser, url=hook.url + "-one", format="json",
                            events=SEASONS, tournament=division)
    stranger = UserFactory()  # an organiser of another event, not of the league
    TournamentFactory(organisers=[stranger])
    webhooks.webhook_create(user=stranger, url=hook.url + "-stranger", format="json",
                            events=SEASONS)

    with tasks_in_process(), django_capture_on_commit_callbacks(execute=True):
        draft = season_draft_next(season=season, user=organiser)
    with tasks_in_process(), django_capture_on_commit_callbacks(execute=True):
        season_confirm(season=draft, user=organiser)

    assert [got.path for got in hook.got] == ["/hook", "/hook"]  # the league-wide one alone
    drafted, begun = (json.loads(got.body) for got in hook.got)
    assert (drafted["type"], begun["type"]) == ("season.drafted", "season.confirmed")
    assert drafted["data"]["league"] == {"id": league.pk, "name": league.name,
                                         "slug": league.slug}
    told = drafted["data"]["season"]
    assert (told["id"], told["number"], told["status"]) == (draft.pk, 2, "draft")
    assert [d["level"] for d in told["divisions"]] == [1, 2]
    moves = {m["team_id"]: m["kind"] for m in told["moves"]}
    assert moves[second[0].pk] == "up" and moves[first[3].pk] == "down"
    assert moves[first[0].pk] == "stays"
    assert begun["data"]["season"]["status"] == "current"
    assert WebhookDelivery.objects.count() == 2


def test_a_drafted_season_reads_as_a_chat_message() -> None:
    data = {"league": {"id": 1, "name": "Club league", "slug": "club"},
            "season": {"name": "Season 2", "moves": [
                {"team": "Aces", "kind": "up"}, {"team": "Kings", "kind": "stays"},
                {"team": "Twos", "kind": "down"}]}}
    assert webhook_words.chat_text("season.drafted", data) == (
        "Season 2 of Club league is drafted:\nAces: up\nTwos: down")
    assert webhook_words.chat_text("season.confirmed", data) == (
        "Season 2 of Club league has begun.")
