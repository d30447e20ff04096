import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from config.settings import env_bool

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("TRUE", True), ("yes", True), ("0", False), ("false", False), ("No", False)],
)
def test_it_reads_booleans(monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool) -> None:
    monkeypatch.setenv("PUSH_TEST_FLAG", raw)

    assert env_bool("PUSH_TEST_FLAG", not expected) is expected


def test_it_uses_the_default_when_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PUSH_TEST_FLAG", raising=False)

    assert env_bool("PUSH_TEST_FLAG", True) is True


def test_it_rejects_a_value_that_is_not_a_boolean(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUSH_TEST_FLAG", "maybe")

    with pytest.raises(ImproperlyConfigured, match="PUSH_TEST_FLAG"):
        env_bool("PUSH_TEST_FLAG", False)


def settings_process(*args: str, **env: str | None) -> subprocess.CompletedProcess[str]:
    """Run ``args`` (after the interpreter) in the project with config.settings, the
    production settings module (not the test suite's), and ``env`` changed: a None value
    removes the variable."""
    changed = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for name, value in env.items():
        if value is None:
            changed.pop(name, None)
        else:
            changed[name] = value
    return subprocess.run([sys.executable, *args], cwd=REPO, env=changed, capture_output=True,
                          text=True, check=False)


def test_debug_is_off_unless_asked_for() -> None:
    result = settings_process(
        "-c", "from django.conf import settings; print(settings.DEBUG)",
        DJANGO_DEBUG=None, DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS="example.org")

    assert result.stdout.strip() == "False", result.stderr


@pytest.mark.parametrize("debug", [None, "false"])
def test_it_refuses_to_start_without_a_secret_key_unless_debug(debug: str | None) -> None:
    result = settings_process("manage.py", "check", DJANGO_DEBUG=debug, DJANGO_SECRET_KEY=None,
                              DJANGO_ALLOWED_HOSTS="example.org")

    assert result.returncode != 0
    assert ("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false (the default)"
            in result.stderr)


@pytest.mark.parametrize(("behind_proxy", "from_proxy"), [("false", False), ("true", True)])
def test_rate_limits_count_the_address_the_proxy_saw_only_behind_one(
        behind_proxy: str, from_proxy: bool) -> None:
    # Reading a client-written X-Forwarded-For would let one client spread its login
    # attempts over made-up addresses (tournaments/api/logins.py, client_address).
    result = settings_process(
        "-c", "from django.conf import settings; print(settings.CLIENT_ADDRESS_FROM_PROXY)",
        DJANGO_DEBUG="false", DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS="example.org",
        DJANGO_BEHIND_TLS_PROXY=behind_proxy)
    assert result.stdout.strip() == str(from_proxy), result.stderr


def test_production_serves_collected_static_files_under_hashed_names(tmp_path: Path) -> None:
    # WhiteNoise serves what collectstatic gathered, with a far-future cache header.
    env = {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "x" * 50,
           "DJANGO_ALLOWED_HOSTS": "example.org", "DJANGO_STATIC_ROOT": str(tmp_path)}
    collect = settings_process("manage.py", "collectstatic", "--noinput", **env)
    assert collect.returncode == 0, collect.stderr
    script = (
        "import django; django.setup()\n"
        "from django.templatetags.static import static\n"
        "from django.test import Client\n"
        "url = static('tournaments/site.css')\n"
        "response = Client().get(url, secure=True, HTTP_HOST='example.org')\n"
        "print(url, response.status_code, response.headers.get('Cache-Control'))\n")
    served = settings_process("-c", script, **env)
    url, status, cache = served.stdout.split(maxsplit=2)
    assert re.fullmatch(r"/static/tournaments/site\.[0-9a-f]{12}\.css", url), served.stderr
    assert status == "200"
    assert "max-age=315360000" in cache


@pytest.mark.django_db
def test_pages_allow_only_the_sites_own_scripts_and_those_with_the_nonce(
        client: Client) -> None:
    # The browser test (tests/browser/test_csp.py) shows the pages work under the policy.
    home = client.get("/")
    docs = client.get("/api/v1/docs/")

    policy = dict(part.strip().split(" ", 1)
                  for part in home.headers["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'"
    assert policy["object-src"] == policy["base-uri"] == policy["frame-ancestors"] == "'none'"
    nonce = re.search(r"'nonce-([^']+)'", docs.headers["Content-Security-Policy"])
    assert nonce is not None
    inline = re.findall(r"<script([^>]*)>(?!\s*</script>)", docs.content.decode())
    assert inline == [f' nonce="{nonce[1]}"']
