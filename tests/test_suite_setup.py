"""What a run sets up for itself: the tests that read ../shared (the conformance records,
the rules' numbers) skip where it is missing, saying so, and fail in CI, where it is always
laid beside the checkout; the translations are compiled at the start, so plain ``pytest``
needs no step before it; on PostgreSQL each worker's database is a copy of one migrated
template, named after the migrations it holds, and a transactional test's flush deletes the
rows and keeps what migrating made."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from config.environment import read

from .conftest import compile_translations
from .database import migration_digest
from .examples import examples
from .services import SHARED, shared_file


def test_a_file_there_is_found() -> None:
    assert shared_file("push-rules.md") == SHARED / "push-rules.md"


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Neither CI's variable nor PUSH_REQUIRE_SERVICES, unless the test sets one; the
    environment read again with the test's values, and again after it."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PUSH_REQUIRE_SERVICES", raising=False)
    read.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    read.cache_clear()


@pytest.mark.parametrize(("name", "value"), [("CI", "true"), ("PUSH_REQUIRE_SERVICES", "1")])
def test_a_missing_file_fails_in_ci(environment: pytest.MonkeyPatch, name: str,
                                    value: str) -> None:
    environment.setenv(name, value)
    with pytest.raises(pytest.fail.Exception, match="CI lays ../shared"):
        shared_file("no-such-file.md")


def test_a_missing_file_skips_elsewhere_saying_which(environment: pytest.MonkeyPatch) -> None:
    with pytest.raises(pytest.skip.Exception, match="no-such-file.md not found"):
        shared_file("no-such-file.md")


def test_a_po_newer_than_its_mo_is_compiled_at_the_start(settings: Any, tmp_path: Path) -> None:
    source = Path(settings.LOCALE_PATHS[0]) / "fi" / "LC_MESSAGES" / "django.po"
    po = tmp_path / "fi" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(source.read_bytes())
    settings.LOCALE_PATHS = [str(tmp_path)]

    assert compile_translations() == [po]
    assert po.with_suffix(".mo").stat().st_size > 1000
    assert compile_translations() == []  # up to date: not written again


@pytest.mark.django_db
def test_on_postgresql_the_database_is_a_copy_of_the_template_of_these_migrations() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: on SQLite each worker migrates its own memory database")
    # this run's family: the database's name without pytest-xdist's worker suffix
    base = re.sub(r"_gw\d+$", "", connection.settings_dict["NAME"])
    with connection.cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s",
                       [base.replace("_", r"\_") + r"\_migrated\_%"])
        assert [row[0] for row in cursor.fetchall()] == [
            f"{base}_migrated_{migration_digest()}"]
    applied = set(MigrationRecorder(connection).applied_migrations())
    assert applied == set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)


def test_a_changed_migration_names_another_template(monkeypatch: pytest.MonkeyPatch) -> None:
    before = migration_digest()
    text = Path.read_bytes
    changed = "0001_initial.py"

    def read_bytes(path: Path) -> bytes:
        return text(path) + (b"# changed" if path.match(f"tournaments/migrations/{changed}")
                             else b"")

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert migration_digest() != before


def test_under_mutation_a_property_test_tries_ten_examples(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)
    assert (examples(150), examples(6)) == (150, 6)
    monkeypatch.setenv("MUTANT_UNDER_TEST", "tournaments.formats.swiss.x_pair__mutmut_1")
    assert (examples(150), examples(6)) == (10, 6)


@pytest.mark.django_db(transaction=True)
def test_a_transactional_tests_flush_deletes_the_rows_and_keeps_what_migrating_made(
        django_assert_max_num_queries: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: SQLite's flush deletes already")
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType
    from django.core.management import call_command

    get_user_model().objects.create_user("flushed")
    kept = set(Permission.objects.values_list("pk", "codename"))
    types = set(ContentType.objects.values_list("pk", "model"))
    # one DELETE a table (no TRUNCATE, which makes new files for every table and index),
    # and no post_migrate making the permissions again: beside them, the list of tables,
    # the transaction's BEGIN and COMMIT and the lock that holds off other writers
    tables = connection.introspection.django_table_names(only_existing=True)
    with django_assert_max_num_queries(len(tables) + 4) as captured:
        call_command("flush", verbosity=0, interactive=False, reset_sequences=False)
    statements = [query["sql"] for query in captured.captured_queries]
    deletes = [sql for sql in statements if sql.startswith("DELETE FROM")]
    assert len(deletes) == len(tables) - 2  # all but the content types and permissions
    assert not [sql for sql in statements if "TRUNCATE" in sql or "INSERT" in sql]
    assert statements.index(next(s for s in statements if s.startswith("LOCK TABLE"))) < \
        statements.index(deletes[0])
    assert not get_user_model().objects.exists()
    assert set(Permission.objects.values_list("pk", "codename")) == kept
    assert set(ContentType.objects.values_list("pk", "model")) == types
