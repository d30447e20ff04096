"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

Contract:

* ``team_ids`` are in seed order (seed 1 first). The bracket has ``P`` lines, the
  next power of two at or above the field size ``n``, and ``k = log2(P)``. The
  winners' rounds W1..Wk are exactly the knockout's (:func:`.knockout.knockout_bracket`:
  :func:`.knockout.bracket_order` seeding, seeds above ``n`` are byes, so the byes go to
  the top ``P - n`` seeds).
* A team is out after its second loss. The losers' bracket (``k >= 2``) has rounds
  L1..L(2k-2): L1 match ``i`` takes the losers of W1 matches ``2i`` and ``2i + 1``; for
  ``r = 2..k``, L(2r-2) match ``i`` is the winner of L(2r-3) match ``i`` (L1 for
  ``r = 2``) against the loser of W_r match ``drop_r(i)``; for ``r = 2..k-1``, L(2r-1)
  match ``i`` takes the winners of L(2r-2) matches ``2i`` and ``2i + 1``. ``drop_r``
  reverses the order for even ``r`` and swaps the halves for odd ``r``, which keeps
  teams who met in the winners' bracket apart in the losers' bracket for as long as
  possible (with ``P`` lines some rematches in its last ``k - 1`` rounds are forced).
* The grand final ``("F", 1, 0)`` is the winners' final winner (top) against the losers'
  final winner (bottom); with two teams it is a rematch of W1. The bracket reset
  ``("F", 2, 0)``, the same two teams again, is played only when the bottom team won
  the grand final, since only then has each finalist lost once.
* Keys are :data:`DEKey`: ``("W", r, i)``, ``("L", j, i)``, ``("F", 1, 0)``,
  ``("F", 2, 0)``, index ``i`` from 0, top to bottom. A slot whose feeder can never
  produce a team (a W1 bye has no loser) is empty; a match with one empty side is a
  bye (its team advances without a game) and with both empty it is void (nobody reaches
  it, it produces nobody). Both are static, decided by the seeding.
* Tournament rounds: W_r is played in round ``r``, L_j in round ``j + 1``, the grand
  final in round ``2k`` and the reset in round ``2k + 1``. A round's slots are its W
  matches, then its L matches, each by index; void matches keep their slot.
* Results live in a ``winners`` mapping (match key -> winning team id) that the caller
  stores; byes need no entry. In a :class:`~.base.Pairing` the better seed is home.
* :class:`~.base.PairingError` for the organiser's mistakes: too few or repeated
  teams, a match or round that does not exist, a winner who did not play in the match,
  a round that is not ready or (the reset) not needed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .base import Pairing, PairingError, Placing, Position, TeamId, check_team_ids
from .knockout import bracket_order
from .registry import (
    DrawnBracket,
    DrawnMatch,
    DrawnRound,
    DrawnSection,
    TournamentData,
    TournamentFormat,
)
from .slots import Feed, Teams, fill_slots
from .ties import MatchDecision, decide_played

__all__ = [
    "DEKey", "DEMatch", "DoubleBracket", "DoubleElimination", "SectionKey",
    "bracket_teams", "champion", "double_bracket", "final_places", "match_at", "round_label",
    "round_pairings", "rounds_total", "sections", "slot_of", "through_byes",
]

#: ``("W", r, i)`` winners' round r, ``("L", j, i)`` losers' round j, ``("F", 1, 0)`` the
#: grand final, ``("F", 2, 0)`` the bracket reset; ``i`` from 0, top to bottom.
DEKey = tuple[str, int, int]
SectionKey = Literal["winners", "losers", "final"]
GRAND_FINAL: DEKey = ("F", 1, 0)
RESET: DEKey = ("F", 2, 0)


@dataclass(frozen=True, slots=True)
class DEMatch:
    """A match of the bracket. ``top`` and ``bottom`` are a team (W1), a :class:`~.slots.Feed`,
    or ``None`` for a slot nobody will ever fill. The reset has the grand final's feeds."""

    key: DEKey
    top: TeamId | Feed[DEKey] | None
    bottom: TeamId | Feed[DEKey] | None

    @property
    def is_bye(self) -> bool:
        """One side can never be filled: the other team advances without a game."""
        return (self.top is None) != (self.bottom is None)

    @property
    def is_void(self) -> bool:
        """Neither side can ever be filled: nobody plays it and it produces nobody."""
        return self.top is None and self.bottom is None


