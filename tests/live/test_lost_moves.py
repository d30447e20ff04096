"""A bot's move is a task sent after the human's move commits. With the broker down the
human's move still stands (the send is logged, not raised at the mover), and beat's sweep
sends the lost move again once the table has been quiet for a while (no person's clock
running), after which the bot plays on.

The broker is a closed local port (a broker that is down, not a stand-in for our code);
time passing is the table's timestamps moved into the past: no test sleeps."""

from typing import Any

import pytest

from games.live import followups, service
from games.live.models import LiveAction, LiveTable

from ..tournaments.test_celery_e2e import broker_unreachable
from .conftest import FIRST, SEED, quiet_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)




def test_a_lost_bot_move_is_sent_again_by_the_sweep(table: LiveTable, eager_tasks: None,
                                                    settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    view = service.update_since(table.pk, FIRST, 0).view
    draw = next(a for a in view["legal"] if a.endswith(" take"))
    seq = service.table_act(table.pk, FIRST, draw, "h1")
    legal = service.update_since(table.pk, FIRST, seq).view["legal"]
    discard = next(a for a in legal if " discard " in a)
    with broker_unreachable():
        seq = service.table_act(table.pk, FIRST, discard, "h2")  # the bot's task is lost
    assert seq == 2
    assert LiveTable.objects.get(pk=table.pk).seq == 2  # the move stands; no bot moved

    assert followups.sweep()["bot_moves_sent"] == 0  # a fresh move: not stalled yet
    assert LiveTable.objects.get(pk=table.pk).seq == 2
    quiet_for(table, followups.STALLED_SECONDS + 1)
    assert followups.sweep()["bot_moves_sent"] == 1
    after = LiveTable.objects.get(pk=table.pk)
    assert after.seq > 2  # the bots played on, up to the person's next turn
    assert service.update_since(table.pk, FIRST, 0).view["to_move"] == FIRST
    assert LiveAction.objects.filter(table=table, client_id="!bot-2").count() == 1
