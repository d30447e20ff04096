"""The bots: registry, information hygiene, whole games, strength, and bot_match."""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import BOT_NAMES, make_bot
from games.bots import BOTS as BOT_LEVELS
from games.bots.contract import contract_options, lay_contract, missing
from games.bots.expert import ExpertBot
from games.bots.greedy import GreedyBot
from games.bots.match import match_bots, match_report, t975
from games.bots.model import stats
from games.bots.playout import world_of
from games.bots.random_bot import RandomBot
from games.bots.search import Sampler, SearchBot
from games.engine import (
    Action,
    Card,
    Discard,
    HandState,
    LayContract,
    LayMelds,
    Push,
    Take,
    build,
    dealer_of,
    full_pack,
    hand_size,
    legal_actions,
    verify,
)
from games.engine.generate import contracts
from games.engine.play import Policy, deal_from_seed, play_game
from tests.examples import examples

from . import packs
from .positions import Ticker, decision_points

#: Every level people choose from, in the form whose decisions depend on its seed alone.
BOTS: dict[str, Callable[[int | None], Policy]] = {
    name: level.make_steady for name, level in BOT_LEVELS.items()}


def redealt(state: HandState, rng: random.Random) -> HandState:
    """A twin of ``state`` that the mover cannot tell from it: every card it cannot see
    (in the other hands and the stock) dealt again at random into the same places, and
    what it has seen kept where it is: its own hand, each card the public history shows
    going into another hand from the pile (taken, or pushed to the left: R6.3; kept
    while that hand holds a copy, whether or not it is still the one given), and the
    wilds buried at the bottom of the stock (R4.3)."""
    twin = state.copy()
    given: list[Counter[Card]] = [Counter() for _ in range(4)]
    for event in state.history:
        action = event.action
        if event.card is not None and isinstance(action, Take | Push):
            given[action.seat if isinstance(action, Take) else (action.seat + 1) % 4][
                event.card] += 1
    places: list[tuple[list[Card], int]] = []
    for seat, hand in enumerate(twin.hands):
        if seat == state.seat:
            continue
        kept = Counter(given[seat])
        for i, card in enumerate(hand):
            if kept[card] > 0:
                kept[card] -= 1
            else:
                places.append((hand, i))
    places += [(twin.stock, i) for i in range(len(state.buried), len(twin.stock))]
    cards = [cards[i] for cards, i in places]
    rng.shuffle(cards)
    for (target, i), card in zip(places, cards, strict=True):
        target[i] = card
    return twin


# -- the registry --------------------------------------------------------------------


def test_it_registers_the_bots_by_name() -> None:
    assert set(BOT_NAMES) >= {"random", "greedy", "search"}
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot("search", 1, budget=0.05), SearchBot)


def test_it_names_the_known_bots_for_an_unknown_one() -> None:
    with pytest.raises(ValueError, match="greedy"):
        make_bot("nobody", 1)


# -- information hygiene -------------------------------------------------------------


def test_each_level_s_steady_form_decides_by_its_seed_alone() -> None:
    """What the tests below rely on: two bots of a level's steady form, of one seed,
    decide alike at every position (a bot searching for a time would not)."""
    for level in BOT_LEVELS.values():
        for state in decision_points(seed=6, every=11):
            obs, legal = state.observation(state.seat), legal_actions(state)
            assert level.make_steady(2).choose(obs, legal) == \
                level.make_steady(2).choose(obs, legal), level.name


@pytest.mark.parametrize("name", sorted(BOTS))
@settings(max_examples=examples(8), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), redeal=st.integers(0, 2**32 - 1),
       every=st.integers(8, 16))
