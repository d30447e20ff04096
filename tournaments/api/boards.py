"""A duplicate tournament's boards and every result on them, as the API and its exports
show them (the standings' formats: JSON, CSV, NDJSON).

Only the rounds the asker may see the boards of (``selectors.travellers.released_rounds``):
while a duplicate round is played nothing of it is listed, but to its organisers. One flat
row a team's result on a board, scored against the teams that held the same direction of
the same board (docs/duplicate-scoring.md), with its rank there on matchpoints; the JSON
also lists the boards themselves, their dealer and pack (top card first).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.users import RequestUser
from tournaments.models import Tournament
from tournaments.selectors.boards import BOT_TEAM, round_boards
from tournaments.selectors.travellers import BoardLine, released_rounds, round_board_lines

from .standings import json_number

COLUMNS = ["board", "round", "direction", "team_id", "team", "match", "table", "result",
           "matchpoints", "top", "percentage", "butler", "cross", "rank"]


def boards_export(tournament: Tournament, user: RequestUser | None) -> dict[str, Any]:
    """The boards ``user`` may see and one row a result on them, in board, direction and
    rank order."""
    rounds = released_rounds(tournament, user)
    boards = [{"number": board.number, "round": round.number, "hand": board.hand,
               "dealer": board.dealer, "pack": [card.code for card in board.pack]}
              for round in rounds for board in round_boards(round)]
    rows = [_row(line) for round in rounds for line in round_board_lines(round)]
    return {"tournament": tournament.pk, "duplicate": tournament.duplicate,
            "columns": COLUMNS, "boards": boards, "rows": rows}


def _row(line: BoardLine) -> dict[str, Any]:
    score = line.score
    table = line.match.table
    return {"board": score.board, "round": line.round_number, "direction": score.direction,
            "team_id": None if score.team == BOT_TEAM else score.team,
            "team": line.team.name if line.team is not None else None,
            "match": line.match.pk, "table": table.number if table is not None else None,
            "result": score.result, "matchpoints": json_number(score.matchpoints),
            "top": score.top, "percentage": json_number(score.percentage),
            "butler": json_number(score.butler), "cross": json_number(score.cross),
            "rank": line.rank}


class BoardRowSerializer(serializers.Serializer[dict[str, Any]]):
    board = serializers.IntegerField(help_text="the board's number in the event (round 1 "
                                               "plays 1 to 5, round 2 6 to 10...)")
    round = serializers.IntegerField()
    direction = serializers.IntegerField(help_text="0: seats 0 and 2; 1: seats 1 and 3")
    team_id = serializers.IntegerField(allow_null=True, help_text="null: the house bots")
    team = serializers.CharField(allow_null=True, help_text="the team's name")
    match = serializers.IntegerField(help_text="the match (table) it was played in")
    table = serializers.IntegerField(allow_null=True, help_text="the table's number")
    result = serializers.IntegerField(
        help_text="the score difference: the opponents' penalty points minus the team's own")
    matchpoints = serializers.FloatField(
        help_text="2 for each result of the same board and direction beaten, 1 for each "
                  "tie; Neuberg-scaled when a table did not finish the board")
    top = serializers.IntegerField(help_text="the most matchpoints possible: 2(N - 1)")
    percentage = serializers.FloatField(help_text="matchpoints over top, 0 to 100")
    butler = serializers.FloatField(help_text="the result minus the board's datum")
    cross = serializers.FloatField(help_text="the cross-difference")
    rank = serializers.IntegerField(help_text="on matchpoints within the board and direction "
                                              "(1, 2, 2, 4 for a tie)")


class BoardSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    hand = serializers.IntegerField(help_text="the hand of the game it is (1 to 5, R3.1)")
    dealer = serializers.IntegerField(help_text="the dealer's seat (R3.3)")
    pack = serializers.ListField(child=serializers.CharField(),
                                 help_text="the pack, top card first (R4.1)")


class BoardsSerializer(serializers.Serializer[dict[str, Any]]):
    tournament = serializers.IntegerField()
    duplicate = serializers.CharField(help_text="the main ranking's metric key; empty: not "
                                                "a duplicate tournament (no boards)")
    columns = serializers.ListField(child=serializers.CharField(),
                                    help_text="the rows' keys in order (the CSV header)")
    boards = BoardSerializer(many=True, help_text="the boards of the rounds shown")
    rows = BoardRowSerializer(many=True)
