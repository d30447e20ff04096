"""The live table's and the replay's ES modules (games/templatetags/modules.py): a page
loads one entry module, and an import map, carrying the response's CSP nonce, that sends
every module it imports to the name ``static()`` gives it (the hashed one, in production)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.template import engines
from django.test import Client, RequestFactory, override_settings

from games.live import service
from games.templatetags import modules

ROOT = Path(__file__).resolve().parent.parent.parent
LIVE = ROOT / "games" / "live" / "static" / "live"

pytestmark = pytest.mark.django_db


def test_the_table_module_imports_every_module_of_the_table_and_the_shared_cards() -> None:
    """Found by following the imports: every module of the folder (the friends' page's own
    script aside), and the cards and words the replay shares."""
    found = modules.modules("live/table.js")
    assert found[0] == "live/table.js"
    assert set(found) == {f"live/{p.name}" for p in LIVE.glob("*.js") if p.name != "friends.js"} | {
        "games/cards.js"}
    assert set(modules.modules("games/replay.js")) == {
        "games/replay.js", "games/cards.js", "games/frames.js"}


def _map(html: str) -> tuple[str, dict[str, str]]:
    found = re.search(r'<script type="importmap" nonce="([^"]+)">(.*?)</script>', html, re.S)
    assert found, "the page has its import map, with a nonce"
    return found.group(1), json.loads(found.group(2))["imports"]


def test_the_table_page_maps_its_imports_under_its_csp_nonce(player: Any) -> None:
    table = service.create_practice_table(player, "greedy", seat=0, seed=1)
    client = Client()
    client.force_login(player)
    response = client.get(f"/tables/{table.pk}/")
    html = response.content.decode()
    nonce, imports = _map(html)
    policy = response.headers["Content-Security-Policy"]
    script_src = next(d for d in policy.split(";") if d.strip().startswith("script-src"))
    assert f"'nonce-{nonce}'" in script_src and "unsafe-inline" not in script_src
    assert "unsafe-eval" not in policy
    assert imports["/static/games/cards.js"] == "/static/games/cards.js"  # debug: one name
    assert '<script type="module" src="/static/live/table.js"></script>' in html
    assert "live/words.js" not in html and "defer" not in html.split("importmap")[1]


def test_in_production_each_import_goes_to_its_hashed_name() -> None:
    """With a manifest, ``static()`` gives the hashed name: the map sends the plain name a
    relative import resolves to there, the entry module loads by its own."""
    hashed = {path: path.replace(".js", ".0123456789ab.js")
              for path in modules.modules("live/table.js")}

    class Manifest:
        def url(self, path: str) -> str:
            return "/static/" + hashed[path]

    request = RequestFactory().get("/")
    request.csp_nonce = "n0nce"  # type: ignore[attr-defined]
    template = engines["django"].from_string(
        "{% load modules %}{% module_script 'live/table.js' %}")
    with override_settings(DEBUG=False), pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.contrib.staticfiles.storage.staticfiles_storage", Manifest())
        html = template.render({"request": request})
    nonce, imports = _map(html)
    assert nonce == "n0nce"
    assert imports["/static/live/ways.js"] == "/static/live/ways.0123456789ab.js"
    assert imports["/static/games/cards.js"] == "/static/games/cards.0123456789ab.js"
    assert "/static/live/table.js" not in imports
    assert 'src="/static/live/table.0123456789ab.js"' in html
