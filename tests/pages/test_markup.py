"""Every public page: well-formed enough for assistive technology (unique ids, labelled
controls, named buttons, one h1, a language), and it loads its own static files only."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from . import bot_match, knockout_cup, round_robin_cup

pytestmark = pytest.mark.django_db


class Audit(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.labels: set[str] = set()
        self.controls: list[str] = []
        self.h1 = 0
        self.lang = ""
        self.buttons: list[str] = []
        self.external: list[str] = []
        self._button: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids[a["id"]] += 1
        if tag == "html":
            self.lang = a.get("lang", "")
        if tag == "h1":
            self.h1 += 1
        if tag == "label" and "for" in a:
            self.labels.add(a["for"])
        if tag in ("select", "textarea") or (tag == "input" and a.get("type") != "hidden"):
            self.controls.append(a.get("id", ""))
        if tag == "button":
            self._button = [a.get("aria-label", "")]
        for attribute in ("src", "href"):
            if a.get(attribute, "").startswith(("http://", "https://", "//")):
                self.external.append(a[attribute])

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self._button is not None:
            self.buttons.append("".join(self._button).strip())
            self._button = None


def pages() -> list[str]:
    knockout = knockout_cup()["tournament"]
    league = round_robin_cup()["tournament"]
    data = bot_match()
    team, player = data["match"].team_a, data["match"].team_a.player_a
    return [
        reverse("tournaments:tournament_list"),
        reverse("tournaments:tournament_detail", args=[league.pk]),
        reverse("tournaments:round_detail", args=[league.pk, 1]),
        reverse("tournaments:standings", args=[league.pk]),
        reverse("tournaments:crosstable", args=[league.pk]),
        reverse("tournaments:bracket", args=[knockout.pk]),
        reverse("tournaments:match_detail", args=[data["match"].pk]),
        reverse("tournaments:team_detail", args=[team.pk]),
        reverse("tournaments:player_detail", args=[player.pk]),
    ]


def test_every_page_passes_the_markup_audit(client: Client) -> None:
    for url in pages():
        response = client.get(url)
        assert response.status_code == 200, url
        audit = Audit()
        audit.feed(response.content.decode())
        assert audit.lang == "en", url
        assert audit.h1 == 1, url
        assert [i for i, n in audit.ids.items() if n > 1] == [], url
        assert [c for c in audit.controls if c not in audit.labels] == [], url
        assert all(audit.buttons), f"{url}: a button without a name"
        assert audit.external == [], f"{url} loads from elsewhere: {audit.external}"