def test_it_decides_the_same_whatever_the_cards_it_cannot_see(
        name: str, seed: int, redeal: int, every: int) -> None:
    """At positions of a whole game, the cards the mover cannot see dealt again: the
    same observation (the engine shows the seat nothing of them), the same legal moves,
    and the same decision with the same seed (the bot reads nothing else)."""
    rng = random.Random(redeal)
    checked: Counter[str] = Counter()
    for state in decision_points(seed, every):
        twin = redealt(state, rng)
        seat = state.seat
        assert twin.observation(seat) == state.observation(seat)
        assert legal_actions(twin) == legal_actions(state)
        choice = BOTS[name](seed).choose(state.observation(seat), legal_actions(state))
        again = BOTS[name](seed).choose(twin.observation(seat), legal_actions(twin))
        assert choice == again, f"{name} at hand {state.hand_no}, turn {state.turns}"
        if twin.hands != state.hands or twin.stock != state.stock:
            checked[state.phase] += 1
    # the re-deals did change hidden cards, at draws and at plays (not at every position:
    # late in a hand a seat may have seen nearly every card, and one re-deal in a few may
    # happen to deal the same; a share of them, asked before, failed a run by chance)
    assert checked["draw"] and checked["play"], checked


def test_a_redeal_keeps_what_the_mover_saw_and_changes_what_it_did_not() -> None:
    rng = random.Random(1)
    moved = 0
    for state in decision_points(seed=4, every=9):
        twin = redealt(state, rng)
        seat = state.seat
        assert twin.hands[seat] == state.hands[seat]
        assert Counter(c for h in twin.hands for c in h) + Counter(twin.stock) == \
            Counter(c for h in state.hands for c in h) + Counter(state.stock)
        assert [len(h) for h in twin.hands] == [len(h) for h in state.hands]
        assert twin.stock[:len(state.buried)] == state.stock[:len(state.buried)]
        moved += twin.hands != state.hands
    assert moved >= 10


def test_its_deals_hold_every_card_once_and_keep_what_the_seat_sees() -> None:
    for state in decision_points(seed=3, every=7):
        obs = state.observation(state.seat)
        sampler = Sampler(obs)
        known = sampler.known
        for k in range(3):
            world = sampler.sample(random.Random(k))
            placed = [c for h in world.hands for c in h] + [c for p in world.piles for c in p]
            placed += world.discard + [p.card.index for m in obs.melds for p in m.cards]
            placed += [c.index for c, _source in obs.pending]
            assert Counter(placed) == Counter(c.index for c in full_pack())
            assert world.hands[state.seat] == [c.index for c in obs.hand]
            assert [len(h) for h in world.hands] == list(obs.hand_sizes)
            assert world.stock_n == obs.stock_size
            for seat in range(4):
                assert not Counter(known[seat]) - Counter(world.hands[seat])


def _public_gift(history: list[Any], seat: int) -> tuple[int, int] | None:
    """The last card the public history shows going into a hand other than ``seat``'s:
    its receiver and the card's index, while the receiver has named no copy of it in an
    action since; else None. Read off the actions' text, apart from the bot's code."""
    for n in range(len(history) - 1, -1, -1):
        event = history[n]
        action = event.action
        if event.card is None or not isinstance(action, Take | Push):
            continue
        receiver = action.seat if isinstance(action, Take) else (action.seat + 1) % 4
        named = {token for later in history[n + 1:] if later.action.seat == receiver
                 for token in str(later.action).replace(",", " ").split()}
        if receiver == seat or any(str(event.card) in token for token in named):
            return None
        return receiver, event.card.index
    return None


def test_it_knows_the_card_an_opponent_took_from_the_pile() -> None:
    gifts = 0
    for state in decision_points(seed=5, every=3):
        obs = state.observation(state.seat)
        known = Sampler(obs).known
        for seat in range(4):
            if seat != state.seat:
                # every card the seat is known to hold is really in its hand
                assert not Counter(known[seat]) - Counter(c.index for c in state.hands[seat])
        gift = _public_gift(list(obs.history), state.seat)
        if gift is not None:  # and the card last seen going into a hand is known to be there
            gifts += 1
            receiver, card = gift
            assert card in known[receiver], (obs.history[-1], known)
    assert gifts >= 10, f"only {gifts} decisions followed a card seen going into a hand"


