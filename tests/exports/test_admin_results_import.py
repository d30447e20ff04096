"""Importing a results file from the tournament admin: the new tournament, organised by
whoever imported it; a refused file's problems on the page with where each is, nothing
stored; only staff, who may add tournaments."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.api.conftest import database_state
from tests.tournaments.factories import UserFactory
from tournaments import selectors, services
from tournaments.exports import schema
from tournaments.models import Tournament

from .events import finished_swiss

pytestmark = pytest.mark.django_db
URL = "admin:tournaments_tournament_import_results_file"


def upload(user: Any, content: bytes, name: str = "results.json") -> Any:
    client = Client()
    client.force_login(user)
    return client.post(reverse(URL), {"file": SimpleUploadedFile(name, content)})


@pytest.fixture
def exported() -> dict[str, Any]:
    document = selectors.results_file(finished_swiss(3, 1), None)
    document["event"]["name"] = "Moved Open"
    return document


def test_an_organiser_imports_a_file_and_organises_the_tournament(
        exported: dict[str, Any]) -> None:
    organiser = UserFactory()
    response = upload(organiser, schema.write_xml(exported), "results.xml")
    tournament = Tournament.objects.get(name="Moved Open")
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:tournaments_tournament_change",
                                           args=[tournament.pk])
    assert list(tournament.organisers.all()) == [organiser]
    assert selectors.results_file(tournament, None) == exported


def test_a_refused_file_shows_each_problem_and_stores_nothing(
        exported: dict[str, Any]) -> None:
    exported["rounds"][0]["matches"][0]["team_a"] = 9
    before = database_state()
    response = upload(UserFactory(), json.dumps(exported).encode())
    assert response.status_code == 200
    page = response.content.decode()
    assert "<code>/rounds/0/matches/0/team_a</code>: no team is numbered 9" in page
    assert database_state() == before


def test_only_staff_may_import(
        exported: dict[str, Any]) -> None:
    before = database_state()
    response = upload(UserFactory(is_staff=False), json.dumps(exported).encode())
    assert response.status_code == 302 and "/login/" in response["Location"]
    with pytest.raises(services.TournamentUserError, match="only staff"):
        services.results_file_import(source=json.dumps(exported).encode(),
                                     organiser=UserFactory(is_staff=False))
    assert database_state() == before
