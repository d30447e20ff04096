"""Selectors: every read of the tournament domain (HackSoft style: services write, selectors
read). The pages, the API and the admin read through these; the services build on them too
(views/api/admin/tasks -> services -> selectors -> models and the pure cores), and nothing
here imports a service.

* ``visibility``: what the public may see (drafts, unconfirmed results): the one rule the
  pages and the API share; read its docstring first.
* ``rounds``: how many rounds, the knockout bracket and who advanced, the all-bot matches:
  the reads the round services pair and close rounds with.
* ``checkin``: who is present for a round (absences, check-ins), and when players may
  check themselves in.
* ``tournaments``, ``matches``, ``standings``, ``bracket``, ``people``: what the pages and
  the API show, as querysets and as the shapes of ``viewmodels`` (``SeatView``,
  ``TableView``, ``StandingLine``, ``BracketView``...), which hold no queries.
"""

from .bracket import tournament_bracket_view
from .checkin import (
    absent_player_ids,
    check_in_round_number,
    marked_absent_ids,
    next_round_number,
    open_check_ins,
    player_team_names,
    round_player_problem,
    self_check_in_round,
    tournament_players,
)
from .matches import match_hands, match_is_live, public_match, round_tables, table_view
from .people import (
    player_rating_history,
    player_results,
    player_teams,
    players,
    team_results,
    team_tournaments,
    teams,
)
from .rounds import (
    CYCLES,
    knockout_decision,
    knockout_winners,
    round_bot_match_ids,
    round_job,
    round_job_kind,
    rounds_total,
    seeded_team_ids,
    tournament_bracket,
)
from .standings import (
    standing_rows,
    standings_versions,
    tournament_cross_table,
    tournament_metrics,
    tournament_standings,
)
from .tournaments import (
    public_round,
    public_rounds,
    tournament_entries,
    tournament_is_live,
    tournaments_by_status,
)
from .viewmodels import plain
from .visibility import PUBLIC_ROUNDS, visible_matches, visible_result, visible_rounds

__all__ = [
    "absent_player_ids", "check_in_round_number", "marked_absent_ids", "next_round_number",
    "open_check_ins", "player_team_names", "round_player_problem", "self_check_in_round",
    "tournament_players",
    "CYCLES", "PUBLIC_ROUNDS", "knockout_decision", "knockout_winners", "match_hands",
    "match_is_live", "plain", "player_rating_history", "player_results", "player_teams",
    "players", "public_match", "public_round", "public_rounds", "round_bot_match_ids",
    "round_job", "round_job_kind", "round_tables", "rounds_total", "seeded_team_ids",
    "standing_rows", "standings_versions",
    "table_view", "team_results", "team_tournaments", "teams", "tournament_bracket",
    "tournament_bracket_view", "tournament_cross_table", "tournament_entries",
    "tournament_is_live", "tournament_metrics", "tournament_standings",
    "tournaments_by_status", "visible_matches", "visible_result", "visible_rounds",
]
