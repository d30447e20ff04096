"""The site's icon: one SVG in the static files, linked from the public pages, the admin, the
browsable API and the API docs, and /favicon.ico (which browsers ask for anyway) leads to
it."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client

from tests.tournaments.factories import UserFactory

pytestmark = pytest.mark.django_db
ICON = static("tournaments/favicon.svg")
LINK = f'<link rel="icon" href="{ICON}" type="image/svg+xml">'


def test_the_icon_is_a_static_svg() -> None:
    path = finders.find("tournaments/favicon.svg")
    assert path is not None
    root = ElementTree.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox") == "0 0 32 32"
    assert root.find("{http://www.w3.org/2000/svg}text") is None  # drawn, not a font's glyph


@pytest.mark.parametrize("path", ["/", "/rules/", "/tournaments/", "/api/v1/",
                                  "/api/v1/docs/", "/admin/login/"])
def test_every_kind_of_page_links_the_icon(client: Client, path: str) -> None:
    html = client.get(path, HTTP_ACCEPT="text/html").content.decode()
    assert LINK in html, path


def test_the_admin_pages_link_the_icon() -> None:
    client = Client()
    client.force_login(UserFactory())
    html = client.get("/admin/tournaments/tournament/").content.decode()
    assert LINK in html


def test_favicon_ico_leads_to_the_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == ICON
    assert re.search(r"max-age=86400", response["Cache-Control"])
