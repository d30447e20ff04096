"""The format registry: every format answers the platform's questions from plain data (no
database), the model's choices are the registry's, and nothing outside
``tournaments/formats/`` asks which format a tournament has."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tournaments.formats import Pairing, PairingError, PlayedMatch, format_of, formats
from tournaments.formats.registry import OPTIONAL_SETTINGS, unread_settings
from tournaments.formats.swiss import SwissEntry
from tournaments.models import Tournament

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Settings:
    rounds_planned: int = 3
    third_place_match: bool = False
    bye_policy: str = "bye"
    knockout_tie_rule: str = "most_hands_won_by_going_out"


@dataclass
class Data:
    """A tournament as plain values: ``TournamentData`` without a database."""

    teams: list[int]
    settings: Settings = field(default_factory=Settings)
    results: list[PlayedMatch] = field(default_factory=list)
    byes: Counter[int] = field(default_factory=Counter)
    paired: list[list[Pairing]] = field(default_factory=list)

    def seeds(self) -> list[int]:
        return self.teams

    def swiss_teams(self) -> list[SwissEntry]:
        met: dict[int, set[int]] = {team: set() for team in self.teams}
        points = dict.fromkeys(self.teams, 0.0)
        for match in self.results:
            met[match.home].add(match.away)
            met[match.away].add(match.home)
            points[match.home if sum(h for h, _ in match.hand_scores)
                   < sum(a for _, a in match.hand_scores) else match.away] += 1
        return [SwissEntry(team, points[team], seed, frozenset(met[team]), self.byes[team])
                for seed, team in enumerate(self.teams, start=1)]

    def played(self) -> list[PlayedMatch]:
        return self.results

    def rounds(self) -> list[list[Pairing]]:
        return self.paired


def home_wins(position: tuple[int, int], home: int, away: int) -> PlayedMatch:
    return PlayedMatch(position, home, away, ((0, 30),) * 5)


def play_out(key: str, teams: int) -> tuple[Data, int]:
    """Pair and play every round of a ``key`` tournament, the home team winning each game;
    returns the data and the number of rounds played."""
    spec, data = format_of(key), Data(list(range(101, 101 + teams)))
    number = 0
    while number < spec.rounds_total(data):
        number += 1
        pairings = spec.pairings(data, number)
        data.paired.append([pairing for _slot, pairing in pairings])
        for slot, pairing in pairings:
            if pairing.away is None:
                data.byes[pairing.home] += 1
            else:
                data.results.append(home_wins((number, slot or 0), pairing.home, pairing.away))
    return data, number


def test_the_model_offers_exactly_the_registered_formats() -> None:
    assert [value for value, _label in Tournament.Format.choices] == [
        spec.key for spec in formats()]
    assert Tournament.Format.DOUBLE_ELIMINATION == "double_elimination"
    assert Tournament(format="knockout").format_spec is format_of("knockout")


def test_an_unknown_format_is_a_pairing_error_that_names_it() -> None:
    with pytest.raises(PairingError, match="'chess_olympiad'"):
        format_of("chess_olympiad")


@pytest.mark.parametrize("spec", formats(), ids=lambda spec: spec.key)
@pytest.mark.parametrize("teams", [2, 5, 6, 8])
def test_every_format_plays_from_plain_data_to_its_places(spec, teams: int) -> None:
    data, played = play_out(spec.key, teams)
    assert played == spec.rounds_total(data) >= 1
    opponents = {(m.home, m.away) for m in data.results}
    assert {team for pair in opponents for team in pair} == set(data.teams)
    places = spec.final_places(data)
    if spec.has_bracket:  # a bracket places every team, champion first
        assert places is not None and sorted(p.team for p in places) == data.teams
        assert places[0].first == 1 and places[0].team == data.teams[0]
        drawn = spec.bracket(data)
        assert drawn is not None and drawn.champion == data.teams[0]
        assert not spec.draft_swaps_teams and spec.places_note
    else:  # the standings place them
        assert places is None and spec.bracket(data) is None


def test_only_a_round_robin_knows_later_rounds_in_advance() -> None:
    data = Data([1, 2, 3, 4])
    round_robin = format_of("round_robin")
    third = [pairing for _slot, pairing in round_robin.pairings(data, 3)]
    assert len(third) == 2 and round_robin.scheduled(data, 3) == third
    assert all(not format_of(key).scheduled(data, 2)
               for key in ("swiss", "knockout", "double_elimination"))


def test_a_bracket_needs_two_teams_before_it_can_count_its_rounds() -> None:
    for key in ("knockout", "double_elimination"):
        with pytest.raises(PairingError, match="at least 2 teams"):
            format_of(key).rounds_total(Data([7]))


# What counts as asking which format a tournament has: comparing its format (or a format
# choice) with ==, !=, in; or filtering or excluding on it.
FORMAT_BRANCH = re.compile(
    r"""\.format\s*(==|!=|\bin\b|\bnot in\b)"""
    r"""|Format\.(ROUND_ROBIN|DOUBLE_ROUND_ROBIN|SWISS|KNOCKOUT|DOUBLE_ELIMINATION)\b"""
    r"""|format(__in)?=Tournament"""
    r"""|\bformat\s*==\s*["']""")
# Creating a tournament of a format is not a branch (the demo's tournaments, the model's
# default), nor is a webhook's message format (signed JSON or a chat service's).
ALLOWED = {("tournaments/demo.py", "format=Tournament.Format."),
           ("tournaments/models/core.py", "default=Format.SWISS"),
           ("tournaments/services/webhook_delivery.py", "WebhookSubscription.Format.JSON")}


def test_nothing_outside_formats_branches_on_a_tournaments_format() -> None:
    found = []
    paths = [*ROOT.glob("tournaments/**/*.py"), *ROOT.glob("games/**/*.py"),
             *ROOT.glob("config/**/*.py"), *ROOT.glob("templates/**/*.html"),
             *ROOT.glob("tournaments/templates/**/*.html")]
    for path in paths:
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(("tournaments/formats/", "tournaments/migrations/")):
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            match = FORMAT_BRANCH.search(line)
            if match and "renderer.format" not in line and not any(
                    relative == allowed_path and text in line
                    for allowed_path, text in ALLOWED):
                found.append(f"{relative}:{number}: {line.strip()}")
    assert len(paths) > 100  # the scan saw the code base
    assert not found, "ask the tournament's format_spec instead:\n" + "\n".join(found)


def test_a_swiss_plays_its_odd_team_against_the_bots_when_the_policy_says_so() -> None:
    data = Data([1, 2, 3], Settings(bye_policy="bot"))

    odd_out = [pairing for _slot, pairing in format_of("swiss").pairings(data, 1)][-1]

    assert odd_out.away is None and odd_out.against_bot


def test_a_format_leaves_alone_exactly_the_optional_settings_it_does_not_read() -> None:
    """The admin hides these from the form of a tournament of that format."""
    assert unread_settings("knockout") == OPTIONAL_SETTINGS - {"knockout_tie_rule",
                                                               "third_place_match"}
    assert unread_settings("double_elimination") == OPTIONAL_SETTINGS - {"knockout_tie_rule"}
    assert unread_settings("swiss") == {"knockout_tie_rule", "third_place_match"}
    assert unread_settings("round_robin") == {"knockout_tie_rule", "third_place_match",
                                              "rounds_planned"}
    for fmt in formats():
        assert unread_settings(fmt.key) == OPTIONAL_SETTINGS - fmt.settings
    with pytest.raises(PairingError, match="there is no tournament format 'nonesuch'"):
        unread_settings("nonesuch")
