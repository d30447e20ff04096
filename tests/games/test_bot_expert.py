"""The expert bot (games/bots/expert.py, inference.py): what it reads from the history, its
CPU time a decision, its race of candidates, and a duplicate match through the command.
That it decides only from what its seat sees is test_bots.py's test of every level, and its
legal moves within its budget and its answer when there is nothing to weigh are
test_bots.py's tests of the bots that search."""

from __future__ import annotations

import io
import random
import re
import statistics
import time
from collections import Counter

from django.core.management import call_command
from django.utils import translation

from games.bots import BOTS, make_bot
from games.bots.expert import ExpertBot
from games.bots.greedy import GreedyBot
from games.bots.inference import InferringSampler, clues
from games.bots.model import fast_meld
from games.bots.playout import world_of
from games.bots.search import Sampler
from games.engine import Discard, GameState, LayContract, full_pack, legal_actions
from games.engine.play import deal_from_seed
from games.vocabulary import bot_description, bot_level_choices

from .positions import decision_points

# -- the level ------------------------------------------------------------------------


def test_it_is_a_level_to_choose_with_its_budget_and_clock() -> None:
    assert ("expert", "expert") in bot_level_choices()
    with translation.override("fi"):
        assert "vahvin" in bot_description("expert")
    bot = make_bot("expert", 1, budget=0.05, clock=time.thread_time)
    assert isinstance(bot, ExpertBot) and bot.budget == 0.05 and bot.clock is time.thread_time
    steady = BOTS["expert"].make_steady(1)
    assert isinstance(steady, ExpertBot) and steady.rollouts and steady.budget == float("inf")


# -- what it reads from the history -----------------------------------------------------


def test_its_clues_hold_in_sound_play() -> None:
    """In games of greedy bots, which play soundly: a seat the clues call unchanged holds
    the cards it ended its last turn with, and the real deal never breaks the two firm
    clues (a contract held back, cards left unplayed)."""
    checked: Counter[str] = Counter()
    for seed in range(3):
        first_dealer, decks = deal_from_seed(seed)
        game = GameState(first_dealer)
        bots = [GreedyBot() for _ in range(4)]
        for deck in decks:
            game.deal(deck)
            after_turn: dict[int, list[int]] = {}
            while (seat := game.to_move) is not None:
                state, obs = game.hand, game.observation(seat)
                for clue in clues(obs):
                    if clue.unchanged:
                        assert sorted(c.index for c in state.hands[clue.seat]) == \
                            after_turn[clue.seat]
                        checked["down" if clue.down else "not down"] += 1
                sampler = InferringSampler(obs)
                broken = sampler.inference.broken(world_of(state))
                assert "held contract" not in broken and "unplayed" not in broken
                action = bots[seat].choose(obs, game.legal_actions())
                game.apply(action)
                if isinstance(action, Discard) and game.hand.hand_no == state.hand_no:
                    after_turn[seat] = sorted(c.index for c in game.hand.hands[seat])
    assert checked["down"] >= 50 and checked["not down"] >= 50


def test_its_deals_break_far_fewer_clues_than_deals_that_ignore_them() -> None:
    plain: Counter[str] = Counter()
    inferred: Counter[str] = Counter()
    for seed in range(2):
        for state in decision_points(seed, every=4):
            obs = state.observation(state.seat)
            sampler, inferring = Sampler(obs), InferringSampler(obs)
            for k in range(4):
                plain.update(inferring.inference.broken(sampler.sample(random.Random(k))))
                inferred.update(inferring.inference.broken(inferring.sample(random.Random(k))))
    assert plain["held contract"] >= 20 and plain["unplayed"] >= 20
    for clue in ("held contract", "unplayed"):
        assert inferred[clue] * 4 <= plain[clue], (clue, plain, inferred)


