"""Robot duplicate events in the API: the events, and an event's ranking (JSON, CSV, NDJSON)
empty while it is secret, but to its organisers, and whole once the window has closed."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from robot_duplicate.models import RobotEntry, RobotEvent

pytestmark = pytest.mark.django_db


def event_with_two_games() -> RobotEvent:
    now = timezone.now()
    event = RobotEvent.objects.create(name="Robots", opens=now - timedelta(hours=2),
                                      closes=now + timedelta(hours=1))
    users = get_user_model().objects
    event.organisers.add(users.create_user("director", password="pw-director-1"))
    # results (the bots' points minus theirs): anna 50 30 -40 20 -10, bea 50 -20 60 20 30
    for name, hands in (("anna", [(0, 50), (0, 30), (40, 0), (0, 20), (10, 0)]),
                        ("bea", [(0, 50), (20, 0), (0, 60), (0, 20), (0, 30)])):
        RobotEntry.objects.create(event=event, player=users.create_user(name),
                                  finished=now, hand_scores=hands,
                                  bot_hands=[False, False, False, False, name == "bea"])
    return event


def test_the_ranking_is_empty_while_the_window_is_open_but_to_its_organisers() -> None:
    event = event_with_two_games()
    url = f"/api/v1/robot-events/{event.pk}/ranking/"
    public = APIClient().get(url).json()
    assert (public["hidden"], public["rows"]) == (True, [])
    organiser = APIClient()
    organiser.force_authenticate(event.organisers.get())
    assert len(organiser.get(url).json()["rows"]) == 2

    RobotEvent.objects.filter(pk=event.pk).update(closes=timezone.now())
    table = APIClient().get(url).json()
    assert table["hidden"] is False
    # boards: 1 tie (1 of 2 each), 2 anna, 3 bea, 4 tie, 5 bea: anna 2.5 of 5 boards... as %
    assert [(r["player"], r["rank"], r["percentage"], r["board_2"], r["bot_boards"])
            for r in table["rows"]] == [("bea", 1, 60, 0, "5"), ("anna", 2, 40, 100, "")]
    listed = APIClient().get("/api/v1/robot-events/").json()
    assert [e["name"] for e in listed["results"]] == ["Robots"]

    text = APIClient().get(url, {"format": "csv"}).content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == table["columns"] and [row[2] for row in rows[1:]] == ["bea", "anna"]
    lines = APIClient().get(url, {"format": "ndjson"}).content.decode().splitlines()
    assert len(lines) == 2
    assert APIClient().get("/api/v1/robot-events/999999/ranking/").status_code == 404
