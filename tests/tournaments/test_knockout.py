"""Single-elimination brackets: seeding, byes, advancing winners and drawn matches."""

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.tournaments.test_bracket_property import Data, Settings, drawn_match
from tournaments.formats.base import Pairing, PairingError, PlayedMatch
from tournaments.formats.knockout import (
    Bracket,
    Feed,
    MatchKey,
    SlotRef,
    bracket_order,
    bracket_teams,
    knockout_bracket,
    knockout_first_round,
    knockout_round,
    match_winner,
    record_winner,
)
from tournaments.formats.registry import (
    DrawnBracket,
    DrawnMatch,
    DrawnRound,
    DrawnSection,
    format_of,
)
from tournaments.formats.ties import (
    TIE_RULES,
    MatchDecision,
    TieRule,
    decide_match,
    decide_played,
    tie_chain,
)

SIZES = range(2, 131)


def play_out(bracket: Bracket, pick: random.Random | None) -> dict[MatchKey, int]:
    """Play every round; the better seed wins unless ``pick`` chooses at random.
    Checks on the way that each round holds exactly the winners of the last one."""
    winners: dict[MatchKey, int] = {}
    for r in range(1, len(bracket.rounds) + 1):
        pairings = knockout_round(bracket, winners, r)
        if r > 1:
            previous = bracket.rounds[r - 2]
            advanced = [match_winner(bracket, winners, m.key) for m in previous]
            teams = [t for p in pairings[: len(bracket.rounds[r - 1])] for t in p.teams]
            assert sorted(teams) == sorted(t for t in advanced if t is not None)
        for match, pairing in zip(bracket.rounds[r - 1], pairings, strict=False):
            if pairing.away is None:
                continue
            if pick is None:
                winner = min(pairing.teams, key=bracket.seed)
            else:
                winner = pick.choice(pairing.teams)
            winners = record_winner(bracket, winners, match.key, winner)
            target = match.winner_to
            if target is not None:  # the winner now fills the slot it feeds
                filled = bracket_teams(bracket, winners)[target.match]
                assert filled[0 if target.side == "top" else 1] == winner
        if bracket.third_place is not None and r == len(bracket.rounds):
            third = pairings[-1]
            assert third.away is not None
            winners = record_winner(bracket, winners, bracket.third_place.key, third.home)
    return winners


@pytest.mark.parametrize("n", SIZES)
def test_brackets_are_well_formed_for_every_field_size(n: int) -> None:
    seeds = [1000 + s for s in range(n)]  # seed s is team 1000 + s - 1
    bracket = knockout_bracket(seeds, third_place=n >= 4)
    lines = 2 ** math.ceil(math.log2(n))
    assert len(bracket.rounds) == math.ceil(math.log2(n))
    sizes = [lines >> k for k in range(1, len(bracket.rounds) + 1)]
    assert [len(r) for r in bracket.rounds] == sizes

    first = knockout_first_round(seeds)
    assert sorted(t for p in first for t in p.teams) == seeds  # everyone once
    byes = sorted(bracket.seed(p.home) for p in first if p.is_bye)
    assert byes == list(range(1, lines - n + 1))  # byes to the top seeds only
    assert all(bracket.seed(p.home) + bracket.seed(p.away) == lines + 1
               for p in first if p.away is not None)  # 1 v P, 2 v P-1, ...
    line = {team: 2 * m.key[1] + k for m in bracket.rounds[0]
            for k, team in enumerate((m.top, m.bottom))}
    assert (line[seeds[0]] < lines // 2) != (line[seeds[1]] < lines // 2)  # opposite halves

    for match in bracket.matches():  # feeds and onward links agree
        for side, slot in (("top", match.top), ("bottom", match.bottom)):
            if isinstance(slot, Feed):
                source = bracket.match(slot.match)
                onward = source.winner_to if slot.takes == "winner" else source.loser_to
                assert onward == SlotRef(match.key, side)  # type: ignore[arg-type]

    winners = play_out(bracket, pick=None)
    final = bracket.final.key
    assert bracket_teams(bracket, winners)[final] == (seeds[0], seeds[1])
    assert match_winner(bracket, winners, final) == seeds[0]
    if n >= 4:
        assert bracket.third_place is not None
        assert set(bracket_teams(bracket, winners)[bracket.third_place.key]) == {seeds[2], seeds[3]}


@settings(max_examples=examples(60), deadline=None)
@given(n=st.integers(min_value=2, max_value=130), seed=st.integers(0, 2**32),
       third=st.booleans())
def test_advancing_random_winners_fills_every_round(n: int, seed: int, third: bool) -> None:
    bracket = knockout_bracket(list(range(1, n + 1)), third_place=third and n >= 4)
    winners = play_out(bracket, pick=random.Random(seed))
    champion = match_winner(bracket, winners, bracket.final.key)
    assert champion is not None
    slots = bracket_teams(bracket, winners)
    assert all(None not in slots[m.key] for m in bracket.matches() if m.key[0] > 1)
    if bracket.third_place is not None:
        finalists = set(slots[bracket.final.key])
        third_place = set(slots[bracket.third_place.key])
        semis = {t for m in bracket.rounds[-2] for t in slots[m.key]}
        assert finalists | third_place == semis and not finalists & third_place


def test_bracket_order_is_the_standard_one() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16)[:4] == [1, 16, 8, 9]


