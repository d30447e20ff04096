"""The search under ways (games/engine/skeletons.py): which cards may share a meld, the
fewest wilds a group needs, a group's shapes, and what the search pays for them.

Each of these only narrows what ``ways`` proposes (the engine checks every proposal), so a
mistake in them shows in ``ways`` as a way missing or as work wasted; these tests say
what each promises."""

from games.engine.cards import Card, parse_cards
from games.engine.melds import Kind, MeldSpec, build_meld
from games.engine.skeletons import (
    KINDS,
    Splits,
    Work,
    _coverable,
    _fewest_wilds,
    _partners,
    _shapes,
)
from games.engine.ways import _layoff_rows

SETS: frozenset[Kind] = frozenset({"set"})  # hands 1 and 4 (R3.2)
RUNS: frozenset[Kind] = frozenset({"run"})  # hands 3 and 5


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def partners(first: str, rest: str, kinds: frozenset[Kind] = KINDS) -> list[str]:
    return [" ".join(map(str, group)) for group in _partners(Card.parse(first), cards(rest),
                                                               kinds)]


def test_r5_2_r5_3_partners_are_its_rank_or_its_suit_each_rank_once_most_first() -> None:
    # a second 7H may join 7H in a set, not in a run; a run takes one 8H
    assert partners("7H", "7H 7S 8H 8H") == ["7H 7S", "7H", "7S", "8H", ""]
    # an ace stands at 1 and at 14, so a run may hold both aces (R5.3)
    assert partners("AH", "AH KH") == ["AH KH", "AH", "AH", "KH", ""]
    assert partners("3H", "AH AH") == ["AH AH", "AH", ""]


def test_r3_2_partners_are_only_for_the_kinds_of_meld_asked_for() -> None:
    assert partners("7H", "7S 8H", RUNS) == ["8H", ""]
    assert partners("7H", "7S 8H", SETS) == ["7S", ""]


def test_r5_1_the_fewest_wilds_that_make_a_group_a_meld() -> None:
    assert _fewest_wilds(cards("7H")) == 2
    assert _fewest_wilds(cards("7H 7S 7D 7C")) == 0
    assert _fewest_wilds(cards("7H 9H")) == 1  # 7H JK=8H 9H
    assert _fewest_wilds(cards("7H 9H JH")) == 2  # the holes at 8 and 10
    assert _fewest_wilds(cards("QH KH AH AH")) == 10  # an ace twice: all 14 places
    assert _fewest_wilds(cards("7H 7H 8H")) is None  # one 7H too many for a run
    assert _fewest_wilds(cards("7H 8S")) is None


def test_r5_3_shapes_are_only_of_one_suit_and_the_kinds_asked_for() -> None:
    assert list(_shapes(cards("7H 8S"), 1, KINDS, 0)) == []
    assert list(_shapes(cards("7H 8H"), 1, SETS, 0)) == []
    assert [s.kind for s in _shapes(cards("7H 8H"), 1, KINDS, 0)] == ["run", "run"]


def test_r5_3_a_run_may_fill_all_fourteen_places() -> None:
    shapes = list(_shapes(cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"), 0, KINDS, 0))
    assert shapes and {(s.kind, s.suit, s.low, len(s.row)) for s in shapes} == {
        ("run", "H", 1, 14)}


def test_coverable_asks_whether_so_many_melds_could_hold_the_cards() -> None:
    # each meld holds one rank (a set) or one suit (a run)
    assert _coverable(cards("7H 7S 8H"), 2, KINDS)
    assert not _coverable(cards("7H 7S 8D"), 1, KINDS)
    assert not _coverable(cards("7H 8H 9H"), 1, SETS)
    assert _coverable(cards("7H 8H 9H"), 1, RUNS)
    assert not _coverable(cards("7H 7S"), 1, RUNS)


def test_splittable_answers_for_the_number_of_melds_asked_for() -> None:
    splits = Splits(Work(1_000), KINDS, 0)
    assert splits.splittable(cards("7H 7S 7D"), 0, 1)
    assert not splits.splittable(cards("7H 7S 7D"), 0, 2)


def test_shapes_pay_a_unit_and_one_per_shape_found_once() -> None:
    work = Work(1_000)
    splits = Splits(work, KINDS, 0)
    found = splits.shapes(cards("7H 8H"), 1)  # JK=6H 7H 8H, 7H 8H JK=9H
    assert len(found) == 2 and work.spent == 1 + 2
    assert splits.shapes(cards("7H 8H"), 1) == found and work.spent == 3  # memoised


def test_r5_4_a_lay_off_offers_a_2_of_another_suit_only_as_a_wild_each_place_once() -> None:
    meld = build_meld(MeldSpec.parse("run(3H 4H 5H)"), meld_id=0, owner=1)

    def rows(text: str) -> list[list[str]]:
        return [[" ".join(map(str, row)) for row in family]
                for family in _layoff_rows(meld, list(cards(text)), Work(1_000))]

    assert rows("2S") == [["2S=6H"], ["2S=2H"]]
    assert rows("2H") == [["2H=6H"], [], ["2H"]]  # at its own place a 2H is natural
