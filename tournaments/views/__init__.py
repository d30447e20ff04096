"""Public pages: the home page, tournaments, rounds, standings, brackets, matches, teams and
players.

Views are thin: they find the object (404 when it is missing or not public), ask
``tournaments.selectors`` for what to show and render a template.
"""

from .boards import board_detail
from .calendars import calendar_renew, league_calendar, personal_calendar, tournament_calendar
from .entries import entry_request, tournament_enter, tournament_withdraw
from .home import home
from .leagues import league_detail, league_list, season_detail
from .matches import match_detail, match_live, match_record, match_replay
from .people import player_check_in, player_detail, team_detail
from .reporting import confirm_result, dispute_result, score_sheet
from .tournaments import (
    bracket,
    crosstable,
    round_detail,
    round_live,
    standings,
    standings_live,
    tournament_detail,
    tournament_list,
)

__all__ = [
    "board_detail", "bracket", "calendar_renew", "confirm_result", "crosstable",
    "dispute_result", "entry_request", "home", "league_calendar", "league_detail",
    "league_list", "match_detail", "match_live", "match_record", "match_replay",
    "personal_calendar", "player_check_in", "player_detail", "round_detail", "round_live",
    "score_sheet", "season_detail", "standings", "standings_live", "team_detail",
    "tournament_calendar", "tournament_enter", "tournament_withdraw",
    "tournament_detail", "tournament_list",
]
