"""Robot duplicate events as read: which are open, whose table is whose, whether the results
are still secret, and the ranking (the pure work is ``tournaments.duplicate.robot``, beside
the duplicate scoring it builds on).

**Secrecy.** Until the window closes and every table started has finished, nobody but the
event's organisers sees the boards, any table (in play or finished), or any result: those
who have played would tell those who have not. Then everything is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.users import RequestUser
from games.engine import HANDS_PER_GAME
from games.live.kinds import Described, EventPart
from games.live.models import LiveTable
from tournaments.duplicate import BoardScore
from tournaments.duplicate.robot import EntryGame, ranking, robot_scores, scores_by_entry

from .models import RobotEntry, RobotEvent


def robot_events() -> QuerySet[RobotEvent]:
    return RobotEvent.objects.all()


def organises_robot(event: RobotEvent, user: RequestUser | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return user.is_superuser or event.organisers.filter(pk=user.pk).exists()


def robot_entry_of(event: RobotEvent, user: RequestUser | None) -> RobotEntry | None:
    """The entry ``user`` plays in (as the player or the accepted partner), or the
    invitation they sent that waits for its partner, if any."""
    if user is None or not user.is_authenticated:
        return None
    return (RobotEntry.objects.filter(Q(player_id=user.pk)
                                      | Q(partner_id=user.pk, awaiting_partner=False),
                                      event=event)
            .select_related("live_table", "partner").first())


def robot_invitations_for(event: RobotEvent, user: RequestUser | None) -> list[RobotEntry]:
    """The invitations to play ``event`` as someone's partner that wait for ``user``."""
    if user is None or not user.is_authenticated:
        return []
    return list(RobotEntry.objects.filter(event=event, partner_id=user.pk, awaiting_partner=True)
                .select_related("player").order_by("pk"))


def robot_results_hidden(event: RobotEvent, now: datetime | None = None) -> bool:
    """Whether the boards, the tables and the results are still secret: the window is open,
    or a table started in it is still being played."""
    if (now or timezone.now()) < event.closes:
        return True
    return event.entries.filter(finished__isnull=True,
                                live_table__status=LiveTable.Status.PLAYING).exists()


def robot_hidden_from(event: RobotEvent, user: RequestUser | None) -> bool:
    return robot_results_hidden(event) and not organises_robot(event, user)


@dataclass(frozen=True)
class RankingLine:
    entry: RobotEntry
    rank: int | None
    percentage: Fraction | None
    boards: list[BoardScore | None]  # boards 1..5: its score there, None where not scored
    bot_boards: list[int]  # the boards a bot finished for a person


def robot_ranking(event: RobotEvent) -> list[RankingLine]:
    """Every finished entry, best first (``duplicate.robot.ranking``)."""
    entries = {e.pk: e for e in event.entries.filter(finished__isnull=False)
               .select_related("player", "partner", "live_table").order_by("pk")}
    games = [EntryGame(pk, [(a, b) for a, b in e.hand_scores], list(e.bot_hands))
             for pk, e in entries.items()]
    played = event.bot_boards == RobotEvent.BotBoards.PLAYED
    own = scores_by_entry(robot_scores(games, played))
    lines = []
    for placing in ranking(games, played):
        entry = entries[placing.entry]
        by_board = {score.board: score for score in own.get(placing.entry, [])}
        lines.append(RankingLine(
            entry, placing.rank, placing.percentage,
            [by_board.get(board) for board in range(1, len(entry.hand_scores) + 1)],
            [n for n, by_bot in enumerate(entry.bot_hands, start=1) if by_bot]))
    return lines


def describe_robot_tables(tables: Sequence[LiveTable]) -> dict[int, Described]:
    """What entrants' live tables are called, by table id (``games.live.kinds.
    on_describe``), in one query: the event, linked, and the five boards every entrant
    plays; the seats by their users' names. A table whose entry was removed is left out."""
    entries = RobotEntry.objects.filter(live_table__in=[t.pk for t in tables]).select_related(
        "event")
    boards = _("boards 1 to %(last)d") % {"last": HANDS_PER_GAME}
    return {entry.live_table_id: Described(event=(
                EventPart(entry.event.name, reverse("robot_duplicate:detail",
                                                    args=[entry.event_id])),
                EventPart(boards)))
            for entry in entries if entry.live_table_id is not None}
