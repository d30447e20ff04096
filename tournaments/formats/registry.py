"""The tournament formats, one class each, registered once (Tabbycat's draw manager maps each
draw type to one class the same way).

A format answers everything the platform asks of it: how many rounds, the next round's
pairings, the bracket if it has one, the final places, what a draft round may edit, which
tournament settings it reads, and how its pages are laid out. Nothing outside this package
asks which format a tournament has; it asks the tournament's format (``format_of``).

A format is database-free, like the pairing functions it calls: what it knows of a tournament comes
through :class:`TournamentData`, which the selectors implement over the database and the
tests over plain values. ``formats/__init__.py`` registers each format class once; the
model's choices follow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext as _

from .base import Pairing, PairingError, Placing, PlayedMatch, Position, SwissTeam, TeamId
from .ties import MatchDecision

#: The settings a format may read or leave alone (the others apply to every format).
STANDINGS_SETTINGS = frozenset({"points_win", "points_draw", "points_loss", "points_bye",
                                "tiebreaks", "bye_policy", "duplicate"})
OPTIONAL_SETTINGS = STANDINGS_SETTINGS | {"rounds_planned", "knockout_tie_rule",
                                          "third_place_match"}


class FormatSettings(Protocol):
    """The tournament settings a format may read (the ``Tournament`` model has them all)."""

    rounds_planned: int
    third_place_match: bool
    bye_policy: str
    knockout_tie_rule: str


class TournamentData(Protocol):
    """What a format may know of one tournament, read when it asks."""

    @property
    def settings(self) -> FormatSettings: ...

    def seeds(self) -> Sequence[TeamId]:
        """The teams still in, best seed first."""
        ...

    def swiss_teams(self) -> Sequence[SwissTeam]:
        """Every entered team with its points, opponents, byes, whether it withdrew and the
        teams it is to be kept apart from."""
        ...

    def played(self) -> Sequence[PlayedMatch]:
        """Every game with a confirmed result, byes left out."""
        ...

    def rounds(self) -> Sequence[Sequence[Pairing]]:
        """Who met whom in each round paired so far (a draft's too), round one first: its
        byes and games against the house bot team as pairings without an away team."""
        ...


@dataclass(frozen=True, slots=True)
class DrawnMatch:
    """One match of a bracket as its page draws it. ``position`` is where the match is
    stored once paired; a side not known yet has a note instead ("Winner of match 3",
    "bye"); ``number`` is its match number (byes have none)."""

    position: Position
    top: TeamId | None
    bottom: TeamId | None
    notes: tuple[str, str]
    winner: TeamId | None
    is_bye: bool
    number: int | None


@dataclass(frozen=True, slots=True)
class DrawnRound:
    name: str
    matches: tuple[DrawnMatch, ...]


@dataclass(frozen=True, slots=True)
class DrawnSection:
    """A part of the bracket page: the whole bracket of a knockout, or the winners' bracket,
    the losers' bracket and the final of a double elimination. ``title`` may be empty."""

    title: str
    rounds: tuple[DrawnRound, ...]


@dataclass(frozen=True, slots=True)
class DrawnBracket:
    seeds: tuple[TeamId, ...]
    sections: tuple[DrawnSection, ...]
    champion: TeamId | None


class TournamentFormat:
    """The questions every format answers. Class attributes describe it; the methods read
    the tournament through ``data`` and raise :class:`PairingError` for what the organiser
    must fix."""

    key: ClassVar[str]  # the value stored in ``Tournament.format``
    label: ClassVar[Promise]
    #: the tournament settings this format reads, among those only some formats read
    settings: ClassVar[frozenset[str]]
    #: a bracket decides the places (it has a bracket page; the standings count games only)
    has_bracket: ClassVar[bool] = False
    #: a draft round's teams may trade places (a bracket fixes who plays whom)
    draft_swaps_teams: ClassVar[bool] = True
    #: how the final places are found, for the tournament's page ("" for the standings)
    places_note: ClassVar[Promise | str] = ""

    def rounds_total(self, data: TournamentData) -> int:
        raise NotImplementedError

    def pairings(self, data: TournamentData, number: int) -> list[tuple[int | None, Pairing]]:
        """Round ``number``'s pairings, each with its slot in the bracket (None without)."""
        raise NotImplementedError

    def unkept_apart(self, data: TournamentData,
                     pairings: Sequence[Pairing]) -> list[tuple[TeamId, TeamId]]:
        """The pairs the organiser asks to keep apart that ``pairings`` (this format's
        draw of a round) still bring together, for a format that keeps them apart wherever
        a draw can (Swiss: then no draw of the round's active teams brings together fewer);
        [] for one that does not try (a schedule or a bracket fixes who meets whom)."""
        return []

    def scheduled(self, data: TournamentData, number: int) -> list[Pairing]:
        """The pairings of a later round known in advance (a round robin's), else none."""
        return []

    def replanned(self, data: TournamentData,
                  rounds: Sequence[Sequence[Pairing]]) -> list[list[Pairing]] | None:
        """The rounds still to come once ``rounds`` are the rounds so far (a draft's as an
        edit would leave it), for a format that plans them in advance; None for one that
        pairs each round from the results. :class:`PairingError` when the format's promise
        (a round robin's: every pair meets once) can no longer be kept."""
        return None

    def round_name(self, number: int, data: TournamentData) -> str:
        """What the round is called where a plain number would say less ("" then)."""
        return ""

    def decisions(self, data: TournamentData) -> Mapping[Position, MatchDecision]:
        """Who went through from each played match, and what decided it (bracket formats)."""
        return {}

    def final_places(self, data: TournamentData) -> list[Placing] | None:
        """The places once decided (``[]`` before); None: the final standings give them."""
        return None

    def bracket(self, data: TournamentData) -> DrawnBracket | None:
        """The bracket as its page draws it; None for a format without one."""
        return None


_REGISTRY: dict[str, TournamentFormat] = {}


def register(cls: type[TournamentFormat]) -> None:
    """Make ``cls`` the format stored as ``cls.key`` (``formats/__init__.py`` lists them)."""
    if cls.key in _REGISTRY:
        raise AssertionError(f"two formats are registered as {cls.key!r}")
    _REGISTRY[cls.key] = cls()


def format_of(key: str) -> TournamentFormat:
    """The format stored as ``key``; :class:`PairingError` for one nobody registered."""
    try:
        return _REGISTRY[key]
    except KeyError:
        raise PairingError(_("there is no tournament format %(format)r") % {"format": key}) \
            from None


def formats() -> list[TournamentFormat]:
    """Every registered format, in the order registered."""
    return list(_REGISTRY.values())


def unread_settings(key: str) -> frozenset[str]:
    """The settings only some formats read that the format stored as ``key`` leaves alone
    (:class:`PairingError` for a format nobody registered)."""
    return OPTIONAL_SETTINGS - format_of(key).settings
