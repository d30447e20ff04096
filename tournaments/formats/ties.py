"""Deciding a drawn elimination game (a knockout's or a double elimination's): the lower
game score wins (R9.2); equal scores are broken by the tournament's tie rule, then the other
rules in order, ending with the better seed."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, get_args

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .base import PairingError, PlayedMatch, Position, TeamId

TieRule = Literal[
    "most_hands_won_by_going_out", "most_hands_won", "lowest_last_hand_score", "better_seed"
]
#: Every tie rule, in fallback order (see :func:`tie_chain`).
TIE_RULES: tuple[TieRule, ...] = get_args(TieRule)
#: What decided a knockout game (:attr:`MatchDecision.decided_by`) as people read it, for
#: "decided by ...". Lazy (``gettext_lazy``): a page translates it when shown, the rules
#: above never see it.
DECIDED_BY_LABELS: dict[Literal["game_score"] | TieRule, Promise] = {
    "game_score": gettext_lazy("lower game score"),
    "most_hands_won_by_going_out": gettext_lazy("most hands won by going out"),
    "most_hands_won": gettext_lazy("most hands won"),
    "lowest_last_hand_score": gettext_lazy("lowest last-hand score"),
    "better_seed": gettext_lazy("better seed"),
}


class MatchSide(Protocol):
    """One team's side of a finished game: its id, its seed and its five hand scores."""

    @property
    def team(self) -> TeamId: ...

    @property
    def seed(self) -> int: ...

    @property
    def hand_scores(self) -> Sequence[int]: ...


@dataclass(frozen=True, slots=True)
class MatchDecision:
    """Who went through, and what decided it: ``"game_score"`` (lower wins, R9.2)
    or the tie rule that broke a drawn game."""

    winner: TeamId
    loser: TeamId
    decided_by: Literal["game_score"] | TieRule


def tie_chain(rule: TieRule) -> tuple[TieRule, ...]:
    """The rules tried for a drawn game: ``rule``, then the others in
    :data:`TIE_RULES` order, always ending with ``better_seed``."""
    if rule not in TIE_RULES:
        raise PairingError(_("unknown tie rule %(rule)r; choose one of %(rules)s")
                           % {"rule": rule, "rules": ", ".join(TIE_RULES)})
    if rule == "better_seed":
        return (rule,)
    return (rule, *(r for r in TIE_RULES if r not in (rule, "better_seed")), "better_seed")


def decide_match(home: MatchSide, away: MatchSide, *, rule: TieRule) -> MatchDecision:
    """Decide a knockout game. The lower game score (the sum of the hand scores)
    wins; equal scores are a draw (R9.2), broken by the first rule of
    :func:`tie_chain` that separates the teams:

    * ``most_hands_won_by_going_out``: more hands scored 0 -- a team scores 0
      exactly when one of its players went out (R9.1);
    * ``most_hands_won``: more hands with a lower hand score than the other team;
    * ``lowest_last_hand_score``: the lower score in the last hand;
    * ``better_seed``: the lower seed number.
    """
    chain = tie_chain(rule)
    a, b = list(home.hand_scores), list(away.hand_scores)
    if not a or len(a) != len(b):
        raise PairingError(_("both teams need the same hands scored, got %(home)d and %(away)d")
                           % {"home": len(a), "away": len(b)})
    if home.team == away.team:
        raise PairingError(_("team %(team)s cannot play itself") % {"team": home.team})

    def result(home_wins: bool, by: Literal["game_score"] | TieRule) -> MatchDecision:
        winner, loser = (home, away) if home_wins else (away, home)
        return MatchDecision(winner.team, loser.team, by)

    if sum(a) != sum(b):
        return result(sum(a) < sum(b), "game_score")
    keys = {  # per rule: (home's key, away's key); the smaller key wins
        "most_hands_won_by_going_out": (-a.count(0), -b.count(0)),
        "most_hands_won": (-sum(x < y for x, y in zip(a, b, strict=True)),
                           -sum(y < x for x, y in zip(a, b, strict=True))),
        "lowest_last_hand_score": (a[-1], b[-1]),
        "better_seed": (home.seed, away.seed),
    }
    for name in chain:
        home_key, away_key = keys[name]
        if home_key != away_key:
            return result(home_key < away_key, name)
    raise PairingError(_("teams %(home)s and %(away)s both have seed %(seed)d; seeds must "
                         "differ to break a tie")
                       % {"home": home.team, "away": away.team, "seed": home.seed})


@dataclass(frozen=True, slots=True)
class _Side:
    team: TeamId
    seed: int
    hand_scores: tuple[int, ...]


def decide_played(played: Iterable[PlayedMatch], seed: Callable[[TeamId], int],
                  rule: str) -> dict[Position, MatchDecision]:
    """Who went through from each played game, by its position in the draw."""
    if rule not in TIE_RULES:
        raise PairingError(_("unknown tie rule %(rule)r; choose one of %(rules)s")
                           % {"rule": rule, "rules": ", ".join(TIE_RULES)})
    decided = {}
    for match in played:
        sides = [_Side(team, seed(team), tuple(hand[i] for hand in match.hand_scores))
                 for i, team in enumerate((match.home, match.away))]
        decided[match.position] = decide_match(sides[0], sides[1], rule=rule)
    return decided
