"""compose.yaml (containers can't run on this machine, so it is checked, not run): valid
by the Compose specification's JSON schema (the copy check-jsonschema ships, with its
licence), its services running the Procfile's lines, HAProxy's configuration for its web
services as deploy/haproxy.py writes it, and every variable it sets one the platform, the
Procfile or uvicorn reads."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from config.environment import variables
from config.worker_process import ROOT
from deploy.haproxy import render

COMPOSE = ROOT / "compose.yaml"
#: what the Procfile's lines read beside the platform's variables (uvicorn reads the
#: addresses it trusts the forwarded headers of)
PROCFILE_VARIABLES = {"WEB_HOST", "PORT", "HAPROXY_CONFIG", "BEAT_SCHEDULE",
                      "FORWARDED_ALLOW_IPS"}


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def _procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(re.match(r"^([\w-]+):\s*(.+)$", line).groups()  # type: ignore[union-attr]
                for line in lines if line and not line.startswith("#"))


def _validate(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema",
                           "vendor.compose-spec", str(path)], capture_output=True, text=True)


def test_compose_file_is_valid() -> None:
    checked = _validate(COMPOSE)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_schema_check_refuses_a_wrong_file(tmp_path: Path) -> None:
    wrong = tmp_path / "compose.yaml"
    wrong.write_text(COMPOSE.read_text().replace("  worker:\n", "  worker:\n    replica: 2\n"))
    checked = _validate(wrong)
    assert checked.returncode == 1 and "replica" in checked.stdout + checked.stderr


def test_services_run_the_procfiles_lines() -> None:
    procfile, services = _procfile(), _compose()["services"]
    assert set(procfile) == {"web", "balancer", "worker", "beat"}
    # compose would fill in $VAR from its own environment; $$ leaves it to the shell
    commands = {name: ["sh", "-c", line.replace("$", "$$")] for name, line in procfile.items()}
    webs = sorted(name for name in services if name.startswith("web"))
    assert webs == ["web1", "web2"]
    for name in webs:
        assert services[name]["command"] == commands["web"]
    for name in ("balancer", "worker", "beat"):
        assert services[name]["command"] == commands[name]
    assert services["release"]["command"] == ["python", "-m", "deploy.serve", "--release"]


def test_the_balancer_sends_to_the_web_services() -> None:
    compose = _compose()
    config = compose["x-app"]["environment"]["HAPROXY_CONFIG"]
    port = int(compose["x-app"]["environment"]["PORT"])
    webs = sorted(name for name in compose["services"] if name.startswith("web"))
    assert (ROOT / config).read_text() == render(("0.0.0.0", port),
                                                 [(name, port) for name in webs])
    assert compose["services"]["balancer"]["ports"] == [f"${{HTTP_PORT:-8000}}:{port}"]


def test_every_variable_set_is_read() -> None:
    environment = _compose()["x-app"]["environment"]
    known = {variable.name for variable in variables()} | PROCFILE_VARIABLES
    assert set(environment) <= known, set(environment) - known
    for name in set(environment) & PROCFILE_VARIABLES - {"FORWARDED_ALLOW_IPS"}:
        assert f"${name}" in (ROOT / "Procfile").read_text()
