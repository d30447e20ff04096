"""Single-elimination knockout: the bracket, advancing winners and deciding drawn matches.

Contract:

* ``team_ids`` are in seed order (seed 1 first). The bracket has ``P`` lines,
  the next power of two at or above the field size ``n``, and ``log2(P)`` (=
  ``ceil(log2 n)``) rounds. Round one places seeds in standard bracket order
  (:func:`bracket_order`): 1 v P, P/2 + 1 v P/2, ... so that seeds 1 and 2 are
  in opposite halves and can only meet in the final (and the top ``2**k``
  seeds in different ``2**k``-ths). Seeds above ``n`` are byes, so the byes go
  to the top ``P - n`` seeds; a bye is a round-one :class:`BracketMatch` whose
  ``bottom`` is ``None`` and whose team advances without a result.
* Match keys are ``(round, index)``: rounds from 1, index from 0 top to
  bottom. The winner of ``(r, i)`` fills the ``top`` (even ``i``) or
  ``bottom`` (odd ``i``) slot of ``(r + 1, i // 2)``. The optional third-place
  match is ``(R, 1)`` in the last round ``R``, fed by the semi-final losers;
  it needs at least four teams.
* The bracket is a pure structure; results live in a ``winners`` mapping
  (match key -> winning team id) that the caller stores. :func:`record_winner`
  returns a new mapping and :func:`bracket_teams` derives who is in every slot.
* In a :class:`~tournaments.formats.base.Pairing` the better seed is home.
* A drawn game (equal game scores, R9.2) is decided by :func:`decide_match`
  with the tournament's tie rule and a fixed fallback chain ending in the
  better seed; the rule that decided is returned so it can be stored.
* :class:`~tournaments.formats.base.PairingError` for the organiser's
  mistakes: too few or repeated teams, a round or match that does not exist,
  a winner who is not in the match, a result that later results depend on,
  an unknown tie rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .base import Pairing, PairingError, Placing, Position, TeamId, check_team_ids
from .registry import (
    DrawnBracket,
    DrawnMatch,
    DrawnRound,
    DrawnSection,
    TournamentData,
    TournamentFormat,
)
from .slots import Feed, fill_slots
from .ties import MatchDecision, decide_played

__all__ = [
    "Bracket", "BracketMatch", "Feed", "Knockout", "MatchKey", "SlotRef", "bracket_order",
    "bracket_teams", "final_places", "knockout_bracket", "knockout_first_round", "knockout_round",
    "match_winner", "record_winner",
]

MatchKey = tuple[int, int]  # (round from 1, index in the round from 0)
Side = Literal["top", "bottom"]


@dataclass(frozen=True, slots=True)
class SlotRef:
    """One slot of one match."""

    match: MatchKey
    side: Side


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A match of the bracket. In round one ``top`` is a team and ``bottom`` a team
    or ``None`` (a bye); later slots are :class:`Feed` s. ``winner_to`` and
    ``loser_to`` say which slot the winner and loser go on to (``None``: nowhere)."""

    key: MatchKey
    top: TeamId | Feed[MatchKey]
    bottom: TeamId | Feed[MatchKey] | None
    winner_to: SlotRef | None
    loser_to: SlotRef | None = None

    @property
    def is_bye(self) -> bool:
        return self.bottom is None


@dataclass(frozen=True, slots=True)
class Bracket:
    """The whole bracket: ``rounds[0]`` is round one, ``rounds[-1]`` holds the final."""

    seeds: tuple[TeamId, ...]
    rounds: tuple[tuple[BracketMatch, ...], ...]
    third_place: BracketMatch | None = None

    @property
    def final(self) -> BracketMatch:
        return self.rounds[-1][0]

    def matches(self) -> list[BracketMatch]:
        """Every match, round by round, the third-place match after the final."""
        return [m for r in self.rounds for m in r] + [m for m in [self.third_place] if m]

    def match(self, key: MatchKey) -> BracketMatch:
        """The match with ``key``; :class:`PairingError` if there is none."""
        round_no, index = key
        if self.third_place is not None and key == self.third_place.key:
            return self.third_place
        if 1 <= round_no <= len(self.rounds) and 0 <= index < len(self.rounds[round_no - 1]):
            return self.rounds[round_no - 1][index]
        raise PairingError(_("the bracket has no match %(match)s") % {"match": key})

    def seed(self, team: TeamId) -> int:
        """The seed (from 1) of ``team``."""
        return self.seeds.index(team) + 1


