"""The table service: the one door through which people and bots act on a live table.

An action is accepted under the table row's lock (``SELECT ... FOR UPDATE``, in plain
SQL like every read and write behind an action, see ``rows``): the game is replayed from
the log (or taken from this process's copy, brought up to date from the log, see
``replayed``), the engine checks the action, it is appended with the next sequence
number, and after the commit the table's group is told the new number (never a card:
each connection reads its own seat's events from the database) and the next bot, if one
is to move, is scheduled. A process holds nothing that a restart would lose.

A person's turn may have a deadline (``LiveTable.move_seconds``); when it passes, a timer
task lets the seat's stand-in bot finish that turn (``turn_timeout``). The handler of a
finished game (``finished``) runs as a task of its own, so it can neither break the last
move nor be lost (``followups.report_result``).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bots import make_bot
from games.engine import (
    Action,
    Card,
    IllegalActionError,
    Observation,
    observed_legal_actions,
    parse_action,
)
from games.engine.ways import ways

from . import kinds, limits, prepared, replayed, rows, seating
from .errors import TableError as TableError  # what its callers catch, as service.TableError
from .ids import client_id_problem, server_id
from .models import LiveHint, LiveTable
from .opening import SeatPlan, TablePlan, create_table, create_tables
from .state import Json, LiveGame, move_of, replay
from .turns import (
    STAND_IN,
    after_commit,
    announce,
    arm_timer,
    group_name,
    start_turn,
    stop_clock,
    timer_on_commit,
)
from .updates import Key, Update, hand_log, log_texts, no_table, update_since, updates

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser, User

log = logging.getLogger(__name__)


def _refused(exc: IllegalActionError) -> TableError:
    """The engine's refusal for the person: its message translated where the engine marks
    it for translation (a fixed text; one with values in it stays as the engine wrote it)."""
    return TableError(exc.translated(_), exc.rule)


# what its callers know as service.*: the table's channel group, what a connection is sent,
# opening tables
__all__ = ["SeatPlan", "TablePlan", "Update", "create_table", "create_tables", "group_name",
           "hand_log", "update_since"]


def create_practice_table(user: User, bot: str, seat: int = 0,
                          seed: int | None = None) -> LiveTable:
    """A table where ``user`` holds ``seat`` and bots of level ``bot`` play the partner and
    both opponents; the deals come from a random seed, stored (secret) with the table. Its
    bots wait for the person to open it (``begin``)."""
    if seat not in range(4):
        raise TableError(_("A seat is 0, 1, 2 or 3, not %(seat)s.") % {"seat": seat})
    with transaction.atomic():
        limits.check_open_tables(user)
        return create_table([SeatPlan(user=user) if s == seat else SeatPlan(bot=bot)
                             for s in range(4)], seed=seed, awaiting=True)


def begin(table_id: int) -> bool:
    """The first person holding a seat has opened a table that awaited them: play begins,
    the bot to move goes (after its pause), or the clock of the person to move starts
    afresh, and the grace of those not yet seen runs from now (``presence``). Under the
    table's lock, so of two connections arriving at once exactly one begins it; whether
    this call did. A table that awaits nobody (the most) is told by one read, without the
    lock."""
    table = rows.read_table(table_id)
    if table is None or not table.awaiting:
        return False
    with transaction.atomic():
        locked = rows.lock_table(table_id)
        if locked is None or not locked.table.awaiting:
            return False
        table = locked.table
        table.awaiting, table.began = False, timezone.now()
        mover = to_move(table)
        if table.status == LiveTable.Status.PLAYING and table.turn_started is not None:
            # the first turn's clock starts now, not at opening, with a timer of its own:
            # the one sent for the old deadline finds a timer due later out, and does nothing
            table.timer_due = None
            start_turn(locked, mover)
        rows.write_table(locked, "awaiting", "began", "deadline", "turn_started")
        if table.status == LiveTable.Status.PLAYING:
            after_commit(locked, mover, locked.bot_seats)
    return True


def _get(table_id: int) -> LiveTable:
    table = rows.read_table(table_id)
    if table is None:
        raise no_table(table_id)
    return table


def _locked(table_id: int, resent: tuple[int, str] | None = None) -> rows.Locked:
    """The table, its row locked until the transaction ends, and each seat's bot level
    ("" for a person's seat), read together (``rows.lock_table``)."""
    locked = rows.lock_table(table_id, resent)
    if locked is None:
        raise no_table(table_id)
    return locked


def _check_playing(table: LiveTable) -> None:
    """``TableError`` unless the game at ``table`` is on: not over, nor ended for want of
    play (``limits``), nor paused by the director."""
    if table.status in (LiveTable.Status.FINISHED, LiveTable.Status.RESIGNED):
        raise TableError(_("The game is over."), "R3.1")
    limits.check_not_abandoned(table)
    if table.status == LiveTable.Status.ENDED:
        raise TableError(_("The organisers ended this table before the game finished; they "
                           "decided the match's result. It takes no more moves."))
    if table.paused_at is not None:
        raise TableError(_("The director has paused this table; play goes on when they "
                           "resume it."))


def _game(table: LiveTable) -> LiveGame:
    """The game after the table's last action: this process's copy when it has one (see
    replayed), else replayed from the log; ``replayed.keep`` it after."""
    return (replayed.take(table)
            or replay(table.seed, log_texts(table)))


def to_move(table: LiveTable) -> int | None:
    """The seat to move at ``table`` (as its row says it is), or None once the game is
    over."""
    return progress(table).to_move


@dataclass(frozen=True)
class Progress:
    """Where a game stands, with no card in it: the hand in play (1 to 5), the hands'
    scores so far, the totals and the seat to move."""

    hand_no: int
    scores: list[tuple[int, int]]
    totals: tuple[int, int]
    to_move: int | None


def progress(table: LiveTable) -> Progress:
    """Where the game at ``table`` stands, as its row says."""
    live = _game(table)
    replayed.keep(table, live)
    game = live.game
    scores = [(r.scores[0], r.scores[1]) for r in game.results]
    return Progress(min(len(scores) + 1, len(live.decks)), scores,
                    (game.totals[0], game.totals[1]), game.to_move)


def table_act(table_id: int, seat: int, action_text: str, client_action_id: str, *,
              expected_seq: int | None = None) -> int:
    """Play ``action_text`` (the engine's text form) for ``seat``; the new sequence number.
    A resent ``client_action_id`` returns the sequence number it got the first time.
    ``TableError`` naming the rule, and nothing stored, when the action is refused, or
    when the table is no longer at ``expected_seq`` (an action chosen for a state that
    has passed)."""
    return _act(table_id, seat, action_text, client_action_id, expected_seq)[0]


def act_and_update(table_id: int, seat: int, action_text: str, client_action_id: str,
                   since: int, others: Iterable[int | None] = ()) -> tuple[int, Update]:
    """:func:`table_act`, then ``seat``'s :func:`update_since` ``since``, from the table
    as the action left it (not read again). When that is the action after ``since``, the
    same update of each of ``others`` (seats connected in this process, ``None`` for
    spectators) is made with it and kept for their notice (``prepared``)."""
    # the notice waits for the others' updates, so that it finds them made
    seq, table = _act(table_id, seat, action_text, client_action_id, None, notice=False)
    try:
        keys: set[Key] = {(seat, since)}
        if seq == since + 1:
            keys.update((other, since) for other in others)
        # the action just made is the person's own: no need to ask the log who chose it
        made = updates(table, keys, known=(seq - 1, set()))
        if len(keys) > 1:
            prepared.keep(table_id, seq, {key: update for key, update in made.items()
                                          if isinstance(update, Update)})
    finally:
        transaction.on_commit(lambda: announce(table_id, seq))
    found = made[(seat, since)]
    if isinstance(found, TableError):
        raise found
    return seq, found


def _act(table_id: int, seat: int, action_text: str, client_action_id: str,
         expected_seq: int | None, *, notice: bool = True) -> tuple[int, LiveTable]:
    """:func:`table_act`'s sequence number, and the table (as committed) with it."""
    problem = client_id_problem(client_action_id)
    if problem:
        raise TableError(problem)
    with transaction.atomic():
        locked = _locked(table_id, (seat, client_action_id))
        table = locked.table
        if locked.resent_seq is not None:
            return locked.resent_seq, table
        if expected_seq is not None and table.seq != expected_seq:
            raise TableError(_("The table has moved on since this action was chosen."))
        _check_playing(table)
        if seat in range(4) and locked.states[seat].pinned:
            # its bot's move waits a moment (LIVE_BOT_PAUSE_SECONDS): the person may not
            # take the turn meanwhile
            raise TableError(_("The director has seated a bot in your seat for the rest of "
                               "the game: it plays your turns until they give you the seat "
                               "back."))
        try:
            action = parse_action(action_text)
        except ValueError:
            raise TableError(_("Malformed action %(action)s; write it as the engine does, "
                               "e.g. \"2 discard 4C\".") % {"action": repr(action_text)}
                             ) from None
        if action.seat != seat:
            raise TableError(_("Seat %(seat)s cannot act for seat %(other)s.")
                             % {"seat": seat, "other": action.seat}, "R6.1")
        if table.awaiting:  # a person acting is at the table: play has begun
            table.awaiting = False
            rows.write_table(locked, "awaiting")
        return _append(locked, _game(table), action, client_action_id, notice=notice), table


def _append(locked: rows.Locked, live: LiveGame, action: Action, client_action_id: str, *,
            notice: bool = True) -> int:
    """The door itself, inside the transaction holding the table's row lock, ``live`` being
    its game: the engine checks ``action``, which is then logged with the next sequence
    number; the follow-ups go once committed (the notice too, unless ``notice=False``)."""
    table = locked.table
    hands_done = len(live.game.results)
    try:
        live.apply(action)
    except IllegalActionError as exc:  # the game is unchanged
        replayed.keep(table, live)
        raise _refused(exc) from None
    live.next_hand()
    mover = live.game.to_move
    # a new turn (another seat, or a new hand) starts a new countdown
    new_turn = mover != action.seat or len(live.game.results) != hands_done
    if new_turn:
        stop_clock(locked, action.seat)
        start_turn(locked, mover)
    table.seq += 1
    table.seating = seating.dump(locked.states)
    rows.log_action(table, action.seat, str(action), client_action_id)
    if live.game.is_over:
        table.status = LiveTable.Status.FINISHED
        table.record = marked_record(live.record(players(table)).to_json(), locked)
        rows.write_table(locked, "status", "record")
    after_commit(locked, mover, locked.bot_seats, notice=notice,
                 hand_ended=len(live.game.results) != hands_done and not live.game.is_over)
    transaction.on_commit(lambda: replayed.keep(table, live))
    return table.seq


def players(table: LiveTable) -> list[str]:
    """The record's names of the seats, seat 0 first: a username, or ``bot:<level>``."""
    return [s.user.get_username() if s.user else f"bot:{s.bot}"
            for s in table.seats.select_related("user")]


def marked_record(record: Json, locked: rows.Locked) -> Json:
    """``record`` with each action a bot played for a person's seat marked with that
    bot's level (``"bot": "greedy"``) and each a person took after asking for a hint marked
    ``"hint": true`` (push-record readers ignore keys they do not know, ours too): never
    hidden who, or what, played (LIVE.md "Say who played")."""
    table_id = locked.table.pk
    server_actions = rows.server_actions(table_id)
    hinted = set(LiveHint.objects.filter(table_id=table_id).values_list("seq", "seat"))
    seq = 0
    for hand in record["hands"]:
        for action in hand["actions"]:
            seq += 1
            kind = server_actions.get(seq)
            if kind is not None and locked.person(action["seat"]):
                action["bot"] = (STAND_IN if kind.startswith("!stand-in")
                                 else locked.substitutes[action["seat"]])
            elif (seq, action["seat"]) in hinted:
                action["hint"] = True
    return record


def bot_move(table_id: int, expected_seq: int) -> int | None:
    """Let the bot to move at ``expected_seq`` act, deciding from its seat's observation
    only; nothing when the table has moved on (a stale or repeated task). It decides under
    the table's lock, so its action is logged at ``expected_seq`` + 1 or not at all, and
    goes through the door people's actions go through (``_append``)."""
    with transaction.atomic():
        locked = rows.lock_table(table_id)
        if locked is None:
            return None  # the table is gone
        table, levels = locked.table, locked.levels
        if (table.seq != expected_seq or table.status != LiveTable.Status.PLAYING
                or table.paused_at is not None or table.awaiting):
            return None
        live = _game(table)
        seat = live.game.to_move
        if seat is None or not levels.get(seat):
            replayed.keep(table, live)
            return None
        return _bot_acts(locked, live, seat, levels[seat],
                         "substitute" if locked.person(seat) else "bot")


def _bot_acts(locked: rows.Locked, live: LiveGame, seat: int, level: str, kind: str) -> int:
    """Under ``locked``'s lock, a bot of ``level`` decides ``seat``'s action from the seat's
    own observation and it goes through the door people's actions go through; the new
    sequence number. Its id is the server's of ``kind`` for the table's number, which no
    action has been logged with yet; its randomness is drawn from the deals' seed and the
    turn, so two tables dealt the same boards whose games went the same way so far get the
    same move (the bots of a robot duplicate), through a hash that tells nothing of the
    seed."""
    table = locked.table
    obs = live.game.observation(seat)
    bot = make_bot(level, bot_seed(table.seed, table.seq))
    action = bot.choose(obs, observed_legal_actions(obs))
    return _append(locked, live, action, server_id(kind, table.seq))


def bot_seed(deal_seed: int, seq: int) -> int:
    """A bot's seed for the turn after ``seq`` actions of a game dealt from ``deal_seed``."""
    digest = hashlib.blake2b(f"{deal_seed}:{seq}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def table_ways(table_id: int, seat: int, cards: list[str], meld: int | None) -> list[Json]:
    """The legal actions of ``seat`` that use exactly ``cards`` (card codes), each in its
    structured form with its text (``state.move_of``), onto ``meld`` when given (see
    ``games.engine.ways``); decided from the seat's own observation. ``TableError`` naming
    the rule when the request is not the seat's to make."""
    table = _get(table_id)
    _check_playing(table)
    try:
        chosen = [Card.parse(code) for code in cards]
    except ValueError:
        raise TableError(_("Unknown card code among %(cards)s; write cards as 7H, TS or JK.")
                         % {"cards": " ".join(cards)}, "R2.2") from None
    live = _game(table)
    obs = live.game.observation(seat)
    replayed.keep(table, live)
    try:
        return [move_of(action) for action in ways(obs, chosen, meld)]
    except IllegalActionError as exc:
        raise _refused(exc) from None


@dataclass(frozen=True)
class SeatTurn:
    """A seat's turn: the hand in play, the next action's index in it (as the record counts
    it), what the seat sees and its legal actions."""

    hand: int
    index: int
    obs: Observation
    legal: list[Action]


def seat_turn(table: LiveTable, seat: int) -> SeatTurn:
    """``seat``'s turn at ``table`` (as its row was read); ``TableError`` unless the game is
    on and it is that seat's turn (R6.1)."""
    _check_playing(table)
    live = _game(table)
    try:
        if live.game.to_move != seat:
            raise TableError(_("It is not your turn: a hint is for the seat to move."), "R6.1")
        obs = live.game.observation(seat)
        return SeatTurn(obs.hand_no, len(live.hand_actions[-1]), obs,
                        observed_legal_actions(obs))
    finally:
        replayed.keep(table, live)


def turn_timeout(table_id: int) -> int:
    """The table's turn timer (or the sweep's, for a passed deadline): when the deadline
    of the turn in play has passed, the stand-in bot finishes that turn (the person keeps
    the seat and plays the next one); when it is still ahead (the turn the timer was sent
    for is long over), the timer is sent again for it. How many actions the stand-in made.
    Each action is decided and logged under the table's lock, so two timers act once and
    a late one does nothing; and the loop goes on only while the table moves on in the
    same turn: a step that leaves it where it was ends it."""
    made, seq, deadline = 0, None, None
    while True:
        step, deadline = _stand_in_step(table_id, deadline)
        if step is None:
            return made  # gone, over, a new turn (or no limit), or not yet
        if seq is not None and step <= seq:
            log.warning("stand-in at live table %s: the table did not move on from %s; "
                        "stopped", table_id, seq)
            return made
        made, seq = made + 1, step


def _stand_in_step(table_id: int, deadline: datetime | None
                   ) -> tuple[int | None, datetime | None]:
    """One action of the stand-in for the person whose turn ran out at ``deadline`` (the
    first step: whatever deadline has passed), decided and logged under the table's lock:
    the new sequence number, or ``None`` when there is nothing (more) to do; and the
    deadline acted on."""
    with transaction.atomic():
        locked = rows.lock_table(table_id)
        if locked is None:
            return None, None
        table, now = locked.table, timezone.now()
        fired = seating.timer_fired(now, table.timer_due)
        if fired:  # this timer (or a lost one): none is out now
            table.timer_due = None
        passed = (table.status == LiveTable.Status.PLAYING and table.paused_at is None
                  and not table.awaiting and table.deadline is not None and table.deadline <= now
                  and (deadline is None or table.deadline == deadline))
        if not passed:
            if fired:  # the deadline ahead, if any, gets the table's timer
                arm_timer(locked)
                rows.write_table(locked)
                timer_on_commit(locked)
            return None, None
        live = _game(table)
        seat = live.game.to_move
        if seat is None or locked.levels.get(seat):
            replayed.keep(table, live)
            if fired:  # the timer is out no more
                rows.write_table(locked)
            return None, None
        return _bot_acts(locked, live, seat, STAND_IN, "stand-in"), table.deadline

def seat_of(table_id: int, user: AbstractBaseUser | AnonymousUser | None) -> int | None:
    """The seat ``user`` holds at the table (``None``: a spectator), or ``WatchRefused`` for
    one who holds none and may not watch it (``kinds.may_watch``). A websocket's user is
    Channels' lazy proxy of one, typed as the base class of users."""
    table = _get(table_id)
    place = None
    if user is not None and user.is_authenticated:
        place = table.seats.filter(user_id=user.pk, left__isnull=True).first()
    if place is not None:
        return place.seat
    if not kinds.may_watch(table, user):
        if table.status != LiveTable.Status.PLAYING:
            raise WatchRefused(_("This game is kept secret for now: the other tables of its "
                                 "round or event play the same cards."))
        raise WatchRefused(_("This table's tournament does not let you watch it while it is "
                             "played.") if user is not None and user.is_authenticated
                           else _("Log in to watch this table, if its tournament lets you."))
    return None


class WatchRefused(TableError):
    """A person holding no seat may not watch this table while it is played."""

    code = "watch_refused"
    status = 403
