"""Every bracket format draws at every stage for every field size: a knockout (with and
without a third-place match) and a double elimination of 2 to 32 teams, played round by
round with random games (drawn ones decided by the tie rule, R9.2), draw their bracket and
their places after every pairing and every round, from the first pairing to the end.

This is the pure half; ``test_bracket_pages.py`` walks the same through the database, the
bracket page and the API."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.formats.base import Pairing, PlayedMatch, Position, TeamId
from tournaments.formats.registry import DrawnBracket, DrawnMatch, TournamentFormat, format_of
from tournaments.formats.ties import TIE_RULES

BRACKETS = ("knockout", "double_elimination")


@dataclass
class Settings:
    rounds_planned: int = 0
    third_place_match: bool = False
    bye_policy: str = "lowest"
    knockout_tie_rule: str = "most_hands_won_by_going_out"


@dataclass
class Data:
    """A tournament as a format reads it, with the games played so far."""

    teams: list[TeamId]
    settings: Settings
    games: list[PlayedMatch] = field(default_factory=list)
    paired: list[list[Pairing]] = field(default_factory=list)

    def seeds(self) -> Sequence[TeamId]:
        return self.teams

    def swiss_teams(self) -> Sequence[object]:
        return []

    def played(self) -> Sequence[PlayedMatch]:
        return self.games

    def rounds(self) -> Sequence[Sequence[Pairing]]:
        return self.paired


def drawn_match(position: Position, top: TeamId | None, bottom: TeamId | None,
                notes: tuple[str, str], winner: TeamId | None, number: int | None) -> DrawnMatch:
    """A match as a bracket page draws it; one without a number is a bye."""
    return DrawnMatch(position, top, bottom, notes, winner, number is None, number)


def a_game(rng: random.Random) -> tuple[tuple[int, int], ...]:
    """Five hands' scores (home, away); about one game in four is drawn on the total."""
    hands = [(rng.choice((0, 5, 40, 75)), rng.choice((0, 5, 40, 75))) for _ in range(5)]
    if rng.random() < 0.25:
        hands[-1] = (hands[-1][0], hands[-1][1] + sum(h for h, _ in hands)
                     - sum(a for _, a in hands))
        if hands[-1][1] < 0:
            hands[-1] = (hands[-1][0] - hands[-1][1], 0)
    return tuple(hands)


def check_drawn(drawn: DrawnBracket, teams: list[TeamId]) -> None:
    """A bracket that can be drawn: every team in it, every unknown side explained, every
    game numbered once."""
    shown = {team for section in drawn.sections for round in section.rounds
             for match in round.matches for team in (match.top, match.bottom) if team}
    assert set(teams) <= shown  # every team is drawn in the first round, a bye's too
    assert set(drawn.seeds) == set(teams)
    numbers = [match.number for section in drawn.sections for round in section.rounds
               for match in round.matches if match.number is not None]
    assert len(numbers) == len(set(numbers))
    for section in drawn.sections:
        for round in section.rounds:
            for match in round.matches:
                for team, note in zip((match.top, match.bottom), match.notes, strict=True):
                    assert team is not None or note, match


def check_places(fmt: TournamentFormat, data: Data) -> None:
    places = fmt.final_places(data)
    assert sorted(p.team for p in places) == sorted(data.teams)
    firsts = sorted((p.first, p.last) for p in places)
    assert firsts[0][0] == 1
    for place in places:  # a shared place spans as many teams as share it
        assert sum(1 for p in places if p.first == place.first) == place.last - place.first + 1


def check_decisions(fmt: TournamentFormat, data: Data) -> None:
    """Each played game decided between its two teams: the lower total goes through
    (R9.2), and a game drawn on the total is decided by a tie rule."""
    decisions = fmt.decisions(data)
    assert set(decisions) == {game.position for game in data.games}
    for game in data.games:
        decision = decisions[game.position]
        assert {decision.winner, decision.loser} == {game.home, game.away}
        home = sum(h for h, _ in game.hand_scores)
        away = sum(a for _, a in game.hand_scores)
        if home == away:
            assert decision.decided_by in TIE_RULES
        else:
            assert decision.decided_by == "game_score"
            assert decision.winner == (game.home if home < away else game.away)


def check_round_names(fmt: TournamentFormat, data: Data, rounds: int) -> None:
    """A knockout names its last three rounds; a double elimination names its grand final
    and its reset, and leaves the rounds that mix both brackets to their numbers."""
    names = [fmt.round_name(number, data) for number in range(1, rounds + 1)]
    if fmt.key == "knockout":
        named = ["Quarter-finals", "Semi-finals", "Final"][-rounds:]
        assert names == [f"Round {n}" for n in range(1, rounds - len(named) + 1)] + named
    else:
        finals = [name for name in names if name]
        assert finals in (["Grand final"], ["Grand final", "Bracket reset"])
        assert names[-len(finals):] == finals


def play(key: str, size: int, rng: random.Random, *, third: bool, rule: str) -> int:
    """Play a tournament to its end, drawing it at every stage; the rounds it took."""
    fmt = format_of(key)
    teams = [1000 + 37 * seed for seed in range(size)]
    data = Data(teams, Settings(third_place_match=third, knockout_tie_rule=rule))
    check_drawn(fmt.bracket(data), teams)
    number = 0
    while number < fmt.rounds_total(data):
        number += 1
        pairings = fmt.pairings(data, number)
        data.paired.append([pairing for _, pairing in pairings])
        check_drawn(fmt.bracket(data), teams)
        assert fmt.final_places(data) == []
        for slot, pairing in pairings:
            if pairing.away is None:
                continue
            position: Position = (number, slot if slot is not None else 0)
            data.games.append(PlayedMatch(position, pairing.home, pairing.away, a_game(rng)))
        check_drawn(fmt.bracket(data), teams)
        check_decisions(fmt, data)
    assert fmt.bracket(data).champion is not None
    check_places(fmt, data)
    check_round_names(fmt, data, number)
    return number


@settings(max_examples=examples(150), deadline=None)
@given(key=st.sampled_from(BRACKETS), size=st.integers(2, 32), seed=st.integers(0, 2**32),
       third=st.booleans(), rule=st.sampled_from(TIE_RULES))
def test_every_bracket_draws_at_every_stage(key: str, size: int, seed: int, third: bool,
                                            rule: str) -> None:
    third = third and key == "knockout" and size >= 4
    rounds = play(key, size, random.Random(seed), third=third, rule=rule)
    lines = (size - 1).bit_length()
    if key == "knockout":
        assert rounds == lines
    else:  # the winners' and losers' rounds, the grand final, and maybe the reset
        assert rounds in (2 * lines, 2 * lines + 1)


def test_every_field_size_draws_in_both_formats() -> None:
    """The sweep hypothesis may not make: each size once in each format."""
    for key in BRACKETS:
        for size in range(2, 33):
            play(key, size, random.Random(size), third=False, rule=TIE_RULES[0])
