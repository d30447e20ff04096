"""The work budget of ``games.engine.ways``: on the worst selections a player can send (many
cards, 8 wilds, every mix of jokers and 2s, runs and sets, before and after the contract,
with melds to lay off onto) it stops within its work units, and whatever it returns the
engine accepts; when the units run out it returns the ways found so far, or refuses.

The budget is counted in work units, so these tests hold on a machine of any speed or load;
no wall time is asserted (a bound of 0.5 s took 3.3 s on a machine ten processes deep). The
time itself (the aim is 50 ms at worst; about 10 ms here) is measured by ``manage.py
bench_engine --ways``, over the same selections."""

from __future__ import annotations

from functools import cache
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.engine import WAYS_SPARE, WAYS_TABLE, WaysCase, ways_cases
from games.engine import (
    Action,
    Card,
    HandState,
    IllegalActionError,
    LayContract,
    LayMelds,
    LayOff,
    MeldSpec,
    Swap,
    legal_actions,
)
from games.engine.cards import ALL_CARDS, JOKER, parse_cards
from games.engine.melds import Placed, build_meld, declare, plain
from games.engine.state import CONTRACTS
from games.engine.ways import BUDGET, LIMIT, PER_WAY, TOO_MANY_WAYS, search, ways
from tests.examples import examples

from .test_commands import manage
from .test_ways import cards_of, decisions, same_move

ALLOWED = BUDGET + PER_WAY * LIMIT
CASES = ways_cases()


def budgeted_search(state: HandState, cards: tuple[Card, ...] | list[Card],
                    meld: int | None) -> tuple[list[Action], int, bool]:
    found = search(state.observation(0), cards, meld)
    return found.actions, found.work, found.exhausted


def assert_legal(state: HandState, found: list[Action], cards: tuple[Card, ...] | list[Card],
                 meld: int | None) -> None:
    """Every way uses exactly ``cards``, once each, and the full state's ``apply`` takes it."""
    assert len(found) <= LIMIT
    assert len({str(a) for a in found}) == len(found)
    for action in found:
        assert sorted(cards_of(action)) == sorted(cards), str(action)
        if meld is not None:
            assert isinstance(action, LayOff | Swap) and action.meld == meld
        state.copy().apply(action)  # raises IllegalActionError if not legal


def case(label: str) -> WaysCase:
    return next(c for c in CASES if c.label == label)


def test_the_built_worst_cases_cover_what_they_say() -> None:
    assert len(CASES) == 2 * 3 * 11 * 2
    sizes = {len(c.state.hands[0]) - 1 for c in CASES}
    assert sizes == {14, 22}
    assert all(sum(card.is_wild for card in c.state.hands[0]) == 8 for c in CASES)
    assert {sum(card.is_joker for card in c.cards) for c in CASES} == {0, 2, 4}
    assert {c.state.hand_no for c in CASES if not c.state.contract_down[0]} == set(CONTRACTS)


@pytest.mark.parametrize("built", CASES, ids=[c.label for c in CASES])
def test_a_worst_case_is_answered_within_the_budget_and_every_way_is_legal(
        built: WaysCase) -> None:
    found, work, exhausted = budgeted_search(built.state, built.cards, built.meld)
    assert work <= ALLOWED
    assert_legal(built.state, found, built.cards, built.meld)
    if exhausted and not found:
        with pytest.raises(IllegalActionError) as refused:
            ways(built.obs, built.cards, built.meld)
        assert refused.value.message == TOO_MANY_WAYS
        assert refused.value.rule == ("R7.3" if built.meld is not None
                                      or built.state.contract_down[0] else "R7.1")
    else:
        assert [str(a) for a in ways(built.obs, built.cards, built.meld)] == [
            str(a) for a in found]


def test_the_22_card_hand_with_8_wilds_takes_its_budget_not_seconds() -> None:
    # The kind of selection that took minutes before: 22 cards, 8 wilds, and the card taken
    # this turn kept back (R6.5), so that most ways are refused at the very end.
    built = case("22 cards, 4 jokers, 4 twos, new melds of runs, JD taken")
    found, work, _exhausted = budgeted_search(built.state, built.cards, built.meld)
    assert work <= ALLOWED
    assert len(found) == LIMIT  # melds that give the JD a place: a diamond run up to the 10
    assert_legal(built.state, found, built.cards, None)


