"""The tournament domain's tables, one module a part:

- ``core``: players, teams, tournaments, their entries, absences and check-ins, rounds,
  tables, matches, seats and results (the source of truth);
- ``derived``: standings and rating history, rebuilt from the results at any time;
- ``work``: the background work's jobs and the tasks owed to the broker;
- ``robot``: robot duplicate events, where each entrant plays the event's boards with bots.
"""

from .core import (
    BOT_LEVELS,
    HANDLE_LENGTH,
    LIVE_TABLE_KIND,
    Absence,
    CheckIn,
    Entry,
    Match,
    Player,
    Result,
    Round,
    Seat,
    Table,
    Team,
    Tournament,
    new_deal_seed,
    new_handle,
)
from .derived import RatingEntry, Standing
from .robot import ROBOT_TABLE_KIND, RobotEntry, RobotEvent
from .work import Job, OutboxTask

__all__ = [
    "BOT_LEVELS", "HANDLE_LENGTH", "LIVE_TABLE_KIND", "ROBOT_TABLE_KIND", "Absence", "CheckIn",
    "Entry", "Job", "Match", "OutboxTask", "Player", "RatingEntry", "Result", "RobotEntry",
    "RobotEvent", "Round", "Seat", "Standing", "Table", "Team", "Tournament", "new_deal_seed",
    "new_handle",
]
