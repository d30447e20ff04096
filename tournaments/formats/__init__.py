"""Pairing formats: round robin, Swiss and knockout, as pure functions.

Nothing here touches the database (Django's gettext translates the messages, no
more): a service loads the teams, calls one of these functions and writes the
rounds and matches. Inputs
are team ids or objects satisfying the protocols in :mod:`.base`; outputs are
:class:`Pairing` values and plain dataclasses. Organiser-facing problems raise
:class:`PairingError` (a ``ValueError``); anything else is a bug.
"""

from .base import Pairing, PairingError, SeededTeam, SwissTeam, TeamId
from .knockout import (
    DECIDED_BY_LABELS,
    TIE_RULES,
    Bracket,
    BracketMatch,
    Feed,
    MatchDecision,
    MatchKey,
    MatchSide,
    SlotRef,
    TieRule,
    bracket_order,
    bracket_teams,
    decide_match,
    knockout_bracket,
    knockout_first_round,
    knockout_round,
    match_winner,
    record_winner,
    tie_chain,
)
from .round_robin import round_robin_round, round_robin_round_count, round_robin_schedule
from .swiss import OddPolicy, SwissEntry, bench_swiss_input, pair_swiss_round

__all__ = [
    "DECIDED_BY_LABELS",
    "TIE_RULES",
    "Bracket",
    "BracketMatch",
    "Feed",
    "MatchDecision",
    "MatchKey",
    "MatchSide",
    "OddPolicy",
    "Pairing",
    "PairingError",
    "SeededTeam",
    "SlotRef",
    "SwissEntry",
    "SwissTeam",
    "TeamId",
    "TieRule",
    "bench_swiss_input",
    "bracket_order",
    "bracket_teams",
    "decide_match",
    "knockout_bracket",
    "knockout_first_round",
    "knockout_round",
    "match_winner",
    "pair_swiss_round",
    "record_winner",
    "round_robin_round",
    "round_robin_round_count",
    "round_robin_schedule",
    "tie_chain",
]
