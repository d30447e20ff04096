"""Use cases of the tournament domain (HackSoft style: services write, selectors read).

Views, admin actions and Celery tasks call these; nothing hides in ``save()`` or signals.
Each starts its own follow-up work (``followups.py``), so a caller calls one service and
nothing after it. Reads (how many rounds, the bracket, who advanced, which matches bots
play) live in ``tournaments.selectors``, which the services build on.
"""

from .access import (
    is_organiser,
    is_player_of,
    may_edit_register,
    require_organiser,
    require_submitter,
    result_to_answer,
)
from .checkin import check_in_roster, check_in_self, check_in_settings
from .deals import deals_for_organiser
from .derived import (
    ratings_rebuild,
    ratings_recalculate,
    standings_rebuild,
    standings_recalculate,
)
from .director import TABLE_ACTIONS, director_message, director_table_act
from .draft import DraftEdit, draft_move_table, draft_swap_seats, draft_swap_teams
from .entries import (
    entries_move_up,
    entry_answer,
    entry_approve,
    entry_ask,
    entry_refuse,
    entry_withdraw,
    own_player,
    require_partner,
)
from .errors import FieldsInvalid, ResultExists, ResultRejected, TournamentUserError
from .followups import send_outbox
from .jobs import (
    job_fail,
    job_play_match,
    job_play_round_bots,
    job_refresh,
    jobs_recover_stalled,
    jobs_stalled,
)
from .register import player_register, register_save, team_register
from .results import (
    match_end_live_table,
    match_play_bots,
    match_submit_record,
    match_submit_score_sheet,
    result_confirm,
    result_correct,
    result_dispute,
    result_withdraw,
)
from .results_import import ResultsFileRefused, results_file_import
from .rounds import (
    round_complete,
    round_fill_seats,
    round_pair_next,
    round_publish,
    round_release_boards,
)
from .schedule import (
    schedule_move_round,
    schedule_pause,
    schedule_replan,
    schedule_run_now,
    schedule_save,
    schedule_take_step,
    schedule_tick,
)
from .tournaments import (
    SETTINGS,
    TournamentSaved,
    entry_add,
    entry_remove,
    entry_save,
    require_staff,
    tournament_change,
    tournament_create,
    tournament_save,
)

__all__ = [
    "ResultsFileRefused", "results_file_import",
    "TABLE_ACTIONS", "director_message", "director_table_act",
    "DraftEdit", "FieldsInvalid", "ResultExists", "SETTINGS", "TournamentSaved",
    "ResultRejected", "TournamentUserError",
    "check_in_roster", "check_in_self", "check_in_settings",
    "deals_for_organiser", "entries_move_up", "entry_add", "entry_remove", "entry_save",
    "entry_answer", "entry_approve", "entry_ask",
    "entry_refuse", "entry_withdraw", "own_player", "require_partner", "draft_move_table",
    "draft_swap_seats", "draft_swap_teams",
    "is_organiser", "is_player_of", "job_fail", "job_play_match", "job_play_round_bots",
    "job_refresh", "may_edit_register", "jobs_recover_stalled", "jobs_stalled",
    "match_end_live_table", "match_play_bots", "player_register", "register_save",
    "require_staff", "team_register", "tournament_change", "tournament_create",
    "tournament_save",
    "match_submit_record", "match_submit_score_sheet", "ratings_rebuild", "ratings_recalculate",
    "require_organiser", "require_submitter", "result_confirm", "result_correct",
    "result_dispute", "result_to_answer", "result_withdraw",
    "round_complete", "round_fill_seats", "round_pair_next", "round_publish",
    "round_release_boards",
    "schedule_move_round", "schedule_pause", "schedule_replan", "schedule_run_now",
    "schedule_save", "schedule_take_step", "schedule_tick", "send_outbox",
    "standings_rebuild", "standings_recalculate",
]