# -- the contract analyser behind both bots ----------------------------------------------


def test_it_sees_every_contract_the_rules_engine_offers() -> None:
    rng = random.Random(5)
    for hand_no in range(1, 6):
        for _ in range(400):
            pack = full_pack()
            rng.shuffle(pack)
            hand = pack[:hand_size(hand_no) + rng.randrange(6)]
            if contracts(hand_no, hand):
                assert missing(hand_no, [c.index for c in hand]) == 0


def lays_a_contract(hand_no: int, hand: list[int]) -> bool:
    """Can a rollout lay a contract from ``hand`` (R7.1)?"""
    return any(lay_contract(list(hand), hand_no, sets, runs, [])
               for sets, runs in contract_options(hand_no, stats(hand)))


def test_it_and_its_rollouts_hold_a_contract_exactly_when_the_engine_does() -> None:
    # hands rich in wilds, where a 2 may stand for itself (R5.4) or fill a hole
    rng = random.Random(8)
    pack = full_pack()
    wilds = [c for c in pack if c.is_wild]
    naturals = [c for c in pack if not c.is_wild]
    held = Counter[bool]()
    for hand_no in range(1, 6):
        for _ in range(300):
            k = rng.randrange(6)
            hand = rng.sample(wilds, k) + rng.sample(naturals, hand_size(hand_no) + 1 - k)
            ints = [c.index for c in hand]
            engine = bool(contracts(hand_no, hand))
            assert (missing(hand_no, ints) == 0) == engine, f"hand {hand_no}: {hand}"
            assert lays_a_contract(hand_no, ints) == engine, f"hand {hand_no}: {hand}"
            held[engine] += 1
    assert held[True] >= 200 and held[False] >= 200


@pytest.mark.parametrize(("hand_no", "hand"), [
    (1, "AS 2S 2S 2H 2H 2D"),  # set(AS 2S=A 2H=A) set(2S 2H 2D)
    (2, "2H 2H 2D 2C 5C 6C JK"),  # set(2H 2H 2D) run(5C 6C JK=7C 2C=8C)
    (4, "2H 2H 9H 9D QD 2C QC JK JK"),  # set(9H 9D JK=9) set(QD QC JK=Q) set(2H 2H 2C)
])
def test_it_sees_a_contract_that_needs_a_set_of_2s_beside_2s_used_as_wilds(
        hand_no: int, hand: str) -> None:
    state = packs.deal(hand_no, 3, hands={0: hand})
    ints = [c.index for c in state.hands[0]]
    assert contracts(hand_no, state.hands[0])  # the engine offers it (R5.4, R7.1)

    world = world_of(state)
    world.meld(0)

    assert missing(hand_no, ints) == 0
    assert world.down[0] and not world.hands[0]  # laid it all down: out (R8.1)


# -- the rollouts' simulator -------------------------------------------------------------


def hands_played(seed: int) -> Iterator[tuple[HandState, Action, HandState]]:
    """Each hand of a game of two greedy and two random bots (greedy in seats 0 and 2 for
    an even seed, 1 and 3 for an odd one): the position before its last action, that
    action and the end position."""
    first_dealer, decks = deal_from_seed(seed)
    bots: list[Policy] = [GreedyBot(), RandomBot(seed), GreedyBot(), RandomBot(seed + 1)]
    bots = bots[seed % 2:] + bots[:seed % 2]
    for hand_no, deck in enumerate(decks, start=1):
        # Each hand on its own (a HandState is the simulator's unit; no game is needed to
        # score one hand).
        hand = HandState.deal(hand_no, dealer_of(first_dealer, hand_no), deck)
        before = hand.copy()
        while hand.outcome is None:
            action = bots[hand.seat].choose(hand.observation(hand.seat), legal_actions(hand))
            before = hand.copy()
            hand.apply(action)
        yield before, action, hand


