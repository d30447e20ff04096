"""Fixtures of the tournament tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import TestCase, override_settings

from tests.conftest import tasks_in_process
from tests.robot_duplicate.test_robot_duplicate import Act

from .secret_games import SecretGames, build


@pytest.fixture(scope="module")
def secret_site(django_db_setup: None, django_db_blocker: Any) -> Iterator[SecretGames]:
    """The secret games (``secret_games.py``) built once for a test module, in a transaction
    rolled back after its last test. Each test runs in a savepoint inside that transaction
    (pytest-django's own), so what one test changes (a release, a move, a user made staff)
    is undone before the next; ``site`` reads the objects again for each test."""
    capture = TestCase.captureOnCommitCallbacks
    with django_db_blocker.unblock(), transaction.atomic():
        with tasks_in_process(), override_settings(LIVE_BOT_PAUSE_SECONDS=0):
            built = build(Act(capture), capture)
        yield built
        transaction.set_rollback(True)


@pytest.fixture
def site(secret_site: SecretGames) -> SecretGames:
    """The secret games as the database holds them when the test starts."""
    return secret_site.fresh()


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """Run ``work`` and what its commit sends (the outbox's tasks, here in-process)."""
    def run(work: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return work()
    return run