def test_five_teams_give_byes_to_the_top_three() -> None:
    assert knockout_first_round([11, 12, 13, 14, 15]) == [
        Pairing(11), Pairing(14, 15), Pairing(12), Pairing(13)
    ]


def test_the_better_seed_is_home_after_an_upset() -> None:
    bracket = knockout_bracket([1, 2, 3, 4])
    winners = record_winner(bracket, {}, (1, 0), 4)
    winners = record_winner(bracket, winners, (1, 1), 2)
    assert knockout_round(bracket, winners, 2) == [Pairing(2, 4)]


def test_a_round_is_not_ready_until_its_feeders_are_decided() -> None:
    bracket = knockout_bracket([1, 2, 3, 4], third_place=True)
    winners = record_winner(bracket, {}, (1, 0), 1)
    with pytest.raises(PairingError, match="round 2 is not ready"):
        knockout_round(bracket, winners, 2)
    with pytest.raises(PairingError, match=r"match \(2, 0\) is not ready"):
        record_winner(bracket, winners, (2, 0), 1)


def test_recording_a_winner_checks_the_match() -> None:
    bracket = knockout_bracket([1, 2, 3, 4, 5])
    with pytest.raises(PairingError, match=r"team 1 did not play in match \(1, 1\)"):
        record_winner(bracket, {}, (1, 1), 1)
    with pytest.raises(PairingError, match="is a bye for team 2"):
        record_winner(bracket, {}, (1, 2), 3)
    assert record_winner(bracket, {}, (1, 2), 2) == {}  # the bye advances by itself
    with pytest.raises(PairingError, match=r"no match \(4, 0\)"):
        record_winner(bracket, {}, (4, 0), 1)


def test_a_winner_can_be_corrected_until_a_later_result_depends_on_it() -> None:
    bracket = knockout_bracket([1, 2, 3, 4])
    winners = record_winner(bracket, {}, (1, 0), 1)
    winners = record_winner(bracket, winners, (1, 0), 4)  # corrected
    assert winners == {(1, 0): 4}
    winners = record_winner(bracket, winners, (1, 1), 2)
    winners = record_winner(bracket, winners, (2, 0), 4)
    assert record_winner(bracket, winners, (1, 0), 4) == winners  # same again: no change
    with pytest.raises(PairingError, match=r"match \(2, 0\) already has a result"):
        record_winner(bracket, winners, (1, 0), 1)


def test_a_stored_winner_who_did_not_play_is_reported() -> None:
    bracket = knockout_bracket([1, 2, 3, 4])
    with pytest.raises(PairingError, match=r"team 2 is recorded as the winner of match \(1, 0\)"):
        bracket_teams(bracket, {(1, 0): 2})


@pytest.mark.parametrize(("ids", "third", "message"), [
    ([1], False, "at least 2 teams"),
    ([1, 2, 2], False, "entered twice"),
    ([1, 2, 3], True, "third-place match needs at least 4 teams"),
])
def test_impossible_brackets_are_refused(ids: list[int], third: bool, message: str) -> None:
    with pytest.raises(PairingError, match=message):
        knockout_bracket(ids, third_place=third)


def test_a_round_that_does_not_exist_is_refused() -> None:
    with pytest.raises(PairingError, match="round 3 does not exist"):
        knockout_round(knockout_bracket([1, 2, 3, 4]), {}, 3)


@dataclass(frozen=True)
class Side:
    """A stub implementing the MatchSide protocol."""

    team: int
    seed: int
    hand_scores: Sequence[int]


def test_the_lower_game_score_wins_without_a_tie_rule() -> None:
    decision = decide_match(Side(1, 1, [0, 40, 30, 0, 10]), Side(2, 2, [25, 0, 0, 20, 0]),
                            rule="better_seed")
    assert decision == MatchDecision(winner=2, loser=1, decided_by="game_score")


