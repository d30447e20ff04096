"""A process's replayed games (games/live/replayed.py): the events read from a kept game
are the replay's, and a kept game is used only at the table's own sequence number."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.bots import make_bot
from games.engine import parse_action
from games.live import replayed, service
from games.live.state import LiveGame, events_since, recent_events

from .conftest import FIRST, SEED

VIEWERS = (0, 1, 2, 3, None)


def _played(seed: int, actions: int) -> list[str]:
    """The first ``actions`` actions of a game of random bots."""
    live, bots, texts = LiveGame(seed), [make_bot("random", seed + s) for s in range(4)], []
    while len(texts) < actions and not live.game.is_over:
        seat = live.game.to_move
        assert seat is not None
        action = bots[seat].choose(live.game.observation(seat), live.game.legal_actions())
        texts.append(str(action))
        live.apply(action)
        live.next_hand()
    return texts


@given(seed=st.integers(0, 2**62), back=st.integers(0, 8))
def test_recent_events_are_the_replays_within_the_hand_in_play(seed: int, back: int) -> None:
    texts = _played(seed, 400)  # over several hands, each ending inside the range
    everything = {v: events_since(seed, texts, 0, v)[0] for v in VIEWERS}
    live = LiveGame(seed)
    for seq, text in enumerate(texts, start=1):
        live.apply(parse_action(text))
        live.next_hand()
        since = max(0, seq - back)
        in_play = live.game.to_move is not None and seq - since <= len(live.hand_actions[-1])
        for viewer in VIEWERS:
            recent = recent_events(live, seq, since, viewer)
            assert recent == (everything[viewer][since:seq] if in_play else None)


@pytest.mark.django_db
def test_a_game_kept_at_an_older_sequence_number_is_not_used(player: Any) -> None:
    """Another process acted meanwhile: this process's copy is one action behind, so the
    service replays the log instead (and the events are those of the log)."""
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    service.table_act(table.pk, FIRST, f"{FIRST} take", "a")
    table.refresh_from_db()
    view = service.update_since(table.pk, FIRST, 0).view  # kept at sequence number 1
    stale = replayed.take(table)
    assert stale is not None
    discard = f"{FIRST} discard {view['hand'][0]}"
    service.table_act(table.pk, FIRST, discard, "b")  # as if in another process
    replayed.keep(table, stale)  # this object still says 1
    update = service.update_since(table.pk, FIRST, 1)
    assert [(e["seq"], e["action"]) for e in update.events] == [(2, discard)]
    assert update.view["seq"] == 2 and update.view["to_move"] != FIRST
    assert discard.split()[-1] not in update.view["hand"]
