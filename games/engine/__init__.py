"""The Push rules engine: pure Python, no Django (see ../shared/push-rules.md).

Typical use::

    from games.engine import GameState, legal_actions, verify
    game = GameState(first_dealer=3)
    hand = game.deal(deck)
    game.apply(legal_actions(hand)[0])
    verify(record_json).status
"""

from .actions import (
    Action,
    Discard,
    LayContract,
    LayMelds,
    LayOff,
    Push,
    Swap,
    Take,
    action_to_json,
    parse_action,
)
from .cards import ALL_CARDS, JOKER, Card, full_pack, penalty, shuffled_pack
from .errors import IllegalActionError, MalformedRecordError
from .generate import contracts, legal_actions, observed_legal_actions
from .melds import MeldSpec, Placed, TableMeld
from .record import ClaimedResult, HandRecord, Record, load_record
from .state import (
    CONTRACTS,
    GameState,
    HandOutcome,
    HandState,
    Observation,
    dealer_of,
    hand_size,
    team_of,
)
from .verify import IllegalAt, Verdict, replay, verify

__all__ = [
    "ALL_CARDS", "CONTRACTS", "JOKER", "Action", "Card", "ClaimedResult", "Discard", "GameState",
    "HandOutcome", "HandRecord", "HandState", "IllegalActionError", "IllegalAt", "LayContract",
    "LayMelds", "LayOff", "MalformedRecordError", "MeldSpec", "Observation", "Placed", "Push",
    "Record", "Swap", "TableMeld", "Take", "Verdict", "action_to_json", "contracts",
    "dealer_of", "full_pack", "hand_size", "legal_actions", "load_record",
    "observed_legal_actions", "parse_action", "penalty", "replay", "shuffled_pack", "team_of",
    "verify",
]