@dataclass(frozen=True, slots=True)
class DoubleBracket:
    """The whole bracket: ``winners[r - 1]`` is W_r, ``losers[j - 1]`` is L_j (empty for
    two teams), ``finals`` the grand final and the reset."""

    seeds: tuple[TeamId, ...]
    winners: tuple[tuple[DEMatch, ...], ...]
    losers: tuple[tuple[DEMatch, ...], ...]
    finals: tuple[DEMatch, DEMatch]

    @property
    def k(self) -> int:
        """The number of winners' rounds, ``log2`` of the lines."""
        return len(self.winners)

    def seed(self, team: TeamId) -> int:
        """The seed (from 1) of ``team``."""
        return self.seeds.index(team) + 1

    def match(self, key: DEKey) -> DEMatch:
        """The match with ``key``; :class:`PairingError` if there is none."""
        kind, number, index = key
        rounds = {"W": self.winners, "L": self.losers, "F": tuple((m,) for m in self.finals)}
        chosen = rounds.get(kind, ())
        if 1 <= number <= len(chosen) and 0 <= index < len(chosen[number - 1]):
            return chosen[number - 1][index]
        raise PairingError(_("the bracket has no match %(match)s") % {"match": key})

    def matches(self) -> Iterator[DEMatch]:
        """Every match, each after the matches that feed it."""
        for rounds in (self.winners, self.losers, (self.finals,)):
            for matches in rounds:
                yield from matches

    def round_count(self) -> int:
        """The most tournament rounds there can be (the reset included)."""
        return 2 * self.k + 1

    def round_matches(self, number: int) -> tuple[DEMatch, ...]:
        """The matches of tournament round ``number`` in slot order; :class:`PairingError`
        if there is no such round."""
        if not 1 <= number <= self.round_count():
            raise PairingError(_("round %(number)d does not exist; the bracket has rounds 1 "
                                 "to %(total)d") % {"number": number,
                                                    "total": self.round_count()})
        if number >= 2 * self.k:
            return (self.finals[number - 2 * self.k],)
        won = self.winners[number - 1] if number <= self.k else ()
        lost = self.losers[number - 2] if 2 <= number <= len(self.losers) + 1 else ()
        return won + lost


