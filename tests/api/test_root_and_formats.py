"""The API's root says what the API is and links everything in it; a format the endpoint
does not have is a 406 that names the formats it has (not DRF's 404 "Not found.")."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db
SERVER = "http://testserver"


def test_the_root_describes_the_api_and_links_every_endpoint_the_schema_and_the_docs(
) -> None:
    client = APIClient()
    root = client.get("/api/v1/").json()

    assert root["name"] == "Push league API" and root["version"] == "v1"
    assert "Authorization: Token" in root["description"]
    assert root["endpoints"] == {name: f"{SERVER}/api/v1/{name}/" for name in (
        "tournaments", "rounds", "matches", "teams", "players", "leagues", "seasons",
        "webhooks", "robot-events")}
    assert root["schema"] == f"{SERVER}/api/v1/schema/"
    assert root["docs"] == f"{SERVER}/api/v1/docs/"
    assert root["token"] == f"{SERVER}/api/v1/auth/token/"
    for url in [*root["endpoints"].values(), root["schema"], root["docs"]]:
        # a person's webhooks are theirs alone: anonymous, the list asks for a login
        expected = 401 if url.endswith("/webhooks/") else 200
        assert client.get(url).status_code == expected, url


def test_the_browsable_root_shows_the_description_not_drfs_stock_text() -> None:
    html = APIClient().get("/api/v1/", HTTP_ACCEPT="text/html").content.decode()
    assert "<h1>Push league API</h1>" in html
    assert "<code>Authorization: Token &lt;token&gt;</code>" in html
    assert "default basic root view" not in html and "Api Root" not in html


def test_the_root_is_described_in_finnish_to_a_finnish_reader() -> None:
    root = APIClient().get("/api/v1/", HTTP_ACCEPT_LANGUAGE="fi").json()
    assert root["name"] == "Push-liigan API"
    assert "Authorization: Token" in root["description"]
    assert "tournaments" in root["endpoints"]  # the keys stay as they are


@pytest.mark.parametrize("path, formats", [
    ("/api/v1/?format=xml", ["json", "api"]),
    ("/api/v1/tournaments/?format=xml", ["json", "api"]),
    ("/api/v1/tournaments/?format=csv", ["json", "api"]),  # only the standings have CSV
    ("/api/v1/tournaments.xml", ["json", "api"]),
    ("/api/v1/tournaments/{pk}/standings/?format=xml", ["json", "api", "csv", "ndjson"]),
    ("/api/v1/tournaments/{pk}/standings.xml", ["json", "api", "csv", "ndjson"]),
    ("/api/v1/tournaments/{pk}/standings/?format=", ["json", "api", "csv", "ndjson"]),
    ("/api/v1/tournaments/?format=", ["json", "api"]),
])
def test_an_unknown_format_is_refused_naming_the_formats_there_are(path: str,
                                                                   formats: list[str]) -> None:
    tournament = TournamentFactory()
    response = APIClient().get(path.format(pk=tournament.pk))

    assert response.status_code == 406
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "format_not_available" and body["formats"] == formats
    asked = "csv" if "csv" in path else "" if path.endswith("=") else "xml"
    assert body["detail"] == (f"this endpoint has no format “{asked}”: ask for one of "
                              f"{', '.join(formats)} (e.g. ?format=json)")


def test_an_accept_header_the_endpoint_cannot_meet_names_its_media_types() -> None:
    tournament = TournamentFactory()
    response = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/standings/",
                               HTTP_ACCEPT="application/xml")

    assert response.status_code == 406
    body = response.json()
    assert body["media_types"] == ["application/json", "text/html", "text/csv",
                                   "application/x-ndjson"]
    assert "it answers application/json, text/html, text/csv, application/x-ndjson" in (
        body["detail"])


def test_a_long_format_is_not_echoed_whole() -> None:
    response = APIClient().get("/api/v1/?format=" + "x" * 5000)
    assert response.status_code == 406
    assert len(response.json()["detail"]) < 200


def test_the_formats_there_are_still_answer() -> None:
    tournament = TournamentFactory()
    client = APIClient()
    assert client.get("/api/v1/tournaments/?format=json").status_code == 200
    standings = client.get(f"/api/v1/tournaments/{tournament.pk}/standings/?format=csv")
    assert standings.status_code == 200 and standings["Content-Type"].startswith("text/csv")


@pytest.mark.parametrize("query, name, times", [
    ("/api/v1/rounds/?tournament=1&tournament=2", "tournament", 2),
    ("/api/v1/tournaments/?page=1&status=draft&page=1&page=3", "page", 3),
    ("/api/v1/tournaments/{pk}/standings/?format=csv&format=json", "format", 2),
    ("/api/v1/matches/{pk}/?include=record&include=record", "include", 2),
])
def test_a_query_parameter_given_twice_is_refused_naming_it(query: str, name: str,
                                                            times: int) -> None:
    tournament = TournamentFactory()
    response = APIClient().get(query.format(pk=tournament.pk))

    assert response.status_code == 400
    assert response.json() == {
        "detail": f"the query parameter “{name}” is given {times} times: give it once",
        "code": "parameter_repeated"}
