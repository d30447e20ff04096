"""A duplicate board's page: its deal, every table's result on it (the traveller), how
often each result was scored (the frequency table), and each table's replay of it.

Public pages show the public view to everyone (organisers included, as they never show
drafts): while the board's round is still played its boards are secret, and the page is a
404 that says so."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from games.engine import HANDS_PER_GAME, HandState
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
        "seats": [(seat, dealt.hands[seat]) for seat in range(4)],
        "upcard": dealt.discard[-1],
        "tables": [(line, opposite[line.match.pk]) for line in own
                   if line.score.direction == 0],
        "frequencies": sorted(board_frequencies(own).items()),
        "boards": round_boards(round)})
