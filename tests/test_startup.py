"""What a process loads when it starts: the web processes, Celery workers and commands
load every app, its URLs and views, but not the libraries only some requests need (the
results file's XML Schema, the calendars' iCalendar, the Swiss pairing's graphs). Each
was a tenth of a second or more of CPU in every process started, the tests' hundreds of
servers and workers among them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from config.worker_process import ROOT

ON_DEMAND = ("xmlschema", "icalendar", "networkx")

LOAD = """
import json, sys
import django
django.setup()
from django.urls import get_resolver
get_resolver().url_patterns  # the URLs import every view
import config.asgi, config.celery
print(json.dumps(sorted(sys.modules)))
"""


def test_starting_loads_the_apps_and_views_but_not_the_libraries_of_some_requests() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "true"}
    done = subprocess.run([sys.executable, "-c", LOAD], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=120)
    loaded = set(json.loads(done.stdout))

    assert {"tournaments.views.calendars", "tournaments.exports.schema",
            "tournaments.formats.swiss"} <= loaded
    assert [name for name in ON_DEMAND if name in loaded] == []
