"""``make run``'s embedded default holds a few live tables at once: on a SQLite file with
tasks in-process, three tables of bots play to the end while an organiser saves a
tournament a thousand times and completes a round, and nothing answers "database is
locked" (``sqlite_busy.py`` does it, in a process of its own, as ``make run`` would)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings


def test_three_live_tables_and_an_organiser_share_the_sqlite_file(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE")}
    done = subprocess.run([sys.executable, "-m", "tests.tournaments.sqlite_busy",
                           str(tmp_path / "db.sqlite3")], cwd=settings.BASE_DIR, env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    day = json.loads(done.stdout.strip().splitlines()[-1])
    assert (day["errors"], day["failures"]) == ([], [])
    assert day["saves"] >= 20  # the round was completed among the saves
    assert (day["finished"], day["results"]) == (3, 3)
    assert day["completed"] and day["standings"] == 2
