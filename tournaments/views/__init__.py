"""Public pages: tournaments, rounds, standings, brackets, matches, teams and players.

Views are thin: they find the object (404 when it is missing or not public), ask
``tournaments.selectors`` for what to show and render a template.
"""

from .matches import match_detail, match_live, match_record
from .people import player_check_in, player_detail, team_detail
from .tournaments import (
    bracket,
    cross_table,
    round_detail,
    round_live,
    standings,
    standings_live,
    tournament_detail,
    tournament_list,
)

__all__ = [
    "bracket", "cross_table", "match_detail", "match_live", "match_record", "player_check_in",
    "player_detail",
    "round_detail", "round_live", "standings", "standings_live", "team_detail",
    "tournament_detail", "tournament_list",
]
