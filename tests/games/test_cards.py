"""Cards, the pack, notation and penalty values (R2)."""

from collections import Counter

import pytest

from games.engine import (
    ALL_CARDS,
    JOKER,
    Card,
    HandState,
    full_pack,
    load_record,
    penalty,
    verify,
)
from games.engine.cards import cards_str, parse_cards, shuffled_pack
from tests.games.packs import cards, record, stack


def test_cards_are_interned_and_immutable() -> None:
    assert Card.parse("7H") is Card.parse("7H")
    assert Card.parse("JK") is JOKER
    with pytest.raises(AttributeError):
        Card.parse("7H").rank = 8


def test_r2_1_the_pack_is_every_rank_suit_pair_twice_and_four_jokers() -> None:
    pack = full_pack()
    counts = Counter(card.code for card in pack)

    assert len(pack) == 108
    assert counts["JK"] == 4
    assert len(counts) == 53
    assert all(n == 2 for code, n in counts.items() if code != "JK")
    assert {c.code for c in ALL_CARDS} == set(counts)


def test_r2_1_a_shuffled_pack_is_still_the_pack() -> None:
    import random

    assert Counter(shuffled_pack(random.Random(7))) == Counter(full_pack())


@pytest.mark.parametrize("change", ["drop", "extra", "duplicate"])
def test_r2_1_a_deal_refuses_a_pack_that_is_not_the_108_cards(change: str) -> None:
    deck = stack(3, 1)
    if change == "drop":
        deck.pop()
    elif change == "extra":
        deck.append(Card.parse("7H"))
    else:
        deck[0] = deck[1] if deck[1] is not deck[0] else deck[2]

    with pytest.raises(ValueError, match="108"):
        HandState.deal(1, 3, deck)


def test_r2_2_codes_parse_and_print_canonically() -> None:
    for code in ("AS", "7H", "TD", "JC", "QS", "KH", "2D", "JK"):
        assert str(Card.parse(code)) == code
    assert Card.parse("TS").rank == 10 and Card.parse("TS").suit == "S"
    assert Card.parse("AC").rank == 1


def test_r2_2_input_may_write_ten_as_10_and_output_is_canonical() -> None:
    assert Card.parse("10H") is Card.parse("TH")
    assert str(Card.parse("10H")) == "TH"


@pytest.mark.parametrize("code", ["7h", "jk", "1H", "11H", "7X", "ZZ", "", "J", "7HH", "10"])
def test_r2_2_anything_else_is_not_a_card(code: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(code)


def test_r2_2_a_record_written_with_10_comes_back_canonical() -> None:
    deck = stack(3, 1, hands={0: "TS 3C 4C 5C 6C 9D"}, upcard="TH")
    data = record(3, [(deck, ["0 push"])])
    i = 24  # the upcard of hand 1
    data["hands"][0]["deck"][i] = "10H"
    data["hands"][0]["actions"].append({"seat": 0, "do": "discard", "card": "10S"})

    loaded = load_record(data).to_json()
    assert loaded["hands"][0]["deck"][i] == "TH"
    assert loaded["hands"][0]["actions"][1] == {"seat": 0, "do": "discard", "card": "TS"}
    assert "10" not in load_record(data).dumps()
    assert verify(data).status == "incomplete"


def test_r2_3_jokers_and_every_two_are_wild_and_nothing_else() -> None:
    wild = {c.code for c in ALL_CARDS if c.is_wild}

    assert wild == {"JK", "2S", "2H", "2D", "2C"}
    assert not Card.parse("3H").is_wild
    assert not Card.parse("AS").is_wild
    assert JOKER.is_joker and not Card.parse("2H").is_joker


@pytest.mark.parametrize(("code", "value"), [
    ("AS", 15), ("KH", 10), ("QD", 10), ("JC", 10), ("TS", 10),
    ("9H", 5), ("8D", 5), ("7C", 5), ("6S", 5), ("5H", 5), ("4D", 5), ("3C", 5),
    ("2S", 20), ("2H", 20), ("JK", 20),
])
def test_r2_4_penalty_values(code: str, value: int) -> None:
    assert Card.parse(code).value == value
    assert penalty([Card.parse(code)]) == value


def test_r2_4_penalty_of_a_hand_is_the_sum_and_of_the_pack_is_fixed() -> None:
    assert penalty(cards("AS KH 9D 2C JK")) == 15 + 10 + 5 + 20 + 20
    assert penalty([]) == 0
    # 8 aces, 32 tens-to-kings, 56 threes-to-nines, 8 twos and 4 jokers
    assert penalty(full_pack()) == 8 * 15 + 32 * 10 + 56 * 5 + 12 * 20


#: R2.4 by rank character: the penalty value of each card of that rank.
VALUES = {"A": 15, "K": 10, "Q": 10, "J": 10, "T": 10, "9": 5, "8": 5, "7": 5, "6": 5,
          "5": 5, "4": 5, "3": 5, "2": 20}


def test_r2_every_card_is_built_from_its_rank_and_suit() -> None:
    """The 53 cards are built once, when the engine is imported (mutation testing cannot
    switch that code, so this checks everything it built): code (R2.2), rank and suit,
    its index, its penalty (R2.4), whether it is wild (R2.3) and its run places (R5.3)."""
    assert len(ALL_CARDS) == 53 and ALL_CARDS[52] is JOKER
    for i, card in enumerate(ALL_CARDS[:52]):
        suit, rank = "SHDC"[i // 13], i % 13 + 1
        char = "A23456789TJQK"[rank - 1]
        assert (card.code, card.rank, card.suit, card.index) == (char + suit, rank, suit, i)
        assert card.value == VALUES[char], card
        assert (card.is_wild, card.is_joker) == (rank == 2, False), card
        places = {1, 14} if rank == 1 else {rank}
        assert card.run_bits == sum(1 << p for p in places), card
        assert Card.parse(card.code) is card and card.code == str(card)
    assert (JOKER.code, JOKER.rank, JOKER.suit, JOKER.index) == ("JK", 0, "", 52)
    assert (JOKER.value, JOKER.is_wild, JOKER.is_joker, JOKER.run_bits) == (20, True, True, 0)


def test_r5_3_card_of_a_run_place_is_the_natural_card_there_and_14_is_the_ace() -> None:
    assert Card.of(14, "H") is Card.parse("AH")
    assert Card.of(1, "H") is Card.parse("AH")
    assert Card.of(7, "S") is Card.parse("7S")
    assert Card.of(10, "D") is Card.parse("TD")
    assert Card.of(13, "C") is Card.parse("KC")


def test_cards_sort_by_index_and_no_card_is_below_itself() -> None:
    seven = Card.parse("7H")
    assert sorted(cards("JK KC 7H AS 7H 2D")) == cards("AS 7H 7H 2D KC JK")
    assert not seven < seven  # two copies of a card are one card (R2.1)
    assert Card.parse("AS") < seven and not seven < Card.parse("AS")


def test_cards_are_written_as_their_codes_with_a_space_between() -> None:
    assert cards_str(parse_cards("7H JK TS 2C")) == "7H JK TS 2C"
    assert cards_str([]) == ""