def bracket_order(size: int) -> list[int]:
    """The seeds, top line to bottom, of a bracket of ``size`` lines (a power of two):
    ``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8. Each pair of lines is a round-one match."""
    if size < 1 or size & (size - 1):
        raise PairingError(_("a bracket has a power-of-two number of lines, not %(size)d")
                           % {"size": size})
    order = [1]
    while len(order) < size:
        order = [s for seed in order for s in (seed, 2 * len(order) + 1 - seed)]
    return order


def knockout_bracket(team_ids: Sequence[TeamId], *, third_place: bool = False) -> Bracket:
    """The bracket for ``team_ids`` in seed order (see the module contract)."""
    seeds = tuple(check_team_ids(team_ids))
    n = len(seeds)
    if third_place and n < 4:
        raise PairingError(_("a third-place match needs at least 4 teams, got %(count)d")
                           % {"count": n})
    lines = 1 << (n - 1).bit_length()
    count = lines.bit_length() - 1  # the number of rounds

    def match(key: MatchKey, top: TeamId | Feed[MatchKey],
              bottom: TeamId | Feed[MatchKey] | None) -> BracketMatch:
        r, i = key
        side: Side = "top" if i % 2 == 0 else "bottom"
        onward = None if r == count else SlotRef((r + 1, i // 2), side)
        third = SlotRef((count, 1), side) if third_place and r == count - 1 else None
        return BracketMatch(key, top, bottom, onward, third)

    order = bracket_order(lines)
    rounds = [tuple(match((1, i), seeds[order[2 * i] - 1],
                          seeds[order[2 * i + 1] - 1] if order[2 * i + 1] <= n else None)
                    for i in range(lines // 2))]
    rounds += [tuple(match((r, i), Feed((r - 1, 2 * i)), Feed((r - 1, 2 * i + 1)))
                     for i in range(lines >> r)) for r in range(2, count + 1)]
    bronze = None
    if third_place:
        semis = (count - 1, 0), (count - 1, 1)
        bronze = BracketMatch((count, 1), Feed(semis[0], "loser"), Feed(semis[1], "loser"), None)
    return Bracket(seeds, tuple(rounds), bronze)


def knockout_first_round(team_ids: Sequence[TeamId]) -> list[Pairing]:
    """Round one of a new bracket, byes included (see :func:`knockout_round`)."""
    return knockout_round(knockout_bracket(team_ids), {}, 1)


def bracket_teams(
    bracket: Bracket, winners: Mapping[MatchKey, TeamId]
) -> dict[MatchKey, tuple[TeamId | None, TeamId | None]]:
    """Who is in each match's ``(top, bottom)`` slots given the recorded ``winners``:
    ``None`` for a slot not yet decided (or a round-one bye). A recorded winner
    who is not in that match raises :class:`PairingError`."""
    return fill_slots(bracket.matches(), winners, _match_name)


def _match_name(key: MatchKey) -> str:
    return _("match %(match)s") % {"match": key}


def final_places(bracket: Bracket, winners: Mapping[MatchKey, TeamId]) -> list[Placing]:
    """The final places once the bracket is decided (the final, and the third-place match
    if there is one), best first; ``[]`` before. The final's winner is 1st and its loser
    2nd; the third-place match places 3rd and 4th, or else the semi-final losers share 3rd;
    the losers of each earlier round share the places below everyone who went further
    (with byes, a round may have fewer losers than the bracket has lines for). Teams that
    share a place are in seed order."""
    decided = [bracket.final] + ([bracket.third_place] if bracket.third_place else [])
    if any(match.key not in winners for match in decided):
        return []
    slots = bracket_teams(bracket, winners)

    def loser(key: MatchKey) -> TeamId:
        top, bottom = slots[key]
        other = bottom if winners[key] == top else top
        assert other is not None  # a decided match that is not a bye has two teams
        return other

    places = [Placing(winners[bracket.final.key], 1, 1), Placing(loser(bracket.final.key), 2, 2)]
    for number in range(len(bracket.rounds) - 1, 0, -1):  # the semi-finals, then earlier
        above = len(places)
        if number == len(bracket.rounds) - 1 and bracket.third_place is not None:
            key = bracket.third_place.key
            places += [Placing(winners[key], above + 1, above + 1),
                       Placing(loser(key), above + 2, above + 2)]
            continue
        losers = sorted((loser(m.key) for m in bracket.rounds[number - 1] if not m.is_bye),
                        key=bracket.seed)
        places += [Placing(team, above + 1, above + len(losers)) for team in losers]
    return places


def match_winner(
    bracket: Bracket, winners: Mapping[MatchKey, TeamId], key: MatchKey
) -> TeamId | None:
    """The winner of match ``key``: the recorded one, the team of a bye, or ``None``."""
    match = bracket.match(key)
    return match.top if match.is_bye and isinstance(match.top, TeamId) else winners.get(key)


def record_winner(
    bracket: Bracket, winners: Mapping[MatchKey, TeamId], key: MatchKey, winner: TeamId
) -> dict[MatchKey, TeamId]:
    """Advance ``winner`` from match ``key``: a new winners mapping (``winners`` is unchanged).

    Recording the same winner again changes nothing; a different winner replaces
    the old one only while no later result depends on it. :class:`PairingError`
    if the match is not ready, ``winner`` did not play in it, or it was a bye
    for another team.
    """
    match = bracket.match(key)
    top, bottom = bracket_teams(bracket, winners)[key]
    if match.is_bye:
        if winner != top:
            raise PairingError(_("match %(match)s is a bye for team %(team)s")
                               % {"match": key, "team": top})
        return dict(winners)
    if top is None or bottom is None:
        raise PairingError(_("match %(match)s is not ready: an earlier match has no winner yet")
                           % {"match": key})
    if winner not in (top, bottom):
        raise PairingError(_("team %(team)s did not play in match %(match)s (%(top)s v %(bottom)s)")
                           % {"team": winner, "match": key, "top": top, "bottom": bottom})
    if winners.get(key, winner) != winner:
        for onward in (match.winner_to, match.loser_to):
            if onward is not None and onward.match in winners:
                raise PairingError(_("match %(match)s cannot change winner: match %(onward)s "
                                     "already has a result")
                                   % {"match": key, "onward": onward.match})
    return {**winners, key: winner}


def knockout_round(
    bracket: Bracket, winners: Mapping[MatchKey, TeamId], round_number: int
) -> list[Pairing]:
    """The pairings of round ``round_number``, top match first, better seed home.

    Round one lists byes as pairings without an away team; the last round lists
    the final, then the third-place match. :class:`PairingError` if the round
    does not exist or a team in it is not known yet.
    """
    if not 1 <= round_number <= len(bracket.rounds):
        raise PairingError(_("round %(number)d does not exist; the bracket has rounds 1 to "
                             "%(total)d") % {"number": round_number, "total": len(bracket.rounds)})
    matches = list(bracket.rounds[round_number - 1])
    if round_number == len(bracket.rounds) and bracket.third_place is not None:
        matches.append(bracket.third_place)
    slots = bracket_teams(bracket, winners)
    pairings = []
    for match in matches:
        top, bottom = slots[match.key]
        if top is None or (bottom is None and not match.is_bye):
            raise PairingError(_("round %(number)d is not ready: match %(match)s still waits "
                                 "for an earlier result")
                               % {"number": round_number, "match": match.key})
        if bottom is not None and bracket.seed(bottom) < bracket.seed(top):
            top, bottom = bottom, top
        pairings.append(Pairing(home=top, away=bottom))
    return pairings


class Knockout(TournamentFormat):
    """Single elimination on a seeded bracket; drawn games go to the tie rule."""

    key = "knockout"
    label = gettext_lazy("single-elimination knockout")
    settings = frozenset({"knockout_tie_rule", "third_place_match"})
    has_bracket = True
    draft_swaps_teams = False
    places_note = gettext_lazy("From the bracket: the champion, the finalist, then the teams "
                               "knocked out in each round, from the last round back.")

    def rounds_total(self, data: TournamentData) -> int:
        return len(self._bracket(data).rounds)

    def pairings(self, data: TournamentData, number: int) -> list[tuple[int | None, Pairing]]:
        bracket = self._bracket(data)
        return list(enumerate(knockout_round(bracket, self._winners(data, bracket), number)))

    def round_name(self, number: int, data: TournamentData) -> str:
        return _round_name(number, self.rounds_total(data))

    def decisions(self, data: TournamentData) -> dict[Position, MatchDecision]:
        bracket = self._bracket(data)
        return decide_played(data.played(), bracket.seed, data.settings.knockout_tie_rule)

    def final_places(self, data: TournamentData) -> list[Placing]:
        bracket = self._bracket(data)
        return final_places(bracket, self._winners(data, bracket))

    def bracket(self, data: TournamentData) -> DrawnBracket:
        bracket = self._bracket(data)
        winners = self._winners(data, bracket)
        slots = bracket_teams(bracket, winners)
        numbers = {m.key: n for n, m in enumerate(
            (m for m in bracket.matches() if not m.is_bye), start=1)}

        def note(source: TeamId | Feed[MatchKey] | None, team: TeamId | None) -> str:
            """Where a slot's team comes from, while it is not known."""
            if team is not None:
                return ""
            if not isinstance(source, Feed):
                return _("bye")
            text = _("Winner of match %(number)d") if source.takes == "winner" \
                else _("Loser of match %(number)d")
            return text % {"number": numbers[source.match]}

        def drawn(match: BracketMatch) -> DrawnMatch:
            top, bottom = slots[match.key]
            return DrawnMatch(match.key, top, bottom,
                              (note(match.top, top), note(match.bottom, bottom)),
                              match_winner(bracket, winners, match.key), match.is_bye,
                              numbers.get(match.key))

        count = len(bracket.rounds)
        sections = [DrawnSection("", tuple(
            DrawnRound(_round_name(number, count), tuple(drawn(m) for m in matches))
            for number, matches in enumerate(bracket.rounds, start=1)))]
        if bracket.third_place is not None:
            sections.append(DrawnSection(_("Third-place match"), (
                DrawnRound("", (drawn(bracket.third_place),)),)))
        return DrawnBracket(bracket.seeds, tuple(sections), winners.get(bracket.final.key))

    @staticmethod
    def _bracket(data: TournamentData) -> Bracket:
        return knockout_bracket(data.seeds(), third_place=data.settings.third_place_match)

    def _winners(self, data: TournamentData, bracket: Bracket) -> dict[MatchKey, TeamId]:
        rule = data.settings.knockout_tie_rule
        return {position: decision.winner
                for position, decision in decide_played(data.played(), bracket.seed,
                                                        rule).items()}


def _round_name(number: int, count: int) -> str:
    names = {count: _("Final"), count - 1: _("Semi-finals"), count - 2: _("Quarter-finals")}
    return str(names.get(number, _("Round %(number)d") % {"number": number}))