def test_an_exhausted_search_with_no_way_refuses_and_says_what_to_do() -> None:
    # every way of these is refused at the end (the taken JD would be left alone, R6.5)
    built = case("14 cards, 8 twos, new melds of runs, JD taken")
    with pytest.raises(IllegalActionError) as refused:
        ways(built.obs, built.cards, None)
    assert refused.value.rule == "R7.3" and refused.value.message == TOO_MANY_WAYS
    assert "select fewer cards" in str(refused.value)
    assert ways(built.obs, built.cards, None, budget=20_000) == []  # with time: there is none
    built = case("14 cards, 8 twos, contract 3 (two runs of 4), JD spare")
    with pytest.raises(IllegalActionError) as refused:
        ways(built.obs, built.cards, None, budget=0)  # only the units of the ways it may list
    assert refused.value.rule == "R7.1" and refused.value.message == TOO_MANY_WAYS
    assert len(ways(built.obs, built.cards, None)) == LIMIT


def test_an_exhausted_search_returns_the_first_ways_of_the_whole_search() -> None:
    built = case("22 cards, 8 twos, new melds of sets, JD taken")
    whole = search(built.obs, built.cards, None, budget=10**9)
    assert not whole.exhausted and len(whole.actions) == LIMIT
    cut_short = 0
    for budget in range(whole.work - PER_WAY * LIMIT - 1, 0, -97):
        part = search(built.obs, built.cards, None, budget=budget)
        assert part.exhausted and part.work <= part.allowed
        assert [str(a) for a in part.actions] == [str(a) for a in
                                                   whole.actions[:len(part.actions)]]
        if part.actions:  # returned as they are, not refused
            cut_short += 1
            assert ways(built.obs, built.cards, None, budget=budget) == part.actions
            assert_legal(built.state, part.actions, built.cards, None)
    assert cut_short


def test_the_work_is_the_same_every_time() -> None:
    for built in CASES[::7]:
        first, again = (search(built.obs, built.cards, built.meld) for _ in range(2))
        assert (first.work, [str(a) for a in first.actions]) == (
            again.work, [str(a) for a in again.actions])


def test_selections_with_two_wilds_are_searched_to_the_end() -> None:
    # the whole hand of each built case with only two of its wilds: every way is found
    for built in CASES[::5]:
        hand = [c for c in built.cards if not c.is_wild] + [JOKER, Card.parse("2C")]
        state = built.state.copy()
        state.hands[0] = [*hand, Card.parse(WAYS_SPARE)]
        found = search(state.observation(0), hand, None)
        assert not found.exhausted, (built.label, found.work)


def test_whole_hands_of_played_games_take_a_fraction_of_the_budget() -> None:
    for seed in (3, 17, 2026):
        for game in decisions(seed, hands=5):
            if game.hand.phase != "play":
                continue
            seat = game.to_move
            assert seat is not None
            obs = game.observation(seat)
            for cards in (list(obs.hand), list(obs.hand)[1:]):
                if cards:
                    found = search(obs, cards, None)
                    assert found.work <= BUDGET // 3, (seed, [str(c) for c in cards])
                    assert_legal(game.hand, found.actions, cards, None)


def test_a_swapped_wild_waiting_to_be_played_is_laid_off_within_the_budget() -> None:
    hand = parse_cards("8S 3H 4H 5H 2C 2C 2S 2D JK JK JK")
    table = [build_meld(MeldSpec.parse(m), meld_id=i, owner=1)
             for i, m in enumerate(("run(7S JK=8S 9S)", *WAYS_TABLE))]
    state = HandState(3, 3, [hand, [], [], []], [], parse_cards("9D"), table,
                      [True, False, False, False], 0, "play", None)
    state.apply(Swap(0, 0, Card.parse("8S"), JOKER))
    chosen = parse_cards("2C 2C 2S 2D JK JK JK JK")  # the swapped joker among them
    for meld in range(1, len(table)):
        found, work, _exhausted = budgeted_search(state, chosen, meld)
        assert work <= ALLOWED
        assert_legal(state, found, chosen, meld)
    found, _work, _exhausted = budgeted_search(state, chosen, 1)
    assert found  # onto the run 9H TH JH: the joker may go there (not back to meld 0)


# -- generated wild-heavy hands ---------------------------------------------------------------

NATURALS = [c for c in ALL_CARDS if not c.is_wild]
TWOS = [c for c in ALL_CARDS if c.rank == 2]


