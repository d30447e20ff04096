"""make serve's steps before anything starts (deploy/serve.py): what it refuses to start
without, saying what is missing, and collectstatic skipped when the static files have not
changed since it last ran."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from django.test import override_settings

from config.environment import Environment
from deploy import serve
from tests.production import collected_static

GOOD = {"DJANGO_SECRET_KEY": "k" * 50, "DJANGO_ALLOWED_HOSTS": "example.org",
        "DATABASE_URL": "postgres://push@db:5432/push",
        "CELERY_BROKER_URL": "redis://redis:6379/0", "DJANGO_DEBUG": "false"}


def _environment(monkeypatch: pytest.MonkeyPatch, **values: str | None) -> Environment:
    for name, value in {**GOOD, **values}.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    return Environment()


def test_a_complete_environment_has_no_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    assert serve.problems(_environment(monkeypatch)) == []


@pytest.mark.parametrize("name", sorted(serve.REQUIRED))
def test_each_missing_variable_is_named(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    assert serve.problems(_environment(monkeypatch, **{name: None})) == [
        f"{name} is not set: it must be {serve.REQUIRED[name]}."]


def test_sqlite_and_debug_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    found = serve.problems(_environment(monkeypatch, DATABASE_URL="sqlite:///db.sqlite3",
                                        DJANGO_DEBUG="true"))
    assert [sentence.split(" ")[0] for sentence in found] == ["DATABASE_URL", "DJANGO_DEBUG"]
    assert "needs PostgreSQL" in found[0] and "debug off" in found[1]


def test_nothing_starts_without_haproxy_or_a_secret(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    _environment(monkeypatch, DJANGO_SECRET_KEY=None)
    monkeypatch.setenv("PATH", str(tmp_path))  # no haproxy on it, nor where Debian puts it
    monkeypatch.setattr(serve, "SBIN", ())
    monkeypatch.setattr(serve, "release", lambda: pytest.fail("the release steps ran"))
    with pytest.raises(SystemExit) as stopped:
        serve.main(["--state", str(tmp_path / "state")])
    said = str(stopped.value)
    assert said.startswith("make serve cannot start the production stack:\n")
    assert "- DJANGO_SECRET_KEY is not set" in said and "- HAProxy is not installed" in said
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize(("argv", "says"), [(["--webs", "0"], "--webs 0"),
                                            (["--port", "65535"], "--port 65535")])
def test_bad_numbers_are_refused(argv: list[str], says: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        serve.main(argv)
    assert says in capsys.readouterr().err


def test_static_files_are_collected_again_only_when_they_change(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sources, collected = tmp_path / "sources", tmp_path / "collected"
    sources.mkdir()
    (sources / "site.css").write_text("body { color: black }")
    finders = ["django.contrib.staticfiles.finders.FileSystemFinder"]  # this folder only
    with override_settings(STATICFILES_DIRS=[sources], STATICFILES_FINDERS=finders,
                           STATIC_ROOT=collected):
        serve.collect_static()
        serve.collect_static()
        assert capsys.readouterr().out == ("Static files: collected\n"
                                           "Static files: collected already\n")
        assert (collected / "site.css").read_text() == "body { color: black }"
        (sources / "site.css").write_text("body { color: navy }")
        later = time.time_ns() + 1_000_000_000
        os.utime(sources / "site.css", ns=(later, later))
        serve.collect_static()
        assert capsys.readouterr().out == "Static files: collected\n"
        assert (collected / "site.css").read_text() == "body { color: navy }"


def test_the_release_compresses_scripts_and_styles_but_not_source_maps() -> None:
    """The production settings' collectstatic, as a release runs it: the pages' files get
    their brotli and gzip copies; source maps (developer tools' files) do not."""
    collected = collected_static()
    for name in ("live/table.js", "tournaments/site.css", "admin/js/vendor/jquery/jquery.js"):
        assert (collected / f"{name}.br").is_file() and (collected / f"{name}.gz").is_file()
    maps = list(collected.rglob("*.map"))
    assert maps, "the API docs' libraries ship source maps"
    assert not [m for m in collected.rglob("*.map.*") if m.suffix in (".br", ".gz")]
