import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

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


def test_it_refuses_production_settings_without_a_secret_key() -> None:
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_ALLOWED_HOSTS": "example.org"}
    env.pop("DJANGO_SECRET_KEY", None)

    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


@pytest.mark.parametrize(("behind_proxy", "from_proxy"), [("false", False), ("true", True)])
def test_rate_limits_count_the_address_the_proxy_saw_only_behind_one(
        behind_proxy: str, from_proxy: bool) -> None:
    # Reading a client-written X-Forwarded-For would let one client spread its login
    # attempts over made-up addresses (tournaments/api/logins.py, client_address).
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "x" * 50,
           "DJANGO_ALLOWED_HOSTS": "example.org", "DJANGO_BEHIND_TLS_PROXY": behind_proxy}
    result = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; "
                               "print(settings.CLIENT_ADDRESS_FROM_PROXY)"],
        cwd=REPO, env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True, text=True, check=False)
    assert result.stdout.strip() == str(from_proxy), result.stderr


def test_production_serves_collected_static_files_under_hashed_names(tmp_path: Path) -> None:
    # WhiteNoise serves what collectstatic gathered, with a far-future cache header.
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "x" * 50,
           "DJANGO_ALLOWED_HOSTS": "example.org", "DJANGO_STATIC_ROOT": str(tmp_path),
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    collect = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput"],
                             cwd=REPO, env=env, capture_output=True, text=True, check=False)
    assert collect.returncode == 0, collect.stderr
    script = (
        "import django; django.setup()\n"
        "from django.templatetags.static import static\n"
        "from django.test import Client\n"
        "url = static('tournaments/site.css')\n"
        "response = Client().get(url, secure=True, HTTP_HOST='example.org')\n"
        "print(url, response.status_code, response.headers.get('Cache-Control'))\n")
    served = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env,
                            capture_output=True, text=True, check=False)
    url, status, cache = served.stdout.split(maxsplit=2)
    assert re.fullmatch(r"/static/tournaments/site\.[0-9a-f]{12}\.css", url), served.stderr
    assert status == "200"
    assert "max-age=315360000" in cache
