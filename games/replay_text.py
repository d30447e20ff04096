"""The replay's words: those the replay script puts together (translated here, so the
script has none), and the same words put together here, for reading the game without
JavaScript. The game's own, so a match page and a live table's replay say the same."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from games.engine.state import CONTRACTS, hand_size
from games.replay import replay_frames
from games.vocabulary import contract_words, meld_kinds, rank_names, suit_names

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def replay_messages(team_names: list[str], seat_names: list[str]) -> dict[str, Any]:
    """Message templates with ``{name}`` placeholders for ``games/static/games/replay.js``,
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
        **meld_kinds(),
        "contracts": {str(hand_no): contract_words(hand_no) for hand_no in CONTRACTS},
        "hand_sizes": {str(hand_no): hand_size(hand_no) for hand_no in CONTRACTS},
        "ranks": rank_names(),
        "suits": suit_names(),
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
        "loading": _("Loading the replay…"),
        "failed": _("The replay could not be loaded. The game in words, below, has every "
                    "action."),
    }


def fill(template: str, values: dict[str, Any]) -> str:
    """``"{player} takes {card}"`` with the values put in (a placeholder without a value
    stays as it is), as the replay script's ``text()`` does."""
    return PLACEHOLDER.sub(lambda found: str(values.get(found.group(1), found.group(0))),
                           template)


def card_words(code: str, messages: dict[str, Any]) -> str:
    """A card as written in a record, in words: ``7H`` "7 of hearts", ``JK`` "joker", a wild
    in a meld ``2C=TS`` "2 of clubs standing for 10 of spades"."""
    base, _sep, stands_for = code.partition("=")
    words = _card_name(base[0] if base != "JK" else "JK", base[1:] if base != "JK" else "",
                       messages)
    if stands_for:
        what = _card_name(stands_for[0], stands_for[1:], messages)
        words = fill(messages["wild_as"], {"card": words, "what": what})
    return words


def _card_name(rank: str, suit: str, messages: dict[str, Any]) -> str:
    if rank == "JK":
        return str(messages["joker"])
    name = messages["ranks"].get(rank, rank)
    return fill(messages["card"], {"rank": name, "suit": messages["suits"][suit]}) if suit \
        else str(name)


def _melds_words(melds: list[dict[str, Any]], messages: dict[str, Any]) -> str:
    return str(messages["and"]).join(
        f"{messages[meld['kind']]} {', '.join(card_words(c, messages) for c in meld['cards'])}"
        for meld in melds)


def outcome_words(end: dict[str, Any], messages: dict[str, Any]) -> str:
    """How a hand ended: who went out, and the hand's score of each team."""
    values = {"team_a": messages["teams"][0], "team_b": messages["teams"][1],
              "score_a": end["scores"][0], "score_b": end["scores"][1]}
    if end["out_seat"] is None:
        return fill(messages["stock_end"], values)
    return fill(messages["out"], {**values, "player": messages["players"][end["out_seat"]]})


def frame_words(hand: dict[str, Any], frame: dict[str, Any], messages: dict[str, Any]) -> str:
    """One frame of :func:`games.replay.replay_frames` in words: the deal, or the
    action just played (and the hand's end, when it ended it)."""
    players, act = messages["players"], frame["act"]
    if act is None:
        return fill(messages["deal"], {
            "hand": hand["hand"], "dealer": players[hand["dealer"]],
            "size": hand_size(hand["hand"]),
            "contract": messages["contracts"][str(hand["hand"])]})
    kind, seat = act["do"], act["seat"]
    template, values = messages[kind], {"player": players[seat]}
    if kind in ("take", "discard"):
        values["card"] = card_words(act["card"], messages)
    elif kind == "push" and not act.get("card"):
        template = messages["push_end"]
    elif kind == "push":
        values.update(left=players[(seat + 1) % 4], card=card_words(act["card"], messages),
                      stock_card=card_words(act["stock_card"], messages)
                      if act.get("stock_card") else "",
                      drew=card_words(act["drew"], messages) if act.get("drew") else "")
    elif kind in ("contract", "meld"):
        values["melds"] = _melds_words(act["melds"], messages)
    elif kind == "layoff":
        values.update(cards=", ".join(card_words(c, messages) for c in act["cards"]),
                      meld=act["meld"])
    elif kind == "swap":
        values.update(card=card_words(act["card"], messages),
                      wild=card_words(act["wild"], messages), meld=act["meld"])
    words = fill(template, values)
    return f"{words} {outcome_words(frame['end'], messages)}" if frame["end"] else words


def replay_view(record: Any, team_names: list[str],
                seats: list[tuple[str, bool]]) -> dict[str, Any]:
    """What ``templates/games/_replay.html`` shows of a game record: the seats (name,
    bot or not, team) for the script's table, every hand in words (the deal, each action,
    how it ended) for reading without JavaScript, and the script's words (``messages``).
    ``team_names`` are teams A (seats 0 and 2) and B; ``seats`` are ``(name, is_bot)``,
    seat 0 first. The frames themselves are fetched by the script (``replay_data``)."""
    messages = replay_messages(team_names, [name for name, _bot in seats])
    hands = []
    for hand in replay_frames(record)["hands"]:
        deal, *actions = [frame_words(hand, frame, messages) for frame in hand["frames"]]
        end = hand["frames"][-1]["end"]
        hands.append({"hand": hand["hand"], "deal": deal, "actions": actions,
                      "outcome": outcome_words(end, messages) if end else ""})
    return {"seats": [{"position": position, "name": name, "is_bot": bot,
                       "team": team_names[position % 2]}
                      for position, (name, bot) in enumerate(seats)],
            "hands": hands, "messages": messages}
