"""English and Finnish: from the browser's Accept-Language or the language switch."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from . import bot_match, swiss_cup

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("finnish")]


def test_finnish_is_served_to_a_finnish_browser(client: Client) -> None:
    cup = swiss_cup()

    html = client.get(reverse("tournaments:standings", args=[cup["tournament"].pk]),
                      HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    assert '<html lang="fi">' in html
    assert "Sarjataulukko" in html and "Pisteet" in html
    assert "Tasapisteet ratkaistaan" in html  # the tie-break line
    assert "Standings" not in html


def test_english_is_the_default(client: Client) -> None:
    cup = swiss_cup()

    html = client.get(reverse("tournaments:standings", args=[cup["tournament"].pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()

    assert '<html lang="en">' in html and "Standings" in html


def test_the_language_switch_changes_the_language(client: Client) -> None:
    cup = swiss_cup()
    url = reverse("tournaments:tournament_detail", args=[cup["tournament"].pk])
    form = client.get(url).content.decode()
    assert reverse("set_language") in form and 'name="language"' in form

    response = client.post(reverse("set_language"), {"language": "fi", "next": url},
                           follow=True)

    html = response.content.decode()
    assert response.redirect_chain[-1][0] == url
    assert '<html lang="fi">' in html and "Turnaukset" in html and "Asetukset" in html


def test_the_replay_speaks_finnish_too(client: Client) -> None:
    data = bot_match()

    html = client.get(reverse("tournaments:match_detail", args=[data["match"].pk]),
                      HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    assert "Eteenpäin" in html and "Jako 1" in html
    assert "ottaa" in html  # "{player} ottaa {card} poistopakasta"


def test_every_message_is_translated() -> None:
    import polib
    from django.conf import settings

    po = polib.pofile(str(settings.BASE_DIR / "locale" / "fi" / "LC_MESSAGES" / "django.po"))

    assert po.untranslated_entries() == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
