"""A robot duplicate entrant's live table says what it is played for: the event, linked
back to its page, and the five boards every entrant plays; its seats keep the table's own
words (the entrant by name, the bots by place)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from robot_duplicate import services

from ..live.test_pages import config_of
from .test_robot_duplicate import open_event, person

pytestmark = pytest.mark.django_db


def test_an_entrants_table_names_its_event_and_boards(
        django_capture_on_commit_callbacks: Any) -> None:
    event = open_event(name="Winter robots")
    rita = person("rita")
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.robot_enter(event=event, user=rita)
    client = Client()
    client.force_login(rita)
    page = client.get(reverse("live:table", args=[entry.live_table_id]))
    assert page.status_code == 200
    content = page.content.decode()
    nav = re.search(r'<nav class="table-event"[^>]*>(.*?)</nav>', content, re.S)
    assert nav is not None
    assert (f'<a href="{reverse("robot_duplicate:detail", args=[event.pk])}">Winter robots</a>'
            " · boards 1 to 5") in nav.group(1)
    assert "You play in Winter robots, boards 1 to 5;" in content
    assert config_of(page)["players"] == ["rita", "Left opponent", "Partner",
                                          "Right opponent"]
