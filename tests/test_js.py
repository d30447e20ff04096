"""The browser code's unit tests (tests/js/*.test.mjs, on node's own test runner), run
from pytest so that ``make test`` runs them: any failure fails here, with node's report.
Without node they skip saying so; in CI (PUSH_REQUIRE_SERVICES=1) they fail instead.
And the data those tests read (tests/js/fixtures.json) is the server's, as it is now."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests import js_fixtures
from tests.services import require

ROOT = Path(__file__).resolve().parent.parent
NODE_SECONDS = 300  # the whole run takes about a second; the machine may be busy


def test_the_browser_code_passes_its_node_tests() -> None:
    node = shutil.which("node")
    require(None if node else "node is not installed (apt-get install nodejs)",
            "the browser code's unit tests (tests/js)")
    assert node is not None
    run = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True,
                         text=True, timeout=NODE_SECONDS, check=False)
    report = run.stdout + run.stderr
    assert run.returncode == 0, f"node --test tests/js/ failed:\n{report}"
    assert "# fail 0" in report and "# pass 0" not in report, report


def test_the_js_tests_read_the_servers_words_and_moves() -> None:
    """tests/js/fixtures.json is what the server makes now: its words, and the engine's
    structured moves; after a change, ``python -m tests.js_fixtures`` writes it anew."""
    written = json.loads(js_fixtures.PATH.read_text(encoding="utf-8"))
    assert written == json.loads(js_fixtures.text()), (
        "tests/js/fixtures.json is out of date: "
        "DJANGO_DEBUG=true .venv/bin/python -m tests.js_fixtures")
