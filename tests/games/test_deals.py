"""deal_mismatch: whether a record was played on given deals, naming the first
hand whose pack differs and never the cards."""

from __future__ import annotations

from dataclasses import replace

from games.bots import make_bot
from games.engine import Record, deal_from_seed, deal_mismatch, play_game


def _played(seed: int) -> Record:
    return play_game([make_bot("random", seat) for seat in range(4)], *deal_from_seed(seed))


def test_a_record_on_its_own_deals_matches() -> None:
    assert deal_mismatch(_played(3), *deal_from_seed(3)) is None


def test_a_record_of_other_deals_names_the_first_hand_whose_pack_differs() -> None:
    first_dealer, decks = deal_from_seed(3)
    other = deal_from_seed(4)[1]
    mismatch = deal_mismatch(_played(3), first_dealer, [*decks[:2], other[2], *decks[3:]])
    assert mismatch is not None and mismatch.hand == 3
    assert mismatch.located() == ("hand 3: the pack is not the one this match was dealt: a "
                                  "record must be played on its match's own deals (R4.1)")
    assert all(card.code not in mismatch.located().split() for card in other[2])


def test_the_packs_are_compared_before_the_first_dealer() -> None:
    record = _played(3)
    first_dealer, decks = deal_from_seed(3)
    moved = replace(record, first_dealer=(first_dealer + 1) % 4)
    assert deal_mismatch(moved, *deal_from_seed(4)).hand == 1  # type: ignore[union-attr]
    mismatch = deal_mismatch(moved, first_dealer, decks)
    assert mismatch is not None and mismatch.hand is None
    assert mismatch.located() == (f"the first dealer is seat {(first_dealer + 1) % 4}, not the "
                                  "seat this match's deals name (R3.3)")


def test_a_game_still_being_played_matches_the_deals_of_its_hands_so_far() -> None:
    record = _played(3)
    first_dealer, decks = deal_from_seed(3)
    assert len(decks) == 5
    assert deal_mismatch(replace(record, hands=record.hands[:2]), first_dealer, decks) is None
    assert deal_mismatch(replace(record, hands=()), first_dealer, decks) is None
