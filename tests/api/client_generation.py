"""A client generated from the served schema with openapi-python-client (a dev dependency,
run as a subprocess), as a club's program would make one: the tests that drive the API
through it share these steps (``conftest.generated``)."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "push_api_client"
JSON_SCHEMA = {"HTTP_ACCEPT": "application/vnd.oai.openapi+json"}


def generate(schema: dict[str, Any], folder: Path) -> subprocess.CompletedProcess[str]:
    """openapi-python-client on ``schema``, its warnings made failures, into ``folder``."""
    (folder / "schema.json").write_text(json.dumps(schema))
    # the names fixed; no formatting of the generated code (its post hooks run ruff)
    (folder / "config.json").write_text(json.dumps({
        "package_name_override": PACKAGE, "project_name_override": PACKAGE, "post_hooks": []}))
    return subprocess.run(
        [str(GENERATOR), "generate", "--path", "schema.json", "--config", "config.json",
         "--meta", "none", "--output-path", PACKAGE, "--fail-on-warning"],
        cwd=folder, capture_output=True, text=True, timeout=300)


@contextmanager
def generated_client(server_url: str, folder: Path) -> Iterator[ModuleType]:
    """The client generated from the schema the server at ``server_url`` serves (to a
    Finnish browser, which gets English), every module of it imported; unloaded after."""
    request = urllib.request.Request(f"{server_url}/api/v1/schema/",
                                     headers={"Accept": JSON_SCHEMA["HTTP_ACCEPT"],
                                              "Accept-Language": "fi"})
    with urllib.request.urlopen(request, timeout=30) as response:  # loopback only
        done = generate(json.load(response), folder)
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        package = importlib.import_module(PACKAGE)
        for module in pkgutil.walk_packages(package.__path__, f"{PACKAGE}."):
            importlib.import_module(module.name)
        yield package
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]
