"""Double elimination: whole tournaments driven round by round through ``round_pairings``,
for every field size from 2 to 33, with the better seed, the worse seed or chance winning."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.tournaments.test_bracket_property import Data, Settings, drawn_match
from tournaments.formats.base import Pairing, PairingError, Placing, PlayedMatch
from tournaments.formats.double_elimination import (
    DEKey,
    DoubleBracket,
    bracket_teams,
    champion,
    double_bracket,
    final_places,
    match_at,
    round_label,
    round_pairings,
    rounds_total,
    sections,
    slot_of,
)
from tournaments.formats.knockout import knockout_first_round
from tournaments.formats.registry import (
    DrawnBracket,
    DrawnRound,
    DrawnSection,
    format_of,
)
from tournaments.formats.slots import Feed

SIZES = range(2, 34)
Pick = Callable[[DoubleBracket, Pairing], int]


def team_ids(n: int) -> list[int]:
    """``n`` ids in seed order that are not the seeds themselves."""
    return [500 - 7 * seed for seed in range(1, n + 1)]


def better_seed(bracket: DoubleBracket, pairing: Pairing) -> int:
    return min(pairing.teams, key=bracket.seed)


def worse_seed(bracket: DoubleBracket, pairing: Pairing) -> int:
    return max(pairing.teams, key=bracket.seed)


@dataclass
class Played:
    """A finished tournament: its bracket, the winners recorded, and what happened, in order:
    ``games`` as (tournament round, match key, home, away, winner), ``byes`` as (round, team)."""

    bracket: DoubleBracket
    winners: dict[DEKey, int] = field(default_factory=dict)
    games: list[tuple[int, DEKey, int, int, int]] = field(default_factory=list)
    byes: list[tuple[int, int]] = field(default_factory=list)
    rounds: int = 0


def play_out(n: int, pick: Pick) -> Played:
    """Pair round after round, record the winners ``pick`` chooses, until ``rounds_total``
    rounds are done."""
    played = Played(double_bracket(team_ids(n)))
    bracket = played.bracket
    while played.rounds < rounds_total(bracket, played.winners):
        number = played.rounds + 1
        pairings = round_pairings(bracket, played.winners, number)
        assert [slot for slot, _ in pairings] == sorted({slot for slot, _ in pairings})
        for slot, pairing in pairings:
            key = match_at(bracket, number, slot)
            assert slot_of(bracket, key) == (number, slot)
            assert not bracket.match(key).is_void
            if pairing.is_bye:
                assert bracket.match(key).is_bye
                played.byes.append((number, pairing.home))
                continue
            assert pairing.away is not None
            assert bracket.seed(pairing.home) < bracket.seed(pairing.away)  # better seed home
            winner = pick(bracket, pairing)
            played.winners[key] = winner
            played.games.append((number, key, pairing.home, pairing.away, winner))
        played.rounds = number
    return played


def check_tournament(played: Played) -> None:
    """Everything that must hold of any finished tournament."""
    bracket = played.bracket
    k, teams = bracket.k, set(bracket.seeds)
    losses: Counter[int] = Counter()
    by_round: dict[int, list[int]] = {}
    for number, team in played.byes:
        assert losses[team] < 2
        by_round.setdefault(number, []).append(team)
    for number, key, home, away, winner in played.games:
        for team in (home, away):
            assert losses[team] < 2, f"team {team} plays {key} after its second loss"
            # the winners' bracket is the unbeaten teams, the losers' bracket the once beaten
            assert key[0] == "F" or losses[team] == (0 if key[0] == "W" else 1)
        by_round.setdefault(number, []).extend((home, away))
        losses[away if winner == home else home] += 1
    for number, in_round in by_round.items():
        assert len(in_round) == len(set(in_round)), f"a team plays twice in round {number}"

    won = champion(bracket, played.winners)
    assert won is not None and losses[won] <= 1
    assert all(losses[team] == 2 for team in teams - {won})

    # the reset is played exactly when the grand final is won by the losers' bracket team
    final = next(g for g in played.games if g[1] == ("F", 1, 0))
    came_unbeaten = {t for t in final[2:4] if sum(1 for g in played.games
                                                  if g[0] < final[0] and t in g[2:4]
                                                  and g[4] != t) == 0}
    reset = final[4] not in came_unbeaten
    assert len(came_unbeaten) == 1
    assert played.rounds == rounds_total(bracket, played.winners) == 2 * k + reset
    assert any(g[1] == ("F", 2, 0) for g in played.games) == reset
    with pytest.raises(PairingError, match="not needed|does not exist"):
        round_pairings(bracket, played.winners, played.rounds + 1)

    check_rematches(played)
    check_places(played)


def check_rematches(played: Played) -> None:
    """A 2**k-line bracket forces rematches late in the losers' bracket: its last k - 1
    rounds bring together teams from parts of the winners' bracket that have already
    played each other, and an exhaustive search of the drop orders for 16 lines found
    none that avoids them. So nobody meets twice before the grand final except in those
    rounds, L(k) to L(2k - 2)."""
    met: set[frozenset[int]] = set()
    for _number, key, home, away, _winner in played.games:
        pair = frozenset((home, away))
        if pair in met and key[0] != "F":
            assert key[0] == "L" and key[1] >= played.bracket.k, f"rematch {pair} in {key}"
        met.add(pair)


def check_places(played: Played) -> None:
    bracket = played.bracket
    places = final_places(bracket, played.winners)
    assert sorted(p.team for p in places) == sorted(bracket.seeds)  # each team once
    assert places[0].team == champion(bracket, played.winners)
    top = min(len(places), 4)
    assert [(p.first, p.last) for p in places[:top]] == [(i, i) for i in range(1, top + 1)]
    for placing in places:  # a shared place spans exactly the teams sharing it, seed order
        sharing = [p for p in places if (p.first, p.last) == (placing.first, placing.last)]
        assert len(sharing) == placing.last - placing.first + 1
        assert [p.team for p in sharing] == sorted((p.team for p in sharing), key=bracket.seed)
    spans = [(p.first, p.last) for p in places]
    assert spans == sorted(spans)  # best first
    distinct = sorted(set(spans))  # contiguous from 1 to the field size
    assert distinct[0][0] == 1 and distinct[-1][1] == len(places)
    assert all(b[0] == a[1] + 1 for a, b in zip(distinct, distinct[1:], strict=False))
    # below the finalists, a team knocked out in a later round is placed better
    out_in: dict[int, int] = {}  # team -> the round of its second loss
    beaten: Counter[int] = Counter()
    for number, _key, home, away, winner in played.games:
        loser = away if winner == home else home
        beaten[loser] += 1
        if beaten[loser] == 2:
            out_in[loser] = number
    below = places[2:]
    for better, worse in zip(below, below[1:], strict=False):
        assert (out_in[better.team] > out_in[worse.team]) == (better.first < worse.first)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("pick", [better_seed, worse_seed], ids=["better", "worse"])
def test_it_plays_every_field_to_the_end(n: int, pick: Pick) -> None:
    check_tournament(play_out(n, pick))


@pytest.mark.parametrize("n", SIZES)
@settings(max_examples=examples(25))
@given(rng=st.randoms(use_true_random=False))
def test_it_plays_every_field_to_the_end_whoever_wins(n: int, rng: random.Random) -> None:
    check_tournament(play_out(n, lambda _bracket, pairing: rng.choice(pairing.teams)))


@pytest.mark.parametrize("n", SIZES)
def test_round_one_is_the_knockouts_with_byes_to_the_top_seeds(n: int) -> None:
    bracket = double_bracket(team_ids(n))
    first = [pairing for _slot, pairing in round_pairings(bracket, {}, 1)]
    assert first == knockout_first_round(team_ids(n))
    lines = 1 << (n - 1).bit_length()
    assert sorted(bracket.seed(p.home) for p in first if p.is_bye) == list(range(1, lines - n + 1))


def test_eight_teams_with_the_better_seed_winning() -> None:
    played = play_out(8, better_seed)
    seed = played.bracket.seed
    schedule = [(key, seed(home), seed(away)) for _n, key, home, away, _w in played.games]
    # L1 pairs the W1 losers; L2 drops the W2
    # losers in reverse order (even round), so 5 meets 3 and 6 meets 4, not their W1 rivals
    assert schedule == [
        (("W", 1, 0), 1, 8), (("W", 1, 1), 4, 5), (("W", 1, 2), 2, 7), (("W", 1, 3), 3, 6),
        (("W", 2, 0), 1, 4), (("W", 2, 1), 2, 3), (("L", 1, 0), 5, 8), (("L", 1, 1), 6, 7),
        (("W", 3, 0), 1, 2), (("L", 2, 0), 3, 5), (("L", 2, 1), 4, 6),
        (("L", 3, 0), 3, 4), (("L", 4, 0), 2, 3), (("F", 1, 0), 1, 2)]
    rematches = {key for i, (key, a, b) in enumerate(schedule)
                 if {a, b} in [{x, y} for _k, x, y in schedule[:i]] and key[0] != "F"}
    assert all(key[0] == "L" and key[1] in (3, 4) for key in rematches)  # the last two
    places = final_places(played.bracket, played.winners)
    assert [(seed(p.team), p.first, p.last) for p in places] == [
        (1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4), (5, 5, 6), (6, 5, 6), (7, 7, 8), (8, 7, 8)]


@pytest.mark.parametrize("lines", [16, 32])
def test_losers_rounds_take_the_dropped_teams_reversed_then_with_halves_swapped(
        lines: int) -> None:
    bracket = double_bracket(team_ids(lines))
    for r in range(2, bracket.k + 1):
        dropping = bracket.losers[2 * r - 3]  # L(2r-2)
        m = len(dropping)
        feeds = [match.bottom for match in dropping]
        assert all(isinstance(f, Feed) and f.takes == "loser" and f.match[:2] == ("W", r)
                   for f in feeds)
        order = [f.match[2] for f in feeds if isinstance(f, Feed)]
        if m == 1:
            assert order == [0]
        elif r % 2 == 0:
            assert order == list(range(m - 1, -1, -1))
        else:
            assert order == list(range(m // 2, m)) + list(range(m // 2))
        assert all(match.top == Feed(("L", 2 * r - 3, i))
                   for i, match in enumerate(dropping))


def test_nobody_is_in_the_reset_unless_the_losers_bracket_team_won() -> None:
    bracket = double_bracket([10, 20, 30])
    winners: dict[DEKey, int] = {("W", 1, 1): 20, ("W", 2, 0): 10, ("L", 2, 0): 30}
    assert bracket_teams(bracket, winners)[("F", 2, 0)] == (None, None)  # not played yet
    assert bracket_teams(bracket, {**winners, ("F", 1, 0): 10})[("F", 2, 0)] == (None, None)
    assert bracket_teams(bracket, {**winners, ("F", 1, 0): 30})[("F", 2, 0)] == (10, 30)


def test_the_reset_is_played_when_the_losers_bracket_team_wins_the_grand_final() -> None:
    bracket = double_bracket([10, 20])
    winners: dict[DEKey, int] = {("W", 1, 0): 10}
    assert rounds_total(bracket, winners) == 3
    assert round_pairings(bracket, winners, 2) == [(0, Pairing(home=10, away=20))]
    winners[("F", 1, 0)] = 20
    assert champion(bracket, winners) is None and final_places(bracket, winners) == []
    assert round_pairings(bracket, winners, 3) == [(0, Pairing(home=10, away=20))]
    winners[("F", 2, 0)] = 20
    assert final_places(bracket, winners) == [Placing(20, 1, 1), Placing(10, 2, 2)]


def test_a_match_nobody_reaches_is_left_out_and_keeps_its_slot() -> None:
    bracket = double_bracket(team_ids(5))  # byes for seeds 1, 2 and 3
    # L1 match 1 takes the losers of W1 matches 2 and 3, both byes: nobody
    assert bracket.match(("L", 1, 1)).is_void and bracket.match(("L", 1, 0)).is_bye
    assert bracket.match(("L", 2, 1)).is_bye  # so W2 match 0's loser waits a round
    winners: dict[DEKey, int] = {("W", 1, 1): team_ids(5)[3]}
    assert [slot for slot, _ in round_pairings(bracket, winners, 2)] == [0, 1, 2]
    assert match_at(bracket, 2, 3) == ("L", 1, 1)
    assert bracket_teams(bracket, winners)[("L", 1, 1)] == (None, None)


def test_sections_hold_every_match_once_with_its_label() -> None:
    bracket = double_bracket(team_ids(8))
    drawn = sections(bracket)
    assert [key for key, _rounds in drawn] == ["winners", "losers", "final"]
    keys = [m.key for _key, rounds in drawn for matches in rounds for m in matches]
    assert len(keys) == len(set(keys)) == 7 + 6 + 2
    labels = [round_label(matches[0].key, bracket) for _key, rounds in drawn
              for matches in rounds]
    assert labels == ["Winners' round 1", "Winners' round 2", "Winners' final",
                      "Losers' round 1", "Losers' round 2", "Losers' round 3", "Losers' final",
                      "Grand final", "Bracket reset"]
    assert [key for key, _rounds in sections(double_bracket([1, 2]))] == ["winners", "final"]


@pytest.mark.parametrize("ids, message", [([], "at least 2"), ([4], "at least 2"),
                                          ([4, 5, 4], "entered twice")])
def test_it_refuses_too_few_or_repeated_teams(ids: list[int], message: str) -> None:
    with pytest.raises(PairingError, match=message):
        double_bracket(ids)


def test_it_refuses_a_winner_who_did_not_play() -> None:
    bracket = double_bracket([1, 2, 3, 4])
    for winners in ({("W", 1, 0): 2}, {("W", 1, 0): 1, ("L", 1, 0): 2},
                    {("W", 9, 0): 1}, {("F", 2, 0): 1}):
        with pytest.raises(PairingError, match=r"winner|no match"):
            bracket_teams(bracket, winners)
        with pytest.raises(PairingError):
            round_pairings(bracket, winners, 1)
    with pytest.raises(PairingError, match="bye for team 1"):
        bracket_teams(double_bracket([1, 2, 3]), {("W", 1, 0): 3})


def test_it_refuses_a_round_that_is_not_ready_or_does_not_exist() -> None:
    bracket = double_bracket(team_ids(8))
    with pytest.raises(PairingError, match="not ready"):
        round_pairings(bracket, {}, 2)
    played = play_out(8, better_seed)
    # round 4 (L3) needs only round 3's losers' matches, but rounds are played in order
    early = {key: team for key, team in played.winners.items()
             if slot_of(bracket, key)[0] < 4 and key != ("W", 3, 0)}
    assert all(early.get(m.key) for m in bracket.losers[2 - 1])  # round 3's L2 is done
    with pytest.raises(PairingError, match="not ready: Winners' final has no winner yet"):
        round_pairings(bracket, early, 4)
    for number in (0, 2 * bracket.k + 2):
        with pytest.raises(PairingError, match="does not exist"):
            round_pairings(bracket, played.winners, number)
    with pytest.raises(PairingError, match="no slot"):
        match_at(bracket, 2, 4)
    with pytest.raises(PairingError, match="no match"):
        slot_of(bracket, ("L", 5, 0))


def test_it_refuses_the_reset_when_the_winners_bracket_team_won() -> None:
    played = play_out(6, better_seed)
    assert rounds_total(played.bracket, played.winners) == 2 * played.bracket.k
    with pytest.raises(PairingError, match="not needed"):
        round_pairings(played.bracket, played.winners, 2 * played.bracket.k + 1)


def test_a_refused_winner_names_the_match_as_people_do() -> None:
    # a round of several matches is named with the match's number; a round of one (a final)
    # by its name alone
    bracket = double_bracket(list(range(1, 9)))
    named = {("W", 1, 1): "Winners' round 1, match 2", ("L", 1, 1): "Losers' round 1, match 2",
             ("W", 3, 0): "Winners' final", ("F", 1, 0): "Grand final"}
    for key, name in named.items():
        with pytest.raises(PairingError) as refused:
            bracket_teams(bracket, {key: 3})
        assert str(refused.value).startswith(f"team 3 is recorded as the winner of {name}, but")


def test_the_drawn_bracket_names_numbers_and_explains_every_match() -> None:
    """Three teams, after the only first-round game (seed 2 beat seed 3, the lower total,
    R9.2): seed 1's bye, the loser's bye in the losers' bracket, and the later matches
    saying where their teams come from; the reset is played only if the losers' bracket
    team wins the grand final."""
    data = Data([11, 12, 13], Settings())
    spec = format_of("double_elimination")
    data.paired.append([pairing for _, pairing in spec.pairings(data, 1)])
    data.games.append(PlayedMatch((1, 1), 12, 13, ((0, 40),) * 5))
    reset = "if the losers' bracket team wins the grand final"

    assert spec.bracket(data) == DrawnBracket((11, 12, 13), (
        DrawnSection("Winners' bracket", (
            DrawnRound("Winners' round 1", (drawn_match((1, 0), 11, None, ("", "bye"), 11, None),
                                            drawn_match((1, 1), 12, 13, ("", ""), 12, 1))),
            DrawnRound("Winners' final", (drawn_match((2, 0), 11, 12, ("", ""), None, 2),)))),
        DrawnSection("Losers' bracket", (
            DrawnRound("Losers' round 1", (drawn_match((2, 1), None, 13, ("bye", ""), 13, None),)),
            DrawnRound("Losers' final", (
                drawn_match((3, 0), 13, None, ("", "Loser of match 2"), None, 3),)))),
        DrawnSection("Final", (
            DrawnRound("Grand final", (
                drawn_match((4, 0), None, None, ("Winner of match 2", "Winner of match 3"),
                            None, 4),)),
            DrawnRound("Bracket reset", (
                drawn_match((5, 0), None, None, (reset, reset), None, 5),)))),
    ), None)
