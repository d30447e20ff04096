"""A process's replayed games (games/live/replayed.py): the events read from a kept game
are the replay's, and a kept game that is behind the log is brought forward from it."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from games.bots import make_bot
from games.engine import parse_action
from games.live import replayed, service
from games.live.state import LiveGame, advance, events_since, recent_events, replay, seat_view

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


@given(seed=st.integers(0, 2**62), cut=st.integers(0, 400))
def test_a_game_advanced_from_any_point_is_the_replay(seed: int, cut: int) -> None:
    """Brought forward from action ``cut`` (across hands too), a game is the one replayed
    from the start: every seat's view and every hand's actions."""
    texts = _played(seed, 400)
    whole = replay(seed, texts)
    advanced = advance(replay(seed, texts[:cut]), texts[cut:])
    assert advanced.hand_actions == whole.hand_actions
    assert [seat_view(advanced, s) for s in range(4)] == [seat_view(whole, s) for s in range(4)]


@pytest.mark.django_db
def test_a_game_kept_at_an_older_sequence_number_is_brought_forward(player: Any) -> None:
    """Another process acted meanwhile: this process's copy is one action behind, so the
    service plays the logged action onto it (and the events are those of the log), read
    in the same statement as the table's row."""
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    service.table_act(table.pk, FIRST, f"{FIRST} take", "a")
    table.refresh_from_db()
    view = service.update_since(table.pk, FIRST, 0).view  # kept at sequence number 1
    stale = replayed.take(table)
    assert stale is not None
    discard = f"{FIRST} discard {view['hand'][0]}"
    service.table_act(table.pk, FIRST, discard, "b")  # as if in another process
    replayed.keep(table, stale)  # this object still says 1
    with CaptureQueriesContext(connection) as queries:
        update = service.update_since(table.pk, FIRST, 1)
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert [(e["seq"], e["action"]) for e in update.events] == [(2, discard)]
    assert update.view["seq"] == 2 and update.view["to_move"] != FIRST
    assert discard.split()[-1] not in update.view["hand"]


@pytest.mark.django_db
def test_a_game_kept_ahead_of_the_table_row_is_not_used(player: Any) -> None:
    """A copy ahead of the row read (another thread kept it after a later commit) is not
    this row's game: ``take`` refuses it and the service replays the log."""
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    service.table_act(table.pk, FIRST, f"{FIRST} take", "a")
    service.update_since(table.pk, FIRST, 0)  # kept at sequence number 1
    table.seq = 0  # the row as read before that action
    assert replayed.take(table) is None