@pytest.mark.parametrize(("rule", "home", "away", "winner", "decided_by"), [
    # 0 = went out (R9.1). Both total 60.
    ("most_hands_won_by_going_out", [0, 0, 0, 30, 30], [10, 10, 10, 0, 30], 1,
     "most_hands_won_by_going_out"),
    ("most_hands_won", [5, 5, 5, 0, 45], [10, 10, 10, 0, 30], 1, "most_hands_won"),
    ("lowest_last_hand_score", [0, 30, 0, 25, 5], [30, 0, 25, 0, 5], 2, "better_seed"),
    ("lowest_last_hand_score", [0, 30, 0, 20, 10], [30, 0, 25, 0, 5], 2,
     "lowest_last_hand_score"),
    ("better_seed", [0, 0, 0, 30, 30], [10, 10, 10, 0, 30], 2, "better_seed"),
    # The chosen rule does not separate them: the fallback chain does.
    ("most_hands_won", [0, 10, 20, 30, 0], [10, 0, 30, 20, 0], 2, "better_seed"),
    ("lowest_last_hand_score", [0, 0, 30, 30, 0], [10, 10, 10, 30, 0], 1,
     "most_hands_won_by_going_out"),
])
def test_a_drawn_game_is_decided_by_the_rule_then_the_fallbacks(
    rule: str, home: list[int], away: list[int], winner: int, decided_by: str
) -> None:
    assert sum(home) == sum(away)
    decision = decide_match(Side(1, 5, home), Side(2, 3, away), rule=rule)  # type: ignore[arg-type]
    assert (decision.winner, decision.decided_by) == (winner, decided_by)
    assert decision.loser == 3 - winner


@given(rule=st.sampled_from(TIE_RULES),
       scores=st.lists(st.integers(0, 200), min_size=1, max_size=5))
def test_every_tie_chain_ends_with_the_better_seed_and_draws_always_resolve(
    rule: TieRule, scores: list[int]
) -> None:
    chain = tie_chain(rule)
    assert chain[0] == rule and chain[-1] == "better_seed" and len(set(chain)) == len(chain)
    mirrored = Side(8, 2, list(reversed(scores))), Side(9, 7, scores)
    decision = decide_match(*mirrored, rule=rule)
    assert decision.decided_by in chain
    assert decide_match(*mirrored, rule=rule) == decision  # deterministic


@pytest.mark.parametrize(("home", "away", "rule", "message"), [
    (Side(1, 1, [10]), Side(2, 2, [10]), "coin_toss",
     "unknown tie rule 'coin_toss'; choose one of " + ", ".join(TIE_RULES)),
    (Side(1, 1, [10, 0]), Side(2, 2, [10]), "better_seed",
     "both teams need the same hands scored, got 2 and 1"),
    (Side(1, 1, []), Side(2, 2, []), "better_seed",
     "both teams need the same hands scored, got 0 and 0"),
    (Side(3, 1, [10]), Side(3, 2, [0]), "better_seed", "team 3 cannot play itself"),
    (Side(1, 4, [10]), Side(2, 4, [10]), "better_seed",
     "teams 1 and 2 both have seed 4; seeds must differ to break a tie"),
])
def test_undecidable_matches_are_refused(home: Side, away: Side, rule: str, message: str) -> None:
    with pytest.raises(PairingError, match=f"^{re.escape(message)}$"):
        decide_match(home, away, rule=rule)  # type: ignore[arg-type]


def test_played_games_under_an_unknown_tie_rule_are_refused() -> None:
    with pytest.raises(PairingError, match="^unknown tie rule 'coin_toss'; choose one of "):
        decide_played([PlayedMatch((1, 0), 1, 2, ((10, 10),))], lambda team: team, "coin_toss")


def test_the_drawn_bracket_names_numbers_and_explains_every_match() -> None:
    """Five teams with a third-place match, after the only first-round game: seeds 1 to 3
    have byes, seed 4 beat seed 5 (the lower total, R9.2); the later matches say where
    their teams come from by the numbers of the matches that were played or are to be."""
    data = Data([11, 12, 13, 14, 15], Settings(third_place_match=True))
    knockout = format_of("knockout")
    pairings = knockout.pairings(data, 1)
    data.paired.append([pairing for _, pairing in pairings])
    data.games.append(PlayedMatch((1, 1), 14, 15, ((0, 40),) * 5))

    def played(position: tuple[int, int], top: int, bottom: int, number: int) -> DrawnMatch:
        return drawn_match(position, top, bottom, ("", ""), None, number)

    assert knockout.bracket(data) == DrawnBracket((11, 12, 13, 14, 15), (
        DrawnSection("", (
            DrawnRound("Quarter-finals", (
                drawn_match((1, 0), 11, None, ("", "bye"), 11, None),
                drawn_match((1, 1), 14, 15, ("", ""), 14, 1),
                drawn_match((1, 2), 12, None, ("", "bye"), 12, None),
                drawn_match((1, 3), 13, None, ("", "bye"), 13, None))),
            DrawnRound("Semi-finals", (played((2, 0), 11, 14, 2), played((2, 1), 12, 13, 3))),
            DrawnRound("Final", (
                drawn_match((3, 0), None, None, ("Winner of match 2", "Winner of match 3"), None,
                            4),)))),
        DrawnSection("Third-place match", (DrawnRound("", (
            drawn_match((3, 1), None, None, ("Loser of match 2", "Loser of match 3"), None,
                        5),)),)),
    ), None)
