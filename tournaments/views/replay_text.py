"""The words the replay script puts together (translated here, so the script has none)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def replay_messages(team_names: list[str], seat_names: list[str]) -> dict[str, Any]:
    """Message templates with ``{name}`` placeholders for ``static/tournaments/replay.js``,
    and the names of the teams (A, B) and of the seats (0-3)."""
    return {
        "teams": team_names,
        "players": seat_names,
        "deal": _("Hand {hand}: {dealer} deals {size} cards each. Contract: {contract}."),
        "take": _("{player} takes {card} from the discard pile."),
        "push": _("{player} pushes: {left} gets {card} and {stock_card} from the stock; "
                  "{player} draws {drew}."),
        "push_end": _("{player} pushes with fewer than two cards in the stock: the stock is "
                      "exhausted."),
        "discard": _("{player} discards {card}."),
        "contract": _("{player} lays down the contract: {melds}."),
        "meld": _("{player} lays down {melds}."),
        "layoff": _("{player} lays off {cards} on meld {meld}."),
        "swap": _("{player} puts {card} into meld {meld} and takes out {wild}."),
        "out": _("{player} goes out. Hand score: {team_a} {score_a}, {team_b} {score_b}."),
        "stock_end": _("Nobody went out. Hand score: {team_a} {score_a}, {team_b} {score_b}."),
        "set": _("set"),
        "run": _("run"),
        "contracts": {"1": _("two sets of 3"), "2": _("a set of 3 and a run of 4"),
                      "3": _("two runs of 4"), "4": _("three sets of 3"),
                      "5": _("two runs of 5")},
        "ranks": {"A": _("ace"), "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7",
                  "8": "8", "9": "9", "T": "10", "J": _("jack"), "Q": _("queen"),
                  "K": _("king")},
        "suits": {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")},
        "card": _("{rank} of {suit}"),
        "joker": _("joker"),
        "wild_as": _("{card} standing for {what}"),
        "position": _("Hand {hand} of {hands}, action {action} of {actions}"),
        "deal_position": _("Hand {hand} of {hands}, the deal"),
        "cards_one": _("1 card"),
        "cards_other": _("{n} cards"),
        "contract_down": _("contract down"),
        "dealer": _("dealer"),
        "to_move": _("to move"),
        "empty": _("empty"),
        "no_melds": _("No melds on the table yet."),
        "meld_owner": _("meld {id}, {player}"),
        "waiting": _("waiting to be played: {cards}"),
        "and": _(" and "),
    }
