"""The words of a live table's page: seat and team names, and the message templates its
script puts together (translated here, so the script has none of its own). The action
wording is the replay's (games/replay_text.py), the same as a match page's; this adds what
only a table in play says."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.replay_text import replay_messages

from .naming import SeatName


def seat_names(seats: Sequence[SeatName], viewer: int | None) -> list[str]:
    """Who sits where, as the page names them: a person by name (a bot playing for them
    too: its badge says so); a bot of its own by its place from the viewer's seat (partner,
    left or right opponent), or for a spectator by seat."""
    roles = {2: _("Partner"), 1: _("Left opponent"), 3: _("Right opponent")}
    names = []
    for place in seats:
        if place.name:
            names.append(place.name)
        elif viewer is not None:
            names.append(str(roles[(place.seat - viewer) % 4]))
        else:
            names.append(_("Bot in seat %(seat)s") % {"seat": place.seat})
    return names


def team_names(viewer: int | None, named: Sequence[str] = ()) -> list[str]:
    """Team 0 (seats 0 and 2) and team 1 (seats 1 and 3), R1.1: by the names the table's
    app gave them, else as the viewer sees them."""
    if len(named) == 2:
        return list(named)
    if viewer is None:
        return [_("Seats 0 and 2"), _("Seats 1 and 3")]
    mine, theirs = _("Your team"), _("Opponents")
    return [mine, theirs] if viewer % 2 == 0 else [theirs, mine]


def table_messages(teams: list[str], players: list[str]) -> dict[str, Any]:
    """The replay's messages plus the table's own, for ``static/live/table.js``."""
    return {
        **replay_messages(teams, players),
        "push_public": _("{player} pushes: {left} gets {card} and a card from the stock."),
        "push_private": _("{player} pushes: {left} gets {card} and {stock_card} from the "
                          "stock."),
        "your_turn_draw": _("Your turn: take the top discard or push."),
        "your_turn_play": _("Your turn: lay down, lay off or swap if you can, then discard "
                            "one card."),
        "your_turn_pending": _("Your turn: play the freed wild {cards} into another meld now "
                               "(R7.4)."),
        "waiting_for": _("{player} to move."),
        "game_over": _("The game is over."),
        "table_ended": _("The table was ended before the game finished."),
        "won": _("{team} won the game, {won} to {lost}."),
        "drawn": _("Drawn game, {score_a} to {score_b}."),
        "no_fit_contract": _("The selected cards don't make this hand's contract "
                             "({contract}) in any legal way."),
        "no_fit_meld": _("The selected cards don't make a legal meld."),
        "no_fit_layoff": _("The selected cards can't go on meld {meld}."),
        "choose_way": _("The selection fits in more than one way. Choose one:"),
        "way_contract": _("Lay down the contract: {melds}"),
        "way_meld": _("Lay down {melds}"),
        "way_layoff": _("Lay off {cards} on meld {meld}"),
        "way_swap": _("Put {card} into meld {meld} and take out {wild}"),
        "refused": _("Refused ({rule}): {message}"),
        "refused_plain": _("Refused: {message}"),
        "connecting": _("Connecting to the table…"),
        "reconnecting": _("The connection was lost; reconnecting…"),
        "reserve": _("reserve {time}"),
        "substitute": _("bot playing for now"),
        "substitute_pinned": _("bot for the rest of the game"),
        "director_says": _("From the director: {message}"),
        "played_by_bot": _("(played by a bot)"),
        "card_taken": _("{card}, taken this turn"),
        "freed_wild": _("{card}, freed: play it now"),
        "meld_button": _("Meld {id}, {kind}: {cards}"),
        "melds_of": _("Melds by {player}"),
        "you": _("you"),
        "bot": _("bot"),
        "down_list": _("Contract down: {players}"),
        "down_none": _("Nobody has laid their contract yet."),
        "hand_no": _("Hand {hand} of {hands}"),
        "selection": _("Selected: {cards}"),
        "selection_none": _("No cards selected."),
    }