@st.composite
def wild_heavy(draw: st.DrawFn) -> tuple[HandState, list[Card], int | None]:
    """Seat 0 to meld with 14 to 22 chosen cards, 6 to 8 of them wilds (up to 4 jokers, the
    rest 2s, at most two of a kind: the pack of R2.1), a spare card kept back, maybe taken;
    the table's melds to lay off onto; the cards laid off (only their wilds) or melded."""
    jokers = draw(st.integers(0, 4))
    wilds = [JOKER] * jokers + draw(st.lists(st.sampled_from(TWOS), min_size=6 - min(jokers, 6),
                                             max_size=8 - jokers)
                                    .filter(lambda ts: all(ts.count(t) <= 2 for t in ts)))
    suits = draw(st.sets(st.sampled_from("SHDC"), min_size=1, max_size=4))
    pool = [c for c in NATURALS if c.suit in suits]
    size = draw(st.integers(14, 22))
    naturals = draw(st.lists(st.sampled_from(pool), min_size=size - len(wilds),
                             max_size=size - len(wilds))
                    .filter(lambda ns: all(ns.count(n) <= 2 for n in ns)))
    spare = draw(st.sampled_from(NATURALS))
    hand_no = draw(st.sampled_from(sorted(CONTRACTS)))
    down = draw(st.booleans())
    melds = draw(st.lists(st.sampled_from(WAYS_TABLE), max_size=4, unique=True))
    table = [build_meld(MeldSpec.parse(m), meld_id=i, owner=1) for i, m in enumerate(melds)]
    state = HandState(hand_no, 3, [[*naturals, *wilds, spare], [], [], []], [],
                      parse_cards("9D"), table, [down, False, False, False], 0, "play",
                      spare if draw(st.booleans()) else None)
    meld = draw(st.none() | st.sampled_from(range(len(table))) if table else st.none())
    return state, ([*naturals, *wilds] if meld is None else wilds), meld


@settings(max_examples=examples(60), deadline=None)
@given(wild_heavy())
def test_generated_wild_heavy_hands_take_bounded_work_and_get_only_legal_ways(
        drawn: tuple[HandState, list[Card], int | None]) -> None:
    state, cards, meld = drawn
    found, work, _exhausted = budgeted_search(state, cards, meld)
    assert work <= ALLOWED
    assert_legal(state, found, cards, meld)


# -- a brute force over small hands: no way is lost by taking wilds as interchangeable ---------


@cache
def brute_melds(cards: tuple[Card, ...]) -> frozenset[str]:
    """Every set and run ``cards`` make in this order, declared from the order alone: a set
    of the rank of one of its cards (a joker aside); a run from one card's position (an ace
    low or high) in its suit; the engine's ``build_meld`` the judge."""
    specs = []
    for at, natural in enumerate(cards):
        if natural.is_joker:
            continue
        rank = natural.rank
        specs.append(MeldSpec("set", tuple(declare(c, "set", rank, "") for c in cards)))
        for start in {1, 14} if rank == 1 else {rank}:
            low = start - at
            if low >= 1 and low + len(cards) - 1 <= 14:
                specs.append(MeldSpec("run", tuple(
                    plain(c) if not c.is_wild and c.rank in (p, p - 13) else
                    declare(c, "run", p, natural.suit) if c.is_wild else Placed(c, -1)
                    for p, c in enumerate(cards, start=low))))
    found = set()
    for spec in specs:
        try:
            build_meld(spec, meld_id=0, owner=0)
        except IllegalActionError:
            continue
        found.add(str(spec))
    return frozenset(found)


def brute_ways(state: HandState, cards: list[Card], meld: int | None) -> set[tuple[object, ...]]:
    """The moves every order of ``cards`` cut into melds (or laid off at each end) makes,
    kept when the full state accepts them and the turn can go on (R6.5, R7.4)."""
    candidates: list[Action] = []
    for order in set(permutations(cards)):
        if meld is not None:
            target = state.melds[meld]
            for below in range(len(order) + 1):
                if target.kind == "set":
                    placed = tuple(declare(c, "set", target.rank, "") for c in order)
                else:
                    places = [*range(target.low - below, target.low),
                              *range(target.high + 1, target.high + 1 + len(order) - below)]
                    if places[0] < 1 or places[-1] > 14:
                        continue
                    placed = tuple(declare(c, "run", p, target.suit) if c.is_wild else plain(c)
                                   for p, c in zip(places, order, strict=True))
                candidates.append(LayOff(0, meld, placed))
            if len(order) == 1 and not order[0].is_joker:
                candidates += [Swap(0, meld, order[0], p.card) for p in target.wilds]
            continue
        for cuts in range(1 << (len(order) - 1)):
            pieces, start = [], 0
            for i in range(1, len(order)):
                if cuts >> (i - 1) & 1:
                    pieces.append(order[start:i])
                    start = i
            pieces.append(order[start:])
            options = [sorted(brute_melds(p)) for p in pieces]
            for chosen in _product(options):
                specs = tuple(MeldSpec.parse(s) for s in chosen)
                candidates.append(LayMelds(0, specs) if state.contract_down[0]
                                  else LayContract(0, specs))
    moves = set()
    for action in {str(a): a for a in candidates}.values():
        after = state.copy()
        try:
            after.apply(action)
        except IllegalActionError:
            continue
        if after.outcome is not None or legal_actions(after):
            moves.add(same_move(action))
    return moves


