"""Selectors: every read of the tournament domain (HackSoft style: services write, selectors
read). The pages, the API and the admin read through these; the services build on them too
(views/api/admin/tasks -> services -> selectors -> models and the pure cores), and nothing
here imports a service.

* ``visibility``: what the public may see (drafts, unconfirmed results): the one rule the
  pages and the API share; read its docstring first.
* ``rounds``: a tournament as its format reads it (``StoredTournament``), how many rounds,
  the all-bot matches: the reads the round services pair and close rounds with.
* ``home``: the home page (running, upcoming, recent results) and a finished tournament's
  final places (from its bracket or its standings, as its format says).
* ``counted``: which confirmed results the standings and the ratings count (a tournament may
  leave out games bots played much of for people).
* ``boards``, ``travellers``: a duplicate round's boards, which rounds are still secret, and
  every table's results on the boards scored (the board page, a team's boards, the API's
  boards export), read only for rounds the reader may see.
* ``checkin``: who is present for a round (absences, check-ins), and when players may
  check themselves in.
* ``results_file``, ``files``: what the open files (the results file, a round's deal file,
  the TRF report) are written from, through the visibility rule.
* ``paging``: which of a round's tables its page shows, and the version of what it
  shows that its live fragment's ETag is.
* ``tournaments``, ``matches``, ``standings``, ``bracket``, ``people``: what the pages and
  the API show, as querysets and as the shapes of ``viewmodels`` (``SeatView``,
  ``TableView``, ``StandingLine``, ``BracketView``...), which hold no queries.
"""

from .bracket import tournament_bracket_view
from .checkin import (
    absent_player_ids,
    check_in_round_number,
    check_round_player,
    marked_absent_ids,
    next_round_number,
    open_check_ins,
    player_team_names,
    round_player_problem,
    self_check_in_round,
    tournament_players,
)
from .console import ConsoleView, LiveTables, live_tables_by_round, tournament_console
from .counted import counted_results, counts_q, is_left_out, rated_results
from .files import round_deal_file, trf_report_of
from .home import final_places_of, home_view
from .matches import (
    match_hands,
    match_is_live,
    public_match,
    round_tables,
    side_names,
    table_view,
)
from .online import YourTable, describe_live_tables, your_tables
from .paging import PAGE_SIZE, RoundPage, page_number, round_page
from .people import (
    player_rating_history,
    player_results,
    player_teams,
    players,
    team_rating,
    team_rating_history,
    team_results,
    team_tournaments,
    teams,
)
from .results_file import results_file
from .rounds import (
    StoredTournament,
    kept_apart_pairs,
    round_bot_match_ids,
    round_job,
    round_job_kind,
    rounds_total,
    seeded_team_ids,
    tournament_format,
)
from .schedule import (
    player_logins,
    schedule_facts,
    schedule_plan,
    tournament_schedule,
    unsettled_tables,
    upcoming_round,
)
from .standings import (
    provisional_team_ids,
    standing_rows,
    standings_versions,
    tournament_crosstable,
    tournament_metrics,
    tournament_standings,
    withdrawn_team_ids,
)
from .tournaments import (
    public_round,
    public_rounds,
    tournament_entries,
    tournament_is_live,
    tournaments_by_status,
)
from .viewmodels import plain
from .visibility import (
    PUBLIC_ROUNDS,
    boards_hidden,
    boards_hidden_from,
    may_see_game,
    plays_in,
    plays_q,
    rounds_hidden_from,
    secret_rounds_played_by,
    shown_status,
    visible_matches,
    visible_result,
    visible_rounds,
)

__all__ = [
    "results_file", "round_deal_file", "trf_report_of",
    "PAGE_SIZE", "RoundPage", "page_number", "round_page", "plays_q",
    "absent_player_ids", "boards_hidden", "boards_hidden_from", "check_in_round_number",
    "check_round_player", "ConsoleView", "counted_results", "counts_q", "describe_live_tables",
    "final_places_of",
    "home_view", "is_left_out", "kept_apart_pairs", "live_tables_by_round", "LiveTables",
    "marked_absent_ids",
    "match_hands", "match_is_live", "may_see_game", "next_round_number", "open_check_ins",
    "plain", "player_rating_history", "player_results", "player_team_names",
    "player_teams", "players", "plays_in", "provisional_team_ids", "public_match",
    "public_round", "PUBLIC_ROUNDS",
    "public_rounds", "rated_results", "round_bot_match_ids",
    "round_job", "round_job_kind", "rounds_hidden_from", "shown_status",
    "round_player_problem", "round_tables", "rounds_total", "schedule_facts", "schedule_plan",
    "tournament_schedule", "unsettled_tables", "upcoming_round",
    "player_logins",
    "secret_rounds_played_by", "seeded_team_ids", "self_check_in_round", "side_names",
    "standing_rows", "standings_versions",
    "StoredTournament", "table_view", "team_rating", "team_rating_history", "team_results",
    "team_tournaments", "teams", "tournament_bracket_view", "tournament_console",
    "tournament_crosstable", "tournament_entries", "tournament_format", "tournament_is_live",
    "tournament_metrics", "tournament_players", "tournament_standings", "tournaments_by_status",
    "visible_matches", "visible_result", "visible_rounds", "withdrawn_team_ids", "your_tables",
    "YourTable",
]
