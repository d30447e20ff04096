from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.live import service
from games.live.state import replay

# A fixed deal; the human takes the seat that moves first, so a test acts at once.
SEED = 20261201
FIRST = replay(SEED, []).game.to_move


@pytest.fixture(autouse=True)
def _no_bot_pause(settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0


@pytest.fixture
def player(db: None) -> Any:
    return get_user_model().objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def act(eager_tasks: None, django_capture_on_commit_callbacks: Any) -> Callable[..., int]:
    """``table_act`` with the bots answering at once: the commit callbacks run (each one's
    own too) and the bot tasks run in-process."""
    def act(table_id: int, seat: int, text: str, client_id: str) -> int:
        with django_capture_on_commit_callbacks(execute=True):
            return service.table_act(table_id, seat, text, client_id)
    return act
