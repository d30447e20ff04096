"""The admin's record upload refuses what PostgreSQL cannot store, or Python cannot read,
naming the place, and stores nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.api.conftest import database_state
from tournaments.models import Match

from .factories import UserFactory, tournament_with_teams
from .test_admin import bot_record, logged_in, published_round, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_and_match() -> tuple[Any, Match]:
    organiser = UserFactory()
    match = published_round(tournament_with_teams(2, organisers=[organiser])).matches.get()
    return organiser, match


def upload(organiser: Any, match: Match, content: bytes) -> str:
    response = logged_in(organiser).post(
        url("match_record", match.pk), {"file": SimpleUploadedFile("game.json", content)})
    assert response.status_code == 200  # the form again, with the error
    return response.content.decode()


@pytest.mark.parametrize("names, place", [
    (["A", "B", "C\x00", "D"], "players[2]: contains a NUL character"),
    (["A", "\udc80", "C", "D"], "players[1]: contains a lone surrogate"),
])
def test_a_player_name_postgresql_cannot_store_is_refused(
        organiser_and_match: Any, names: list[str], place: str) -> None:
    organiser, match = organiser_and_match
    record = {**bot_record(), "players": names}
    before = database_state()
    page = upload(organiser, match, json.dumps(record).encode())  # as \\u escapes
    assert f"Malformed game record: {place}" in page and "Nothing was stored" in page
    assert database_state() == before


def test_a_record_nested_a_thousand_deep_is_refused(organiser_and_match: Any) -> None:
    organiser, match = organiser_and_match
    before = database_state()
    page = upload(organiser, match, b"[" * 1000 + b"]" * 1000)
    assert "Malformed game record: nested deeper than 16 levels" in page
    assert database_state() == before


def test_a_file_that_is_not_utf8_is_refused(organiser_and_match: Any) -> None:
    organiser, match = organiser_and_match
    before = database_state()
    assert "not UTF-8 text" in upload(organiser, match, b'{"format": "push-record/1\xff"}')
    assert database_state() == before