def test_its_rollouts_score_the_end_of_a_hand_exactly_as_the_engine_does() -> None:
    ends: Counter[str] = Counter()
    for seed in range(16):
        for before, action, end in hands_played(seed):
            assert end.outcome is not None
            world = world_of(before)
            if isinstance(action, Discard):
                world.discard_card(action.seat, action.card.index)  # out (R8.1), or R8.3
            elif isinstance(action, Push):
                world.push(action.seat)  # on a short stock (R6.4)
            elif isinstance(action, LayContract | LayMelds):
                world.lay(action.seat, action.melds)  # out by melding (R8.1)
            else:  # out by a lay-off, which the rollouts play on their own melds only
                world = world_of(end)
                world.end(end.outcome.out_seat)
            assert world.scores == end.outcome.scores, f"seed {seed}, {action}"
            ends[f"{type(action).__name__} {end.end_rule}"] += 1
    assert {"Discard R8.1", "Push R8.2", "LayMelds R8.1", "LayOff R8.1"} <= set(ends)


def test_its_rollouts_score_an_exhausted_stock_exactly_as_the_engine_does() -> None:
    checked = 0
    for seed in range(6):
        for state in decision_points(seed, every=3):
            if state.phase != "draw":
                continue
            state.stock = state.stock[-1:]  # one card left: a push ends the hand (R6.4)
            world = world_of(state)
            world.push(state.seat)
            state.apply(Push(state.seat))
            assert state.outcome is not None and state.outcome.ended_by == "stock"
            assert world.scores == state.outcome.scores  # both teams score (R9.1)
            checked += 1
    assert checked >= 100


# -- the search ----------------------------------------------------------------------


def test_it_keeps_the_greedy_choice_unless_another_is_clearly_better() -> None:
    bot = SearchBot(1)
    noisy = [[0.0, 100.0] * 5, [60.0, 60.0] * 5]  # +10 on average, but +60 or -40
    clear = [[0.0, 100.0] * 5, [20.0, 120.0] * 5]  # +20 on every deal

    assert bot.pick(noisy) == 0
    assert bot.pick(clear) == 1


#: the bots that search, each tried by the tests of searching
SEARCHERS = [SearchBot, ExpertBot]


@pytest.mark.parametrize("searcher", SEARCHERS)
def test_it_answers_at_once_when_there_is_nothing_to_weigh(searcher: type[SearchBot]) -> None:
    for state in decision_points(seed=2, every=1):
        legal = legal_actions(state)
        if len(legal) == 1 or (state.phase == "draw" and state.discard[-1].is_wild):
            clock = Ticker(0.001)
            bot = searcher(1, budget=30.0, clock=clock)
            action = bot.choose(state.observation(state.seat), legal)
            assert action == GreedyBot().choose(state.observation(state.seat), legal)
            assert clock.reads == 1  # its deadline, and no deal played out
            return
    pytest.fail("no trivial decision met")


@pytest.mark.parametrize("searcher", SEARCHERS)
def test_it_plays_legal_moves_within_its_time_budget(searcher: type[SearchBot]) -> None:
    clock = Ticker(1 / 256)  # sums of powers of two: exact
    bot = searcher(3, budget=16 / 256, clock=clock)
    searched = 0
    for state in decision_points(seed=8, every=6):
        started, reads = clock.now, clock.reads
        action = bot.choose(state.observation(state.seat), legal_actions(state))
        assert action in legal_actions(state)
        # it stops at its deadline, however long a deal takes: one read past it at most
        # (the deadline is a read after the start)
        assert clock.now - started <= bot.budget + 2 * clock.step
        searched += clock.reads - reads > 1
    assert searched >= 10


