"""A hint's reason (games/bots/advice.py): over seeded positions, the reason names the
suggested action's cards and the hand's contract (R3.2, R7.1), and never a card its seat
cannot see; each kind of move gets the reason its judgement gives."""

from __future__ import annotations

import random
import re

import pytest
from django.utils.translation import gettext, override
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import BOTS, HINT_LEVEL, make_bot
from games.bots.advice import (
    DISCARD_KEEP,
    PUSH_END,
    TAKE_CLOSER,
    TAKE_WILD,
    TEMPLATES,
    Advice,
    advise,
)
from games.engine import (
    Action,
    Card,
    Discard,
    LayContract,
    LayMelds,
    LayOff,
    Observation,
    Push,
    Swap,
    Take,
    observed_legal_actions,
)
from games.engine.cards import parse_cards
from games.live.hints import reason_words
from games.live.state import LiveGame
from games.vocabulary import contract_words

CARD = re.compile(r"(?<![A-Za-z0-9=])(?:JK|[A2-9TJQK][SHDC])(?![A-Za-z0-9])")


def _position(seed: int, steps: int) -> tuple[Observation, list[Action]]:
    """The seat to move's observation and legal actions after ``steps`` greedy (and now
    and then random) actions of the game dealt from ``seed``."""
    live, rng = LiveGame(seed), random.Random(seed)
    greedy = make_bot("greedy", seed)
    for _ in range(steps):
        seat = live.game.to_move
        if seat is None:
            break
        obs = live.game.observation(seat)
        legal = observed_legal_actions(obs)
        live.apply(rng.choice(legal) if rng.random() < 0.2 else greedy.choose(obs, legal))
        live.next_hand()
    seat = live.game.to_move
    assert seat is not None
    obs = live.game.observation(seat)
    return obs, observed_legal_actions(obs)


def _words(advice: Advice) -> str:
    return reason_words({"template": advice.template, "values": dict(advice.values),
                         "hand": advice.hand_no})


def _action_cards(action: Action, obs: Observation) -> list[str]:
    """The cards a reason must name for ``action``: its own, or the discard drawn."""
    if isinstance(action, Take | Push):
        return [obs.discard[-1].code]
    if isinstance(action, Discard):
        return [action.card.code]
    if isinstance(action, LayContract | LayMelds):
        return [p.card.code for m in action.melds for p in m.cards]
    if isinstance(action, LayOff):
        return [p.card.code for p in action.cards]
    assert isinstance(action, Swap)
    return [action.card.code, action.wild.code]


def _seen(obs: Observation) -> set[str]:
    """Every card the seat of ``obs`` sees: its hand, the pile, the table, a swapped wild."""
    cards = [*obs.hand, *obs.discard, *(p.card for m in obs.melds for p in m.cards),
             *(c for c, _meld in obs.pending)]
    return {c.code for c in cards}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 160), pick=st.randoms())
def test_it_names_the_moves_cards_and_the_contract_and_no_card_unseen(
        seed: int, steps: int, pick: random.Random) -> None:
    obs, legal = _position(seed, steps)
    # the hint level's own choice (its steady form: seeded, a fixed number of rollouts),
    # or any legal move, so that every kind of move and reason comes up
    chosen = (BOTS[HINT_LEVEL].make_steady(seed).choose(obs, legal) if pick.random() < 0.5
              else pick.choice(legal))
    advice = advise(obs, legal, chosen)
    assert advice.template in TEMPLATES and advice.action == chosen
    with override("en"):
        words = _words(advice)
    assert contract_words(obs.hand_no) in words, words
    named = CARD.findall(words)
    for card in _action_cards(chosen, obs):
        assert card in named, (str(chosen), words)
    assert set(named) <= _seen(obs), (words, sorted(set(named) - _seen(obs)))


def test_a_push_names_the_discard_and_the_hand_only() -> None:
    # the stock card it sends on is nobody's to name: not even the pusher sees it (R6.3)
    for seed in range(40):
        obs, legal = _position(seed, 0)
        words = _words(advise(obs, legal, Push(obs.seat)))
        named = CARD.findall(words)
        assert named[0] == obs.discard[-1].code, words
        assert set(named[1:]) <= {c.code for c in obs.hand}, words


def test_a_take_that_fills_the_contract_says_how_close_and_what_it_keeps() -> None:
    # hand 1 (two sets of 3): 7H 7S 9C 9D 9S KH; the discard 7D makes the sets whole
    hand = tuple(parse_cards("7H 7S 9C 9D 9S KH"))
    obs = _observation(hand, discard=(Card.parse("7D"),))
    legal = observed_legal_actions(obs)
    advice = advise(obs, legal, Take(obs.seat))
    assert advice.template == TAKE_CLOSER
    assert (advice.values["before"], advice.values["after"]) == (1, 0)
    # the sets' naturals are kept, the king is not
    assert advice.values["kept"].split() == sorted(["7H", "7S", "7D", "9C", "9D", "9S"],
                                                   key=Card.parse)
    assert "KH" not in str(advice.values["kept"])


def test_a_wild_on_the_pile_is_taken_as_a_wild() -> None:
    hand = tuple(parse_cards("7H 7S 9C 9D 5S KH"))
    obs = _observation(hand, discard=(Card.parse("4D"), Card.parse("JK")))
    advice = advise(obs, observed_legal_actions(obs), Take(obs.seat))
    assert advice.template == TAKE_WILD and advice.values == {"card": "JK"}


def test_a_discard_the_plan_does_not_need_names_what_the_hand_keeps() -> None:
    hand = tuple(parse_cards("7H 7S 9C 9D 5S KH 4C"))
    obs = _observation(hand, discard=(Card.parse("3D"),), phase="play")
    advice = advise(obs, observed_legal_actions(obs), Discard(obs.seat, Card.parse("KH")))
    assert advice.template == DISCARD_KEEP
    assert {"7H", "7S", "9C", "9D"} <= set(str(advice.values["kept"]).split())
    assert advice.values["missing"] == 2


def test_a_push_with_the_stock_nearly_out_ends_the_hand() -> None:
    hand = tuple(parse_cards("7H 3S"))
    obs = _observation(hand, discard=(Card.parse("KD"),), stock=1)
    assert advise(obs, observed_legal_actions(obs), Push(obs.seat)).template == PUSH_END


def test_an_action_not_among_the_legal_ones_is_refused() -> None:
    obs, legal = _position(3, 0)
    with pytest.raises(ValueError, match="not among the seat's legal actions"):
        advise(obs, legal, Discard(obs.seat, obs.hand[0]))  # a discard in the draw


def test_every_reason_is_in_the_catalogue_in_finnish() -> None:
    with override("fi"):
        untranslated = [t for t in TEMPLATES if gettext(t) == t]
    assert untranslated == []


def test_the_hint_level_is_a_registered_level() -> None:
    assert HINT_LEVEL in BOTS


def _observation(hand: tuple[Card, ...], *, discard: tuple[Card, ...], stock: int = 40,
                 phase: str = "draw") -> Observation:
    """Seat 0's view of hand 1 at its turn, no contract down, nothing melded."""
    return Observation(seat=0, hand_no=1, dealer=3, hand=hand, melds=(), discard=discard,
                       hand_sizes=(len(hand), 6, 6, 6), stock_size=stock,
                       contract_down=(False,) * 4, to_move=0, phase=phase,  # type: ignore[arg-type]
                       turns=0, taken=None, pending=(), history=(), buried=())