def test_its_deals_hold_every_card_once_and_keep_what_the_seat_sees() -> None:
    for state in decision_points(seed=3, every=7):
        obs = state.observation(state.seat)
        sampler = InferringSampler(obs)
        known = sampler.sampler.known
        for k in range(3):
            world = sampler.sample(random.Random(k))
            placed = [c for h in world.hands for c in h] + [c for p in world.piles for c in p]
            placed += world.discard + [p.card.index for m in obs.melds for p in m.cards]
            placed += [c.index for c, _source in obs.pending]
            assert Counter(placed) == Counter(c.index for c in full_pack())
            assert world.hands[state.seat] == [c.index for c in obs.hand]
            assert [len(h) for h in world.hands] == list(obs.hand_sizes)
            assert world.melds == [fast_meld(m) for m in obs.melds]
            for seat in range(4):
                assert not Counter(known[seat]) - Counter(world.hands[seat])


# -- its moves and its budget ------------------------------------------------------------


def test_its_median_decision_takes_its_budget_of_cpu_time_at_most_and_none_a_second() -> None:
    # CPU time of this thread: what other work on the machine does is not counted
    bot = ExpertBot(5, budget=0.05, clock=time.thread_time)
    spent = []
    for state in decision_points(seed=9, every=9):
        legal = legal_actions(state)
        if len(bot.candidates(state.observation(state.seat), legal)) < 2:
            continue
        started = time.thread_time()
        bot.choose(state.observation(state.seat), legal)
        spent.append(time.thread_time() - started)
    assert len(spent) >= 10
    assert statistics.median(spent) <= bot.budget and max(spent) < 1.0


def test_it_weighs_holding_the_contract_back_and_four_discards() -> None:
    bot = ExpertBot(1)
    seen: Counter[str] = Counter()
    for seed in range(4):
        for state in decision_points(seed, every=1):
            obs, legal = state.observation(state.seat), legal_actions(state)
            found = bot.candidates(obs, legal)
            assert found[0] == GreedyBot().choose(obs, legal) and set(found) <= set(legal)
            if isinstance(found[0], LayContract):
                # R7.1 lets it wait: the greedy discard instead, last
                assert isinstance(found[-1], Discard)
                seen["contract"] += 1
            elif isinstance(found[0], Discard) and len(set(obs.hand) - {obs.taken}) >= 4:
                assert len(found) == 4 and all(isinstance(a, Discard) for a in found)
                seen["discard"] += 1
    assert seen["contract"] >= 5 and seen["discard"] >= 20


# -- its race ----------------------------------------------------------------------------


def test_it_keeps_the_greedy_choice_unless_another_is_clearly_better() -> None:
    bot = ExpertBot(1)
    noisy = [[0.0, 100.0] * 5, [60.0, 60.0] * 5]  # +10 on average, but +60 or -40
    clear = [[0.0, 100.0] * 5, [20.0, 120.0] * 5]  # +20 on every deal

    assert bot.pick(noisy) == 0
    assert bot.pick(clear) == 1


def test_its_race_drops_what_the_leader_clearly_beats_but_never_the_greedy_choice() -> None:
    bot = ExpertBot(1)
    outcomes = [[0.0, 100.0] * 4, [40.0, 140.0] * 4, [30.0, 148.0] * 4, [10.0, 40.0] * 4]

    # 1 leads; 0 and 3 lose to it on every deal; 2 is about as good, but noisy
    assert bot.keep(outcomes, [0, 1, 2, 3]) == [0, 1, 2]
    # one dropped from the race is not played, however good its first deals were
    assert bot.pick([outcomes[0], outcomes[2], [90.0, 190.0] * 2]) == 1


# -- a duplicate match -------------------------------------------------------------------


def test_a_seeded_duplicate_match_against_greedy_prints_a_percentage_and_an_interval() -> None:
    out = io.StringIO()
    call_command("bot_match", "expert", "greedy", "--games", "4", "--seed", "5", "--budget",
                 "0.01", "--cpu-clock", "--duplicate", stdout=out)
    text = out.getvalue()

    assert "A = expert, B = greedy, scored as duplicate" in text
    assert "boards: 10 (each played at two tables)" in text
    assert re.search(r"A's matchpoints: \d+\.\d%", text)
    assert re.search(r"95% confidence interval: \[\d+\.\d%, \d+\.\d%\] \(t, over 2 pack "
                     r"sets' percentages\)", text)