def _drop(r: int, i: int, m: int) -> int:
    """Which W_r match's loser meets L match ``i`` of the ``m`` in L(2r-2)."""
    if m == 1:
        return i
    return m - 1 - i if r % 2 == 0 else (i + m // 2) % m


def double_bracket(team_ids: Sequence[TeamId]) -> DoubleBracket:
    """The bracket for ``team_ids`` in seed order (see the module contract)."""
    seeds = tuple(check_team_ids(team_ids))
    n = len(seeds)
    lines = 1 << (n - 1).bit_length()
    k = lines.bit_length() - 1
    built: dict[DEKey, DEMatch] = {}

    def live(side: TeamId | Feed[DEKey] | None) -> TeamId | Feed[DEKey] | None:
        """``side``, or ``None`` when its feeder never produces a team."""
        if isinstance(side, Feed):
            feeder = built[side.match]
            if feeder.is_void or (side.takes == "loser" and feeder.is_bye):
                return None
        return side

    def add(key: DEKey, top: TeamId | Feed[DEKey] | None,
            bottom: TeamId | Feed[DEKey] | None) -> DEMatch:
        built[key] = DEMatch(key, live(top), live(bottom))
        return built[key]

    def loser(key: DEKey) -> Feed[DEKey]:
        return Feed(key, "loser")

    order = bracket_order(lines)
    winners = [tuple(add(("W", 1, i), seeds[order[2 * i] - 1],
                         seeds[order[2 * i + 1] - 1] if order[2 * i + 1] <= n else None)
                     for i in range(lines // 2))]
    for r in range(2, k + 1):
        winners.append(tuple(add(("W", r, i), Feed(("W", r - 1, 2 * i)),
                                 Feed(("W", r - 1, 2 * i + 1)))
                             for i in range(lines >> r)))
    losers: list[tuple[DEMatch, ...]] = []
    if k >= 2:
        losers.append(tuple(add(("L", 1, i), loser(("W", 1, 2 * i)), loser(("W", 1, 2 * i + 1)))
                            for i in range(lines // 4)))
    for r in range(2, k + 1):
        m = lines >> r
        j = 2 * r - 2
        losers.append(tuple(add(("L", j, i), Feed(("L", j - 1, i)),
                                loser(("W", r, _drop(r, i, m))))
                            for i in range(m)))
        if r < k:
            losers.append(tuple(add(("L", j + 1, i), Feed(("L", j, 2 * i)),
                                    Feed(("L", j, 2 * i + 1)))
                                for i in range(m // 2)))
    top = Feed(("W", k, 0))
    bottom = Feed(("L", 2 * k - 2, 0)) if k >= 2 else loser(("W", 1, 0))
    finals = (add(GRAND_FINAL, top, bottom), add(RESET, top, bottom))
    return DoubleBracket(seeds, tuple(winners), tuple(losers), finals)


def bracket_teams(
    bracket: DoubleBracket, winners: Mapping[DEKey, TeamId]
) -> dict[DEKey, tuple[TeamId | None, TeamId | None]]:
    """Who is in each match's ``(top, bottom)`` slots given the recorded ``winners``:
    ``None`` for a slot not known yet or one nobody will ever fill (an empty slot, or the
    reset once the top team won the grand final). :class:`PairingError` for a recorded
    winner who did not play in that match, or a key the bracket does not have."""
    for key in winners:
        bracket.match(key)
    return fill_slots(bracket.matches(), winners, lambda key: _describe(bracket, key),
                      _reset_played)


def _reset_played(key: DEKey, slots: Mapping[DEKey, Teams],
                  decided: Mapping[DEKey, tuple[TeamId, TeamId | None]]) -> bool:
    """Every match is played but the reset, which only the bottom team's grand final win
    calls for."""
    if key != RESET:
        return True
    final = decided.get(GRAND_FINAL)
    return final is not None and final[0] == slots[GRAND_FINAL][1]


def _describe(bracket: DoubleBracket, key: DEKey) -> str:
    """A match as people name it: "Losers' round 3, match 2", "Grand final"."""
    label = round_label(key, bracket)
    kind, number, _index = key
    if kind == "F" or len((bracket.winners if kind == "W" else bracket.losers)[number - 1]) == 1:
        return label
    return _("%(round)s, match %(index)d") % {"round": label, "index": key[2] + 1}


def _gf_won_by_top(winners: Mapping[DEKey, TeamId],
                   slots: Mapping[DEKey, tuple[TeamId | None, TeamId | None]]) -> bool:
    """Whether the winners' bracket team won the grand final, which ends the tournament."""
    return GRAND_FINAL in winners and winners[GRAND_FINAL] == slots[GRAND_FINAL][0]


def round_pairings(
    bracket: DoubleBracket, winners: Mapping[DEKey, TeamId], number: int
) -> list[tuple[int, Pairing]]:
    """The ``(slot, pairing)`` of tournament round ``number``, in slot order: a bye as
    a pairing without an away team, void matches left out, better seed home.

    :class:`PairingError` if the round does not exist, is the reset when the top team
    won the grand final, or is not ready: a match of an earlier round has no winner yet
    (rounds are played in order, so every earlier round must be complete).
    """
    matches = bracket.round_matches(number)
    slots = bracket_teams(bracket, winners)
    if number == bracket.round_count() and _gf_won_by_top(winners, slots):
        raise PairingError(_("round %(number)d, the bracket reset, is not needed: the "
                             "winners' bracket team won the grand final") % {"number": number})
    for earlier in range(1, number):
        for match in bracket.round_matches(earlier):
            if not (match.is_bye or match.is_void or match.key in winners):
                raise PairingError(_("round %(number)d is not ready: %(match)s has no winner "
                                     "yet") % {"number": number,
                                               "match": _describe(bracket, match.key)})
    pairings = []
    for slot, match in enumerate(matches):
        if match.is_void:
            continue
        top, bottom = slots[match.key]
        if match.is_bye:
            team = top if top is not None else bottom
            assert team is not None  # every earlier round is complete
            pairings.append((slot, Pairing(home=team)))
            continue
        assert top is not None and bottom is not None
        if bracket.seed(bottom) < bracket.seed(top):
            top, bottom = bottom, top
        pairings.append((slot, Pairing(home=top, away=bottom)))
    return pairings


def rounds_total(bracket: DoubleBracket, winners: Mapping[DEKey, TeamId]) -> int:
    """``2k + 1`` rounds, or ``2k`` once the top team has won the grand final."""
    won = _gf_won_by_top(winners, bracket_teams(bracket, winners))
    return bracket.round_count() - 1 if won else bracket.round_count()


def match_at(bracket: DoubleBracket, number: int, slot: int) -> DEKey:
    """The key of the match in ``slot`` of tournament round ``number``."""
    matches = bracket.round_matches(number)
    if not 0 <= slot < len(matches):
        raise PairingError(_("round %(number)d has no slot %(slot)d") % {"number": number,
                                                                         "slot": slot})
    return matches[slot].key


def slot_of(bracket: DoubleBracket, key: DEKey) -> Position:
    """The ``(tournament round, slot)`` where match ``key`` is played."""
    kind, number, index = key
    bracket.match(key)
    if kind == "F":
        return 2 * bracket.k + number - 1, 0
    if kind == "W":
        return number, index
    played = number + 1
    return played, index + (len(bracket.winners[played - 1]) if played <= bracket.k else 0)


def champion(bracket: DoubleBracket, winners: Mapping[DEKey, TeamId]) -> TeamId | None:
    """The grand final's winner if the top team won it, else the reset's winner; ``None``
    until one of them is decided."""
    if _gf_won_by_top(winners, bracket_teams(bracket, winners)):
        return winners[GRAND_FINAL]
    return winners.get(RESET)


def final_places(bracket: DoubleBracket, winners: Mapping[DEKey, TeamId]) -> list[Placing]:
    """The final places once the tournament is decided, best first; ``[]`` before.

    The champion is 1st and the other finalist 2nd; then, from the losers' final down,
    the teams that lost a losers' round (their second loss) share the places below
    everyone who went further: 3rd (losers' final), 4th, 5th-6th, 7th-8th, 9th-12th...
    with byes a round has fewer losers than lines. Teams sharing a place are in seed
    order.
    """
    first = champion(bracket, winners)
    if first is None:
        return []
    slots = bracket_teams(bracket, winners)
    top, bottom = slots[GRAND_FINAL]
    assert top is not None and bottom is not None
    places = [Placing(first, 1, 1), Placing(bottom if first == top else top, 2, 2)]
    for matches in reversed(bracket.losers):  # every one feeds the losers' final: all played
        out = []
        for match in matches:
            if not (match.is_bye or match.is_void):
                pair = slots[match.key]
                lost = pair[1] if winners[match.key] == pair[0] else pair[0]
                assert lost is not None
                out.append(lost)
        above = len(places)
        places += [Placing(team, above + 1, above + len(out))
                   for team in sorted(out, key=bracket.seed)]
    return places


def through_byes(bracket: DoubleBracket,
                 side: TeamId | Feed[DEKey] | None) -> TeamId | Feed[DEKey] | None:
    """Where ``side``'s team really comes from: a bye has no number of its own (nobody
    plays it), and its winner is whoever fills its one side, which may wait on a match
    of its own (a losers' round bye waits on a winners' round loser)."""
    while isinstance(side, Feed) and side.takes == "winner":
        feeder = bracket.match(side.match)
        if not feeder.is_bye:
            break
        side = feeder.top if feeder.top is not None else feeder.bottom
    return side


def sections(bracket: DoubleBracket) -> list[tuple[SectionKey, list[tuple[DEMatch, ...]]]]:
    """The bracket as a page draws it: ``("winners", W rounds)``, ``("losers", L rounds)``
    (left out for two teams, who have none) and ``("final", [(grand final,), (reset,)])``."""
    parts: list[tuple[SectionKey, list[tuple[DEMatch, ...]]]] = [
        ("winners", list(bracket.winners)), ("losers", list(bracket.losers)),
        ("final", [(match,) for match in bracket.finals])]
    return [(key, rounds) for key, rounds in parts if rounds]


def round_label(key: DEKey, bracket: DoubleBracket) -> str:
    """The name of match ``key``'s bracket round: "Winners' round 2", "Winners' final",
    "Losers' round 3", "Losers' final", "Grand final" or "Bracket reset"."""
    kind, number, _index = bracket.match(key).key
    if kind == "F":
        return _("Grand final") if number == 1 else _("Bracket reset")
    if kind == "W":
        if number == bracket.k:
            return _("Winners' final")
        return _("Winners' round %(number)d") % {"number": number}
    if number == len(bracket.losers):
        return _("Losers' final")
    return _("Losers' round %(number)d") % {"number": number}


class DoubleElimination(TournamentFormat):
    """Out after two losses: the winners' and losers' brackets, then the grand final."""

    key = "double_elimination"
    label = gettext_lazy("double elimination")
    settings = frozenset({"knockout_tie_rule"})
    has_bracket = True
    draft_swaps_teams = False
    places_note = gettext_lazy("From the brackets: the champion, the grand final's loser, "
                               "then the teams knocked out of the losers' bracket, from its "
                               "last round back.")

    def rounds_total(self, data: TournamentData) -> int:
        bracket = double_bracket(data.seeds())
        return rounds_total(bracket, self._winners(data, bracket))

    def pairings(self, data: TournamentData, number: int) -> list[tuple[int | None, Pairing]]:
        bracket = double_bracket(data.seeds())
        return list(round_pairings(bracket, self._winners(data, bracket), number))

    def round_name(self, number: int, data: TournamentData) -> str:
        """The grand final and the reset by name; other rounds mix the two brackets."""
        bracket = double_bracket(data.seeds())
        matches = bracket.round_matches(number)
        return round_label(matches[0].key, bracket) if matches[0].key[0] == "F" else ""

    def decisions(self, data: TournamentData) -> dict[Position, MatchDecision]:
        bracket = double_bracket(data.seeds())
        return decide_played(data.played(), bracket.seed, data.settings.knockout_tie_rule)

    def final_places(self, data: TournamentData) -> list[Placing]:
        bracket = double_bracket(data.seeds())
        return final_places(bracket, self._winners(data, bracket))

    def bracket(self, data: TournamentData) -> DrawnBracket:
        bracket = double_bracket(data.seeds())
        winners = self._winners(data, bracket)
        slots = bracket_teams(bracket, winners)
        numbers = {m.key: n for n, m in enumerate(
            (m for m in bracket.matches() if not (m.is_bye or m.is_void)), start=1)}
        titles = {"winners": _("Winners' bracket"), "losers": _("Losers' bracket"),
                  "final": _("Final")}

        def note(match: DEMatch, side: TeamId | Feed[DEKey] | None) -> str:
            if match.key == RESET:
                return _("if the losers' bracket team wins the grand final")
            side = through_byes(bracket, side)
            if not isinstance(side, Feed):
                return _("bye")
            text = _("Winner of match %(number)d") if side.takes == "winner" \
                else _("Loser of match %(number)d")
            return text % {"number": numbers[side.match]}

        def drawn(match: DEMatch) -> DrawnMatch:
            top, bottom = slots[match.key]
            won = winners.get(match.key)
            if match.is_bye:
                won = top if top is not None else bottom
            return DrawnMatch(slot_of(bracket, match.key), top, bottom,
                              ("" if top is not None else note(match, match.top),
                               "" if bottom is not None else note(match, match.bottom)),
                              won, match.is_bye, numbers.get(match.key))

        return DrawnBracket(bracket.seeds, tuple(
            DrawnSection(titles[key], tuple(
                DrawnRound(round_label(matches[0].key, bracket),
                           tuple(drawn(m) for m in matches if not m.is_void))
                for matches in rounds))
            for key, rounds in sections(bracket)), champion(bracket, winners))

    @staticmethod
    def _winners(data: TournamentData, bracket: DoubleBracket) -> dict[DEKey, TeamId]:
        decided = decide_played(data.played(), bracket.seed, data.settings.knockout_tie_rule)
        return {match_at(bracket, *position): decision.winner
                for position, decision in decided.items()}
