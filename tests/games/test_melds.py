"""Melds: sets, runs, wilds, natural 2s and declarations (R5).

Each meld is laid as part of a contract from a stacked hand: sets with a set of
queens in hand 1 (two sets of 3), runs with 8D-JD in hand 3 (two runs of 4).
"""

import pytest

from games.engine import HandState, IllegalActionError, MeldSpec, Placed, TableMeld
from games.engine.melds import build_meld
from tests.games.packs import deal, play

OTHER = {"set": (1, "set(QS QD QC)"), "run": (3, "run(8D 9D TD JD)")}


def lay(meld: str) -> HandState:
    """Seat 0 holds exactly the cards of ``meld`` and of the other contract meld, pushes,
    and lays both down as its contract."""
    kind = meld[:3]
    hand_no, other = OTHER[kind]
    codes = [p.card.code for spec in (meld, other) for p in MeldSpec.parse(spec).cards]
    state = deal(hand_no, 3, hands={0: " ".join(codes)}, upcard="9S", stock="9C 9H")
    return play(state, "0 push", f"0 contract {meld} {other}")


def rule_of(meld: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        lay(meld)
    # the same answer from the meld alone
    with pytest.raises(IllegalActionError) as alone:
        build_meld(MeldSpec.parse(meld), meld_id=0, owner=0)
    assert alone.value.rule == err.value.rule
    return err.value.rule


def laid(meld: str) -> TableMeld:
    state = lay(meld)
    assert state.contract_down[0]
    return state.melds[0]


def test_r5_1_a_meld_needs_three_cards() -> None:
    for text in ("set(7H 7S)", "run(4H 5H)", "set(7H)", "set()"):
        with pytest.raises(IllegalActionError) as err:
            build_meld(MeldSpec.parse(text), meld_id=0, owner=0)
        assert err.value.rule == "R5.1"
    assert build_meld(MeldSpec.parse("set(7H 7S 7D)"), meld_id=0, owner=0).rank == 7


@pytest.mark.parametrize("meld", ["set(7H 7S 7D)", "set(7H 7H 7S)", "set(KC KC KD)"])
def test_r5_2_a_set_is_one_rank_and_suits_may_repeat(meld: str) -> None:
    table = laid(meld)
    assert table.kind == "set" and str(table.spec()) == meld


@pytest.mark.parametrize("meld", ["set(7H 7S 8D)", "set(7H 8H 9H)", "set(AS AH KS)"])
def test_r5_2_a_set_of_mixed_ranks_is_illegal(meld: str) -> None:
    assert rule_of(meld) == "R5.2"


def test_r5_2_a_wild_in_a_set_stands_for_the_sets_rank() -> None:
    table = laid("set(7H 7S JK=7)")
    assert table.rank == 7 and table.cards[2] == Placed.parse("JK=7")
    assert rule_of("set(7H 7S JK=8)") == "R5.2"


@pytest.mark.parametrize(("meld", "low", "high"), [
    ("run(4H 5H 6H 7H)", 4, 7),
    ("run(AH JK=2H 3H 4H)", 1, 4),
    ("run(JH QH KH AH)", 11, 14),
    ("run(TH JH QH KH)", 10, 13),
])
def test_r5_3_a_run_is_one_suit_in_order_ace_low_or_high(meld: str, low: int, high: int) -> None:
    table = laid(meld)
    assert (table.kind, table.suit, table.low, table.high) == ("run", "H", low, high)


@pytest.mark.parametrize("meld", [
    "run(KH AH JK=2H 3H)",  # no wrap-around
    "run(QH KH AH JK=2H)",
    "run(4H 5H 7H 8H)",  # a gap
    "run(7H 6H 5H 4H)",  # not ascending
    "run(4H 5H 6S 7H)",  # two suits
    "run(7H 7S 7D 7C)",  # a set declared as a run
])
def test_r5_3_a_broken_sequence_or_two_suits_is_not_a_run(meld: str) -> None:
    assert rule_of(meld) == "R5.3"


def test_r5_3_a_run_is_at_most_fourteen_cards_from_ace_low_to_ace_high() -> None:
    longest = MeldSpec.parse("run(AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS)")
    table = build_meld(longest, meld_id=0, owner=0)
    assert (table.low, table.high, len(table.cards)) == (1, 14, 14)
    with pytest.raises(IllegalActionError) as err:
        build_meld(MeldSpec.parse(str(longest)[:-1] + " JK=2S)"), meld_id=0, owner=0)
    assert err.value.rule == "R5.3"


@pytest.mark.parametrize("meld", ["set(2H 2S 2C)", "set(2H 2H JK=2)", "run(AH 2H 3H 4H)",
                                  "run(2H 3H 4H 5H)"])
def test_r5_4_a_two_is_natural_in_a_set_of_twos_or_at_its_own_run_position(meld: str) -> None:
    table = laid(meld)
    assert all(p.rank is None for p in table.cards if p.card.rank == 2)


@pytest.mark.parametrize("meld", ["set(7H 7S 2C)", "set(7H 2C 2D)", "run(4H 5H 2H 7H)",
                                  "run(3H 4H 5H 2H)", "run(3H 4H 5H 2C)", "run(2C 3H 4H 5H)"])
def test_r5_4_a_two_anywhere_else_is_a_wild_and_written_plainly_is_illegal(meld: str) -> None:
    assert rule_of(meld) == "R5.4"


@pytest.mark.parametrize("meld", ["set(7H 7S 2C=7)", "run(4H 5H 2C=6H 7H)",
                                  "run(4H 5H 2H=6H 7H)", "run(3H 4H 5H 2H=6H)"])
def test_r5_4_a_two_used_as_a_wild_declares_what_it_stands_for(meld: str) -> None:
    table = laid(meld)
    assert any(p.card.rank == 2 and p.rank is not None for p in table.cards)


@pytest.mark.parametrize("meld", ["set(JK=7 JK=7 2C=7)", "set(2C=K 2D=K JK=K)",
                                  "run(JK=4H JK=5H 2C=6H 2D=7H)"])
def test_r5_5_a_meld_of_wilds_only_is_illegal(meld: str) -> None:
    assert rule_of(meld) == "R5.5"


@pytest.mark.parametrize("meld", ["set(7H JK=7 2C=7)", "run(JK=JH JK=QH 2C=KH AH)"])
def test_r5_5_one_natural_card_is_enough(meld: str) -> None:
    assert laid(meld).kind == meld[:3]


@pytest.mark.parametrize(("meld", "form"), [
    ("set(7H 7S JK)", "a joker alone"),
    ("run(4H 5H JK 7H)", "a joker alone"),
    ("set(7H 7S=7 7D)", "a natural card with a declaration"),
    ("run(4H 5H 6H=6H 7H)", "a natural card with a declaration"),
    ("run(AH 2H=2H 3H 4H)", "a 2 declared as the very card it is"),
    ("set(2H 2S 2C=2)", "a 2 declared as a 2 in a set of 2s"),
    ("set(7H 7S JK=7H)", "a card declared in a set"),
    ("run(4H 5H JK=6 7H)", "a rank declared in a run"),
])
def test_r5_6_illegal_declarations(meld: str, form: str) -> None:
    assert rule_of(meld) == "R5.6", form


def test_r5_6_declarations_round_trip_in_canonical_form() -> None:
    assert str(Placed.parse("2C=10S")) == "2C=TS"
    assert str(Placed.parse("JK=A")) == "JK=A"
    assert str(MeldSpec.parse("run(9H 10H JK=JH)")) == "run(9H TH JK=JH)"


@pytest.mark.parametrize("text", ["JK=", "ZZ", "7h", "jk=7", "JK=7X", "JK=1", "JK=7HH", "=7",
                                  "7H=", "JK==7"])
def test_r5_6_broken_syntax_is_not_a_declaration_at_all(text: str) -> None:
    with pytest.raises(ValueError) as err:
        Placed.parse(text)
    assert not isinstance(err.value, IllegalActionError)


def test_r2_3_only_a_joker_or_a_two_may_stand_for_another_card() -> None:
    assert laid("set(7H 7S 2C=7)").cards[2] == Placed.parse("2C=7")
    assert laid("set(7H 7S JK=7)").cards[2] == Placed.parse("JK=7")
    assert rule_of("set(7H 7S 3C=7)") == "R5.6"
    assert rule_of("run(4H 5H 9C=6H 7H)") == "R5.6"


@pytest.mark.parametrize("meld", ["set(7H JK=7 JK=7 2C=7 2D=7)", "run(JK=TH JK=JH JK=QH 2C=KH AH)",
                                  "set(2H JK=2 JK=2 JK=2)"])
def test_r5_7_no_limit_on_wilds_beyond_one_natural(meld: str) -> None:
    table = build_meld(MeldSpec.parse(meld), meld_id=0, owner=0)
    assert str(table.spec()) == meld


@pytest.mark.parametrize(("meld", "reason"), [
    ("set(7H 7S JK)", "R5.6: JK: a joker must declare the rank it stands for"),
    ("set(7H 7S 7D=7)", "R5.6: 7D=7: a natural card takes no declaration"),
    ("run(4H 5H JK=6)", "R5.6: JK=6: a wild in a run declares a card, not a rank"),
    ("run(4H 5H 2C 7H)", "R5.4: 2C is a wild here and must declare what it stands for"),
])
def test_r5_4_r5_6_a_refused_declaration_names_the_card_and_what_is_wrong(
        meld: str, reason: str) -> None:
    with pytest.raises(IllegalActionError) as err:
        build_meld(MeldSpec.parse(meld), meld_id=0, owner=0)
    assert str(err.value) == reason


@pytest.mark.parametrize("text", ["pair(7H 7S)", "set(7H 7S", "7H 7S 7D"])
def test_a_meld_that_is_not_set_or_run_in_brackets_is_malformed(text: str) -> None:
    with pytest.raises(ValueError) as err:
        MeldSpec.parse(text)
    assert str(err.value) == f"malformed meld {text!r}"


@pytest.mark.parametrize("card", ["7X", "JK=", "7H=7HH", "=7"])
def test_a_malformed_card_in_a_meld_is_named(card: str) -> None:
    with pytest.raises(ValueError) as err:
        MeldSpec.parse(f"set(7S 7D {card})")
    assert str(err.value) == f"malformed meld card {card!r}"