def _product(options: list[list[str]]) -> list[tuple[str, ...]]:
    result: list[tuple[str, ...]] = [()]
    for choice in options:
        result = [r + (c,) for r in result for c in choice]
    return result


BRUTE_TABLE = ("run(6H 7H JK=8H)", "set(KS KH JK=K)", "run(3S 4S 5S)")
#: Cards near each meld of BRUTE_TABLE, to lay off onto it (or not quite).
NEAR = {0: parse_cards("4H 5H 9H TH 6H"), 1: parse_cards("KD KC QH"),
        2: parse_cards("AS 2S 6S 7S 6H")}
SMALL_WILDS = parse_cards("JK 2C 2S 2H")


@st.composite
def meldish(draw: st.DrawFn) -> list[Card]:
    """Three or four cards that are nearly a set or a run, some of them wilds."""
    size = draw(st.integers(3, 4))
    if draw(st.booleans()):
        rank = draw(st.sampled_from([1, 3, 5, 13]))
        cards = [Card.of(rank, draw(st.sampled_from("SHD"))) for _ in range(size)]
    else:
        suit, low = draw(st.sampled_from("SH")), draw(st.integers(1, 15 - size))
        cards = [Card.of(1 if p == 14 else p, suit) for p in range(low, low + size)]
    wild = draw(st.lists(st.integers(0, size - 1), max_size=2, unique=True))
    return [draw(st.sampled_from(SMALL_WILDS)) if i in wild else c for i, c in enumerate(cards)]


@st.composite
def small_selection(draw: st.DrawFn) -> tuple[list[Card], int | None, bool, int]:
    """(cards, target meld, contract down, hand number): up to 6 cards, nearly melds (or
    nearly a lay-off onto the target), some 2s and jokers."""
    target = draw(st.none() | st.sampled_from(sorted(NEAR)))
    if target is None:
        cards = draw(meldish())
        if draw(st.booleans()):
            cards += draw(meldish())[:6 - len(cards)]
    else:
        cards = draw(st.lists(st.sampled_from(NEAR[target] + SMALL_WILDS), min_size=1,
                              max_size=4))
    down = draw(st.booleans()) if len(cards) == 6 else True  # a contract takes 6 at least
    return cards, target, down, 1


@settings(max_examples=examples(50), deadline=None)
@given(selection=small_selection().filter(lambda s: all(s[0].count(c) <= (4 if c.is_joker else 2)
                                                        for c in s[0])),
       taken=st.booleans(), spare=st.sampled_from(parse_cards("9D AS QH 4H KD 6S")))
def test_small_hands_get_every_way_a_brute_force_finds(
        selection: tuple[list[Card], int | None, bool, int], taken: bool, spare: Card) -> None:
    # the spare card kept back, when taken this turn, must find a meld (R6.5): on the table
    # (KD, 6S), or, for some ways, on a new one (AS, QH, 4H), or never (9D)
    cards, target, down, hand_no = selection
    table = [build_meld(MeldSpec.parse(m), meld_id=i, owner=1) for i, m in enumerate(BRUTE_TABLE)]
    state = HandState(hand_no, 3, [[*cards, spare], [], [], []], [], parse_cards("9C"), table,
                      [down, False, False, False], 0, "play", spare if taken else None)
    found = search(state.observation(0), cards, target, limit=10_000)
    assert not found.exhausted
    assert {same_move(a) for a in found.actions} == brute_ways(state, cards, target)


def test_bench_engine_ways_prints_the_slowest_selections_time() -> None:
    result = manage("bench_engine", "--ways", "--repeat", "1")  # its own process: it pins a core
    assert result.returncode == 0, result.stderr
    line = result.stdout.splitlines()[-1]
    assert line.startswith(f"ways: {len(CASES)} hands of 14 and 22 cards with 8 wilds, each "
                           "timed 1 times")
    assert " ms median, " in line and f"of {ALLOWED:,} work units" in line
