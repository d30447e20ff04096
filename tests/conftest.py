from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from config.environment import read

# A property test must not fail because a loaded machine ran one example slowly: no
# per-example deadline (Hypothesis's default is 200 ms) for any test, present or future.
hypothesis_settings.register_profile("push", deadline=None)
hypothesis_settings.load_profile("push")


BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "services: needs PostgreSQL/Redis")
    config.addinivalue_line("markers", "browser: drives chromium (pytest -m 'not browser' "
                                       "runs everything else in a few minutes)")
    config.addinivalue_line("markers", "hosts: a round across hosts made of network "
                                       "namespaces; left out unless -m names it (make hosts)")
    if read().PUSH_REQUIRE_SERVICES:
        _require_services()
    compile_translations()


def compile_translations() -> list[Path]:
    """The .mo files the pages are translated from, compiled where older than their .po
    (each write is atomic, so parallel workers may race): plain ``pytest``, as an editor
    runs it, needs no step before it. Returns the .po files compiled."""
    from tournaments.management.commands.compile_translations import compile_po, po_files

    return [po for po in po_files() if compile_po(po)]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)
    # the round across hosts takes minutes and root: only a run that names it (make hosts)
    if "hosts" not in (config.option.markexpr or ""):
        left = [item for item in items if item.get_closest_marker("hosts")]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [item for item in items if not item.get_closest_marker("hosts")]


def _require_services() -> None:
    """Stop the run when CI asked for real services but the settings don't use them."""
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if engine != "django.db.backends.postgresql":
        raise pytest.UsageError(
            f"PUSH_REQUIRE_SERVICES=1 but the database engine is {engine}; "
            "set DATABASE_URL=postgres://... to test against PostgreSQL."
        )
    if settings.CELERY_TASK_ALWAYS_EAGER:
        raise pytest.UsageError(
            "PUSH_REQUIRE_SERVICES=1 but Celery runs tasks eagerly; "
            "set CELERY_BROKER_URL=redis://... to test against a real broker."
        )


@pytest.fixture(scope="session")
def django_db_setup(request: pytest.FixtureRequest, django_test_environment: None,
                    django_db_blocker: Any, django_db_modify_db_settings: None) -> Iterator[None]:
    """pytest-django's own, but on PostgreSQL each worker's database is copied from one
    migrated template (``tests/database.py``) and then kept as it is (nothing left to
    migrate), and emptied between transactional tests with DELETE (``delete_between_tests``).
    Dropped at the end either way. No test asks for a serialized rollback."""
    from django.test.utils import setup_databases, teardown_databases

    from tests.database import copy_from_template, delete_between_tests

    with django_db_blocker.unblock():
        copied = copy_from_template()
        if copied:
            delete_between_tests()
        config = setup_databases(verbosity=request.config.option.verbose, interactive=False,
                                 keepdb=copied, serialized_aliases=set())
    yield
    with django_db_blocker.unblock():
        teardown_databases(config, verbosity=request.config.option.verbose)


@pytest.fixture(autouse=True)
def _english() -> None:
    """Each test starts in the site's language: a request in Finnish leaves Finnish active
    in its thread (LocaleMiddleware does not switch back), which a later test would see."""
    from django.utils import translation

    translation.activate("en")


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty cache (it holds API rate-limit counts)."""
    from django.core.cache import cache

    cache.clear()


@contextmanager
def tasks_in_process() -> Iterator[None]:
    """Run Celery tasks in-process even where a broker is configured (CI); then restore.
    With ``django_capture_on_commit_callbacks(execute=True)`` a test sees the work the
    services enqueue after their commit actually done."""
    from config.celery import app

    conf = app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = True
    try:
        yield
    finally:
        conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """A test's Celery tasks run in-process (``tasks_in_process``)."""
    with tasks_in_process():
        yield
