"""A duplicate board's page: its deal, every table's result on it (the traveller), how
often each result was scored (the frequency table), and each table's replay of it.

Public pages show the public view to everyone (organisers included, as they never show
drafts): while the board's round is still played its boards are secret, and the page is a
404 that says so."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import HANDS_PER_GAME, Card, HandState
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.selectors.boards import round_boards
from tournaments.selectors.travellers import board_frequencies, board_of, round_board_lines


def board_detail(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    round = selectors.public_round(tournament, (number - 1) // HANDS_PER_GAME + 1) \
        if number >= 1 else None
    board = board_of(round, number) if round is not None and tournament.duplicate else None
    if round is None or board is None:
        raise Http404(_("This tournament has no public board with this number."))
    if selectors.boards_hidden_from(round, None):
        raise Http404(_("The boards of this round are secret until every table has "
                        "finished."))
    dealt = HandState.deal(board.hand, board.dealer, board.pack)
    lines = round_board_lines(round)
    own = [line for line in lines if line.score.board == number]
    opposite = {line.match.pk: line for line in own if line.score.direction == 1}
    return render(request, "tournaments/board_detail.html", {
        "tournament": tournament, "round": round, "board": board, "section": "rounds",
        "seats": [(seat, seat % 2, diagram(dealt.hands[seat])) for seat in range(4)],
        "upcard": dealt.discard[-1],
        "tables": [(line, opposite[line.match.pk]) for line in own
                   if line.score.direction == 0],
        "frequencies": sorted(board_frequencies(own).items()),
        "boards": round_boards(round)})


#: The suits as a hand diagram lists them (bridge's order), each with its symbol and name.
SUIT_LINES = (("S", "♠", gettext_lazy("spades")), ("H", "♥", gettext_lazy("hearts")),
              ("D", "♦", gettext_lazy("diamonds")), ("C", "♣", gettext_lazy("clubs")))


@dataclass(frozen=True)
class SuitLine:
    symbol: str
    name: str  # for a screen reader, which would read the symbol oddly or not at all
    ranks: str  # highest first, the ace high ("A K 10 2"); empty: a void
    red: bool


def diagram(cards: list[Card]) -> tuple[list[SuitLine], int]:
    """A hand as a diagram: a line a suit, its ranks highest first, and how many jokers."""
    lines = []
    for suit, symbol, name in SUIT_LINES:
        ranks = sorted((card.rank if card.rank != 1 else 14 for card in cards
                        if not card.is_joker and card.suit == suit), reverse=True)
        lines.append(SuitLine(symbol, str(name), " ".join(
            "10" if rank == 10 else "AKQJ"[14 - rank] if rank > 10 else str(rank)
            for rank in ranks), suit in "HD"))
    return lines, sum(1 for card in cards if card.is_joker)
