"""The test database of each pytest worker, copied on PostgreSQL from one migrated template.

Migrating an empty database takes several seconds of a core; four workers and two passes
of ``make test`` did it eight times a run. Instead the first worker to come migrates a
template database once, and every worker's database is made from it with ``CREATE
DATABASE ... TEMPLATE``, which copies files. The template's name carries a digest of every
migration file the project loads (its own apps' and its libraries'), so a changed,
added or removed migration makes a new template and the old ones are dropped; a template
is only ever named once its migration has finished, so a run stopped half-way leaves none
that is half made. On SQLite (an in-memory database per worker) nothing changes.

Between transactional tests (``transactional_db``) Django empties every table; on
PostgreSQL it does so with one ``TRUNCATE`` of all 65 tables, which makes new files for each
table and index: 1 to 2 s on a busy 2-core machine, after each of some 450 tests.
``delete_between_tests`` has it ``DELETE`` the rows instead, 20 ms when the tables hold a
test's few rows (the foreign keys Django makes are deferred to the commit, so the order
does not matter), and keeps what migrating made.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

from django.core.management import call_command
from django.core.management.color import Style
from django.core.management.commands import flush
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.backends.postgresql.operations import DatabaseOperations
from django.db.backends.utils import CursorWrapper
from django.db.migrations.loader import MigrationLoader

#: The tables ``post_migrate`` fills, kept between transactional tests.
MADE_BY_MIGRATING = frozenset({"django_content_type", "auth_permission"})

#: The advisory lock the workers take in turn while one makes the template or its copy.
LOCK = 7_302_512


def migration_digest() -> str:
    """A digest of every migration file Django would apply, in a fixed order."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    digest = hashlib.sha256()
    for key in sorted(loader.disk_migrations):  # the loader has imported each one
        module = sys.modules[type(loader.disk_migrations[key]).__module__]
        digest.update(repr(key).encode())
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()[:12]


def copy_from_template(alias: str = "default") -> bool:
    """Make the worker's test database a copy of the migrated template (making the
    template first where it is missing). False where the database is not PostgreSQL: the
    caller then creates and migrates as usual."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        return False
    base = f"test_{connection.settings_dict['NAME']}"
    name = connection.settings_dict["TEST"].get("NAME") or base  # with xdist's suffix
    family = f"{base}_migrated_"
    template = family + migration_digest()
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [LOCK])
        try:
            cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s",
                           [family.replace("_", r"\_") + "%"])
            found = {row[0] for row in cursor.fetchall()}
            if template not in found:
                _migrate(connection, cursor, template)
            for old in sorted(found - {template}):
                cursor.execute(f'DROP DATABASE IF EXISTS "{old}"')
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cursor.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [LOCK])
    return True


def delete_between_tests() -> None:
    """Empty the tables with ``DELETE`` where a transactional test's teardown would
    ``TRUNCATE`` them (see the module's text). The content types and permissions, which
    migrating made and no test changes, are kept, so the ``post_migrate`` that follows a
    flush to make them again (a third of a second of queries) has nothing to do and is
    not sent. A flush that resets the sequences, which only ``TRUNCATE ... RESTART
    IDENTITY`` does, is left as Django makes it."""
    truncate = DatabaseOperations.sql_flush

    def sql_flush(self: BaseDatabaseOperations, style: Style, tables: Sequence[str], *,
                  reset_sequences: bool = False, allow_cascade: bool = False) -> list[str]:
        if reset_sequences:
            return truncate(self, style, tables, reset_sequences=True,
                            allow_cascade=allow_cascade)
        emptied = [self.quote_name(table) for table in tables
                   if table not in MADE_BY_MIGRATING]
        # as TRUNCATE does, first wait for (and then hold off) a writer a test left
        # behind, a server's or timer's thread, whose row would otherwise land between
        # the DELETEs and fail the commit on a foreign key
        return [f"LOCK TABLE {', '.join(emptied)} IN ACCESS EXCLUSIVE MODE;",
                *(f"DELETE FROM {table};" for table in emptied)]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    flush.emit_post_migrate_signal = lambda *args, **kwargs: None  # type: ignore[attr-defined]


def _migrate(connection: BaseDatabaseWrapper, cursor: CursorWrapper, template: str) -> None:
    """Migrate a new database and name it ``template`` only once that has finished."""
    building = template + "_building"
    execute = cursor.execute
    execute(f'DROP DATABASE IF EXISTS "{building}"')
    execute(f'CREATE DATABASE "{building}"')
    saved = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = building
    try:
        call_command("migrate", verbosity=0, interactive=False, run_syncdb=True)
    finally:
        connection.close()
        connection.settings_dict["NAME"] = saved
    execute(f'ALTER DATABASE "{building}" RENAME TO "{template}"')
