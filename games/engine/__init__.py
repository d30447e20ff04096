"""The Push rules engine: pure Python, no Django (see ../shared/push-rules.md).

Typical use (more in docs/developing/engine.md)::

    from games.engine import GameState, deal_from_seed, verify
    first_dealer, decks = deal_from_seed(1)
    game = GameState(first_dealer)
    game.deal(decks[0])
    game.apply(game.legal_actions()[0])
    record = game.record()               # the game so far, as push-record/1
    GameState.from_record(record)        # the same game, replayed by the rules
    verify(record.dumps()).status

``BUILD`` says which build runs, ``"compiled"`` (mypyc) or ``"pure"``, and ``BUILD_REASON``
why (``build.py``).
"""

# First, before any module of the engine is imported: the build they are imported from.
from .build import choose as _choose_build

BUILD, BUILD_REASON = _choose_build(list(__path__))


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
from .deals import deal_mismatch
from .errors import IllegalActionError, MalformedRecordError
from .game import Deal, GameState, OnStep, Step, winner
from .generate import contracts, legal_actions, observed_legal_actions
from .melds import MeldSpec, Placed, TableMeld
from .play import Policy, deal_from_seed, play_game
from .record import ClaimedResult, HandRecord, Record, load_record
from .scoresheet import PACK_VALUE, SheetError, score_sheet_errors
from .state import (
    CONTRACTS,
    HANDS_PER_GAME,
    HandOutcome,
    HandState,
    Observation,
    dealer_of,
    hand_size,
    team_of,
)
from .verify import IllegalAt, Verdict, verify

__all__ = [
    "ALL_CARDS", "BUILD", "BUILD_REASON", "CONTRACTS", "HANDS_PER_GAME", "JOKER", "PACK_VALUE",
    "Action", "Card",
    "ClaimedResult", "Deal", "Discard", "GameState", "HandOutcome", "HandRecord", "HandState",
    "IllegalActionError", "IllegalAt", "LayContract", "LayMelds", "LayOff",
    "MalformedRecordError", "MeldSpec", "Observation", "OnStep", "Placed", "Policy", "Push",
    "Record", "SheetError", "Step", "Swap", "TableMeld", "Take", "Verdict", "action_to_json",
    "contracts", "deal_from_seed", "deal_mismatch", "dealer_of", "full_pack", "hand_size",
    "legal_actions", "load_record", "observed_legal_actions", "parse_action", "penalty",
    "play_game", "score_sheet_errors", "shuffled_pack", "team_of", "verify", "winner",
]
