"""The words of the live table's card-table parts (``static/live/*.js``): the reasons a
move is off, the questions about the ways a selection fits, the end of a hand, the
earlier hands and the player's turn. Merged into the page's messages with ``texts``'s,
translated here so the scripts hold no word of their own."""

from __future__ import annotations

from django.utils.translation import gettext as _


def card_table_messages() -> dict[str, str]:
    """The messages ``static/live/controls.js`` and ``panels.js`` put together."""
    return {
        "thinking": _("thinking…"),
        "your_turn_title": _("Your turn"),
        # why a move is off (said on focus and hover, and to screen readers)
        "why_not_your_turn": _("Not your turn: {player} to move."),
        "why_busy": _("Waiting for the table to answer your move."),
        "why_paused": _("The director has paused this table; play goes on when they "
                        "resume it."),
        "why_drawn": _("You have drawn this turn; now meld or discard (R6.2)."),
        "why_draw_first": _("Take the discard or push first (R6.2)."),
        "why_select": _("Select the cards to lay down first."),
        "why_select_one": _("Select exactly one card to discard (R6.6)."),
        "why_taken": _("The card just taken from the discard pile cannot be discarded this "
                       "turn (R6.5)."),
        "why_pending": _("Play the freed wild into another meld before you discard (R7.4)."),
        "why_not_legal": _("That card cannot be discarded now."),
        "why_contract_first": _("Lay down your contract first: until then you cannot lay off "
                                "or swap a wild (R7.1, R7.3)."),
        "why_select_meld": _("Select cards from your hand, then press the meld to lay them "
                             "off on it."),
        # choosing a way
        "ask_wild": _("What should {card} stand for?"),
        "ask_out": _("Which wild do you take out?"),
        "ask_onto": _("Where do the selected cards go?"),
        "onto_new": _("A new meld"),
        "onto_meld": _("Onto meld {meld}"),
        "as_itself": _("itself (natural)"),
        "more_ways": _("More ways (page {page} of {pages})"),
        # the end of a hand, earlier hands, the end of the game
        "hand_over": _("Hand {hand} is over"),
        "totals_line": _("Total: {team_a} {score_a}, {team_b} {score_b}."),
        "went_out": _("went out"),
        "no_cards": _("no cards"),
        "cards_unknown": _("not shown"),
        "hand_result_line": _("Hand {hand}: {outcome}"),
        "hand_button": _("Hand {hand}"),
        "hand_log_loading": _("Loading the hand's log…"),
        "hand_log_of": _("Every action of hand {hand}:"),
        "hand_log_failed": _("The table could not give this hand's log now; the replay has "
                             "every hand once the game is over."),
        "final_hand": _("Hand {hand}: {team_a} {score_a}, {team_b} {score_b}"),
    }