# -- whole games ---------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BOTS))
def test_it_plays_a_whole_game_that_verifies_complete(name: str) -> None:
    first_dealer, decks = deal_from_seed(21)
    policies = [BOTS[name](seat) for seat in range(2)] + [GreedyBot(), RandomBot(3)]
    record = play_game(policies, first_dealer, decks)

    verdict = verify(record.dumps())

    assert verdict.status == "complete"
    assert record.result is not None and verdict.totals == record.result.totals


def test_greedy_beats_random_on_duplicated_packs() -> None:
    result = match_bots(bot_a="greedy", bot_b="random", games=6, seed=4)

    assert result.games == 6
    assert all(d > 0 for d in result.diffs)  # greedy wins every game
    assert result.interval is not None and result.interval[0] > 500


# -- bot_match -----------------------------------------------------------------------


def test_it_pairs_each_deal_with_the_seats_exchanged() -> None:
    result = match_bots(bot_a="greedy", bot_b="greedy", games=3, seed=2)

    assert result.games == 4  # rounded up to whole pairs
    # the same bot on the same cards: each game's difference comes back reversed
    assert result.diffs[0] == -result.diffs[1] and result.diffs[2] == -result.diffs[3]
    assert result.pair_means == [0.0, 0.0] and result.interval == (0.0, 0.0)


def test_it_uses_t_quantiles() -> None:
    assert t975(1) == 12.706
    assert t975(30) == 2.042
    assert t975(1000) == pytest.approx(1.962, abs=1e-3)


def test_it_reports_the_sign_convention() -> None:
    report = match_report(match_bots(bot_a="greedy", bot_b="random", games=2, seed=9))

    assert "B - A" in report and "positive = A better" in report
    assert "games: 2" in report and "wall time" in report


def test_the_command_prints_the_match() -> None:
    out = io.StringIO()
    call_command("bot_match", "greedy", "random", "--games", "2", "--seed", "3", stdout=out)

    assert "A = greedy" in out.getvalue() and "95% confidence interval" in out.getvalue()


def test_the_command_refuses_an_unknown_bot() -> None:
    with pytest.raises(CommandError, match="unknown bot 'nobody'"):
        call_command("bot_match", "greedy", "nobody", "--games", "2")


def test_its_deals_keep_the_buried_wilds_at_the_bottom_of_the_stock() -> None:
    # R4.3: the seat saw a JK and the 2C go under the stock, so while the stock holds
    # them they are the last cards its piles give, and no sampled hand gets them.
    state = packs.deal(1, 3, buried="JK 2C", upcard="KH")
    jk, two = Card.parse("JK").index, Card.parse("2C").index
    sampler = Sampler(state.observation(state.seat))
    for k in range(20):
        world = sampler.sample(random.Random(k))
        assert (world.piles[0][0], world.piles[1][0]) == (jk, two)
        in_hands = Counter(c for hand in world.hands for c in hand)
        assert in_hands[jk] <= 3 and in_hands[two] <= 1


def test_the_benchmark_command_prints_how_often_rollouts_end_a_hand_as_the_engine() -> None:
    out = io.StringIO()
    call_command("bench_bots", "--seeds", "2", "--games", "1", stdout=out)

    assert "of 10 hands" in out.getvalue() and "hands played out per second" in out.getvalue()
    # then each level's decisions a second on each build there is, timed apart
    builds = ("compiled", "pure") if build.extension_files() else ("pure",)
    for name in BOT_NAMES:
        line = next(x for x in out.getvalue().splitlines() if x.startswith(f"{name}: "))
        assert re.fullmatch(rf"{name}: decisions a second: " + ", ".join(
            rf"[\d,]+ {b}" for b in builds) + r"( \([\d.]+x\))? \(1 games\)", line), line


def test_the_benchmark_command_refuses_no_games() -> None:
    with pytest.raises(CommandError, match="--seeds must be at least 1"):
        call_command("bench_bots", "--seeds", "0")
    with pytest.raises(CommandError, match="--games must be at least 1"):
        call_command("bench_bots", "--games", "0")
