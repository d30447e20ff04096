"""Who stands in each slot of an elimination bracket, the one filler that knockout and
double elimination share: a slot holds a team, the winner or the loser of an earlier
match (a :class:`Feed`), or nobody ever (``None``).

Contract: ``matches`` come each after the matches that feed it; ``winners`` maps a match
key to its recorded winner. A match with one side that can never be filled is a bye (its
team advances with no entry in ``winners``; an entry there must name that team). A
recorded winner who is not in the match raises :class:`~.base.PairingError`, named by
``describe`` as people name the match."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from django.utils.translation import gettext as _

from .base import PairingError, TeamId

__all__ = ["Feed", "SlotMatch", "Teams", "fill_slots"]

K = TypeVar("K", bound=Hashable)

#: A match's ``(top, bottom)`` teams: ``None`` for a slot not known yet or never filled.
Teams = tuple[TeamId | None, TeamId | None]


@dataclass(frozen=True, slots=True)
class Feed(Generic[K]):
    """A slot filled by the winner or the loser of an earlier match."""

    match: K
    takes: Literal["winner", "loser"] = "winner"


class SlotMatch(Protocol[K]):
    """What the filler reads of a bracket's match."""

    @property
    def key(self) -> K: ...
    @property
    def top(self) -> TeamId | Feed[K] | None: ...
    @property
    def bottom(self) -> TeamId | Feed[K] | None: ...
    @property
    def is_bye(self) -> bool: ...


#: Whether match ``key`` is played at all, given the slots and results before it.
Played = Callable[[K, Mapping[K, Teams], Mapping[K, tuple[TeamId, TeamId | None]]], bool]


def fill_slots(matches: Iterable[SlotMatch[K]], winners: Mapping[K, TeamId],
               describe: Callable[[K], str],
               played: Played[K] | None = None) -> dict[K, Teams]:
    """Each match's ``(top, bottom)`` teams given the recorded ``winners``; a match that
    ``played`` says is not (a bracket reset nobody needs) has neither."""
    slots: dict[K, Teams] = {}
    decided: dict[K, tuple[TeamId, TeamId | None]] = {}  # key -> (winner, loser)

    def fill(side: TeamId | Feed[K] | None) -> TeamId | None:
        if side is None or isinstance(side, TeamId):
            return side
        result = decided.get(side.match)
        return None if result is None else result[0 if side.takes == "winner" else 1]

    for match in matches:
        key = match.key
        top, bottom = fill(match.top), fill(match.bottom)
        if played is not None and not played(key, slots, decided):
            top = bottom = None
        slots[key] = (top, bottom)
        bye_team = top if top is not None else bottom
        if match.is_bye and bye_team is not None:
            decided[key] = (bye_team, None)
        if key not in winners:
            continue
        winner = winners[key]
        if match.is_bye:
            if winner != bye_team:
                raise PairingError(_("%(match)s is a bye for team %(team)s, not team %(winner)s")
                                   % {"match": describe(key), "team": bye_team,
                                      "winner": winner})
            continue
        if top is None or bottom is None or winner not in (top, bottom):
            raise PairingError(_("team %(team)s is recorded as the winner of %(match)s, but "
                                 "that match is %(top)s v %(bottom)s")
                               % {"team": winner, "match": describe(key), "top": top,
                                  "bottom": bottom})
        decided[key] = (winner, bottom if winner == top else top)
    return slots
