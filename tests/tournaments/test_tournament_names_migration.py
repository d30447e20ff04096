"""The migration that makes tournament names unique (0019) keeps each name in its oldest
tournament and suffixes the later ones, in any case of letters, without clashing with a
name that exists already."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("tournaments", "0018_rating_entry_scaled_only")]
AFTER = [("tournaments", "0019_tournament_names_unique")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


def test_repeated_names_are_suffixed_and_then_unique() -> None:
    if connection.features.can_rollback_ddl:
        # back to 0018 and on to 0019 in a transaction rolled back after: the schema is at
        # its latest again without applying every migration after 0019 once more
        with transaction.atomic():
            suffixed_and_unique()
            transaction.set_rollback(True)
    else:  # SQLite alters its tables outside a transaction
        try:
            suffixed_and_unique()
        finally:
            migrate(executor_leaves())


def suffixed_and_unique() -> None:
    old = migrate(BEFORE).loader.project_state(BEFORE).apps.get_model("tournaments",
                                                                      "Tournament")
    names = ["Cup", "Open", "cup", "Cup (2)", "CUP", "x" * 200, "X" * 200]
    ids = [old.objects.create(name=name).pk for name in names]
    new = migrate(AFTER).loader.project_state(AFTER).apps.get_model("tournaments",
                                                                    "Tournament")
    renamed = dict(new.objects.filter(pk__in=ids).values_list("pk", "name"))
    assert [renamed[pk] for pk in ids] == [
        "Cup", "Open", "cup (3)", "Cup (2)", "CUP (4)", "x" * 200, "X" * 196 + " (2)"]


def executor_leaves() -> list[tuple[str, str]]:
    """Every app at its latest migration again, for the tests after this one."""
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()
