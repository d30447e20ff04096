"""The words of a live table's clock (``static/live/status.js``, ``clock.js``) and of its
ways out (``ending.js``: resigning, leaving, the rematch), merged into the page's messages
with ``texts``'s, translated here so the scripts hold no word of their own."""

from __future__ import annotations

from django.utils.translation import gettext as _


def exit_messages() -> dict[str, str]:
    return {
        # the turn's own countdown and the reserve, apart
        "clock_turn": _("Turn {time}"),
        "clock_reserve": _("Reserve {time}"),
        "clock_warning_turn": _("Less than {seconds} seconds left in your turn; then a bot "
                                "plays it for you."),
        "clock_warning_turn_reserve": _("Less than {seconds} seconds left in your turn; then "
                                        "your reserve runs."),
        "clock_warning_reserve": _("Less than {seconds} seconds left of your reserve; then a "
                                   "bot plays this turn for you."),
        # resigned, and the rematch
        "resigned_by": _("{player} resigned; the game is over."),
        "rematch_none": _("Play the same seats again on a new deal: the others at the table "
                          "are asked, and bots keep their seats."),
        "rematch_none_alone": _("Play the same seat again, against the same bots, on a new "
                                "deal."),
        "rematch_offered": _("{player} offers a rematch on a new deal. Accept it to take your "
                             "seat."),
        "rematch_waiting": _("{player} offered a rematch; waiting for {players} to accept."),
        "rematch_waiting_mine": _("You offered a rematch; waiting for {players} to accept."),
        "rematch_started": _("The rematch has started."),
        "rematch_ended": _("The rematch offered here was never started, and has ended."),
    }
