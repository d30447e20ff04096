"""A hint's reason: why the strongest bot's move suits the hand, in one line of words.

Pure, and from the seat's :class:`~games.engine.Observation` only, like every bot: the
reason comes from the bots' own analysis (``contract.py``: how far the hand is from this
hand's contract, R7.1, and the naturals its plan builds on; ``evaluate.py``: whether the
discard brings the contract closer or can be played at once, R6.3). It names the move's
own cards and the cards the hand keeps, all in the seat's sight (its hand, the discard
pile, the table), never one it cannot see: a push names only the public discard, not the
stock card it sends on.

:func:`advise` gives an :class:`Advice`: an English template (marked for the catalogue
with ``gettext_noop``; the caller translates it), its values (card codes, counts) and the
hand, whose contract the caller words into ``%(contract)s``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.engine import (
    ALL_CARDS,
    Action,
    Card,
    Discard,
    LayContract,
    LayMelds,
    LayOff,
    Observation,
    Push,
    Swap,
    Take,
)
from games.engine.scoresheet import gettext_noop

from .contract import analyse, missing, plan_cards
from .evaluate import end_is_good, forms_meld
from .model import WILD, fast_meld, fits_any

TAKE_WILD = gettext_noop("Take %(card)s: a wild card fills a gap in any meld of "
                         "%(contract)s (R2.3, R6.3).")
TAKE_CLOSER = gettext_noop("Take %(card)s: it brings %(contract)s closer (cards missing: "
                           "%(before)s, then %(after)s); keep %(kept)s for it (R6.3, R7.1).")
TAKE_PLAYS = gettext_noop("Take %(card)s: your contract (%(contract)s) is down and it can "
                          "be played at once (R6.3, R7.3).")
TAKE_NO_END = gettext_noop("Take %(card)s: with fewer than two cards in the stock a push "
                           "would end the hand while your team holds the costlier cards "
                           "(R6.4); %(contract)s is still to be built.")
TAKE_PLAYED_OUT = gettext_noop("Take %(card)s: played out over likely deals, keeping it "
                               "did better for %(contract)s than a push (R6.3).")
PUSH_END = gettext_noop("Push: with fewer than two cards in the stock this ends the hand "
                        "now, while the other team likely holds more penalty points than "
                        "yours (R6.4, R9.1); the contract was %(contract)s.")
PUSH_DOWN = gettext_noop("Push: your contract (%(contract)s) is down and %(card)s cannot "
                         "be played at once; it goes to the left with the stock's top card "
                         "(R6.3).")
PUSH_KEEP = gettext_noop("Push: %(card)s does not bring %(contract)s closer (cards missing: "
                         "%(missing)s); keep %(kept)s for it (R6.3).")
PUSH_NOTHING = gettext_noop("Push: %(card)s does not bring %(contract)s closer (cards "
                            "missing: %(missing)s) (R6.3).")
PUSH_PLAYED_OUT = gettext_noop("Push: played out over likely deals, passing %(card)s on did "
                               "better for %(contract)s than taking it (R6.3).")
CONTRACT = gettext_noop("Lay down the contract, %(contract)s: %(cards)s (R7.1).")
MELD = gettext_noop("Lay down %(cards)s: your contract (%(contract)s) is down, and every "
                    "card laid down is one fewer to pay for if the hand ends (R7.3, R9.1).")
LAYOFF = gettext_noop("Lay off %(cards)s on meld %(meld)s: your contract (%(contract)s) is "
                      "down, and every card laid off is one fewer to pay for (R7.3, R9.1).")
SWAP = gettext_noop("Put %(card)s into meld %(meld)s for %(wild)s: the wild is then yours to "
                    "play this turn (R7.4); your contract (%(contract)s) is down.")
DISCARD_DOWN = gettext_noop("Discard %(card)s: your contract (%(contract)s) is down, and it "
                            "connects least with the rest of your hand (R6.6).")
DISCARD_KEEP = gettext_noop("Discard %(card)s: it does nothing for %(contract)s; keep "
                            "%(kept)s for it (cards missing: %(missing)s, R7.1).")
DISCARD_NOTHING = gettext_noop("Discard %(card)s: nothing in your hand builds toward "
                               "%(contract)s yet, and it connects least (R6.6, R7.1).")
DISCARD_PLAYED_OUT = gettext_noop("Discard %(card)s: played out over likely deals, letting it "
                                  "go did best, though %(contract)s could use it; keep "
                                  "%(kept)s (R6.6).")

#: Every template, for the tests and the catalogue's check.
TEMPLATES = (TAKE_WILD, TAKE_CLOSER, TAKE_PLAYS, TAKE_NO_END, TAKE_PLAYED_OUT, PUSH_END,
             PUSH_DOWN, PUSH_KEEP, PUSH_NOTHING, PUSH_PLAYED_OUT, CONTRACT, MELD, LAYOFF,
             SWAP, DISCARD_DOWN, DISCARD_KEEP, DISCARD_NOTHING, DISCARD_PLAYED_OUT)


Values = dict[str, str | int]


@dataclass(frozen=True)
class Advice:
    """Why ``action`` suits the hand: ``template`` (English, one of :data:`TEMPLATES`) with
    ``values`` to put in (cards as space-separated codes, counts) besides ``contract``,
    the contract of hand ``hand_no`` (R3.2), which the caller words."""

    action: Action
    template: str
    values: Mapping[str, str | int]
    hand_no: int


def advise(obs: Observation, legal: Sequence[Action], chosen: Action) -> Advice:
    """The reason ``chosen``, one of ``legal`` (the seat's legal actions), suits the hand
    of ``obs``; ``ValueError`` when it is not one of them."""
    if chosen not in legal:
        raise ValueError(f"{chosen} is not among the seat's legal actions")
    down = obs.contract_down[obs.seat]
    template, values = (_draw(obs, chosen, down) if isinstance(chosen, Take | Push)
                        else _play(obs, chosen, down))
    return Advice(chosen, template, values, obs.hand_no)


def _draw(obs: Observation, chosen: Take | Push, down: bool) -> tuple[str, Values]:
    """Take or push (R6.3), as the greedy judgement (``evaluate.want_take``) sees it."""
    hand = [c.index for c in obs.hand]
    top = obs.discard[-1]
    card: Values = {"card": top.code}
    playable = down and (fits_any(top.index, [fast_meld(m) for m in obs.melds])
                         or forms_meld(top.index, hand))
    before = missing(obs.hand_no, hand)
    after = missing(obs.hand_no, [*hand, top.index])
    ending = obs.stock_size < 2 and not end_is_good(hand, obs.seat, obs.hand_sizes)
    if isinstance(chosen, Take):
        if top.is_wild:
            return TAKE_WILD, card
        if down and playable:
            return TAKE_PLAYS, card
        if not down and after < before:
            return TAKE_CLOSER, {**card, "before": before, "after": after,
                                 "kept": _kept(obs.hand_no, [*hand, top.index])}
        if obs.stock_size < 2 and ending:
            return TAKE_NO_END, card
        return TAKE_PLAYED_OUT, card
    if obs.stock_size < 2:
        return PUSH_END, card
    if down:
        return (PUSH_PLAYED_OUT if playable or top.is_wild else PUSH_DOWN), card
    if top.is_wild or after < before:
        return PUSH_PLAYED_OUT, card
    kept = _kept(obs.hand_no, hand)
    return (PUSH_KEEP if kept else PUSH_NOTHING), {**card, "missing": before, "kept": kept}


def _play(obs: Observation, chosen: Action, down: bool) -> tuple[str, Values]:
    """A meld action (R7) or the discard (R6.6)."""
    if isinstance(chosen, LayContract):
        return CONTRACT, {"cards": _codes(p.card for m in chosen.melds for p in m.cards)}
    if isinstance(chosen, LayMelds):
        return MELD, {"cards": _codes(p.card for m in chosen.melds for p in m.cards)}
    if isinstance(chosen, LayOff):
        return LAYOFF, {"cards": _codes(p.card for p in chosen.cards), "meld": chosen.meld}
    if isinstance(chosen, Swap):
        return SWAP, {"card": chosen.card.code, "wild": chosen.wild.code,
                      "meld": chosen.meld}
    assert isinstance(chosen, Discard)
    card: Values = {"card": chosen.card.code}
    if down:
        return DISCARD_DOWN, card
    hand = [c.index for c in obs.hand]
    kept = _kept(obs.hand_no, hand)
    if not kept:
        return DISCARD_NOTHING, card
    if chosen.card.code in kept.split():
        rest = list(hand)
        rest.remove(chosen.card.index)
        return DISCARD_PLAYED_OUT, {**card, "kept": _kept(obs.hand_no, rest) or kept}
    return DISCARD_KEEP, {**card, "kept": kept, "missing": missing(obs.hand_no, hand)}


def _kept(hand_no: int, hand: list[int]) -> str:
    """The cards of ``hand`` its contract plan builds on (``contract.plan_cards``: the
    naturals of the sets and runs to build) and its wilds, as codes ("" for none)."""
    st, plan = analyse(hand_no, hand)
    wanted = plan_cards(hand_no, st, plan)
    kept: list[Card] = []
    for c in sorted(set(hand)):
        copies = hand.count(c)
        kept += [ALL_CARDS[c]] * (copies if WILD[c] else min(copies, wanted.get(c, 0)))
    return _codes(kept)


def _codes(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in sorted(cards))
