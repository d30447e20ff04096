"""What spans tournaments, as pure functions over plain data (no database): a series' table
of points per place (``series``) and the moves between a league's divisions at the end of a
season (``divisions``). The selectors read the places; the services write the next season."""

from .divisions import DivisionResult, Move, draft_moves
from .series import EventPlace, SeriesEvent, SeriesLine, place_points, series_table

__all__ = ["DivisionResult", "EventPlace", "Move", "SeriesEvent", "SeriesLine", "draft_moves",
           "place_points", "series_table"]
