"""A live table and its action log. The log is the game: the state is rebuilt from it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class LiveTable(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("being played")
        FINISHED = "finished", _("finished")
        # A practice table nobody acted at for ``LIVE_ABANDON_AFTER`` (games/live/limits.py):
        # over without a result, so it has no record, and takes no more actions.
        ABANDONED = "abandoned", _("abandoned")
        # The organisers ended a tournament's table whose game could not finish, deciding
        # the match's result themselves (games/live/director.py): no record, no more actions.
        ENDED = "ended", _("ended by the organisers")
        # A person at a practice or friends' table resigned (games/live/quitting.py): over
        # at once, its record the game so far, with who resigned in its end.
        RESIGNED = "resigned", _("resigned")

    # Secret while the game is on: it fixes every deal (never sent to a client).
    seed = models.BigIntegerField(_("deal seed"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PLAYING)
    # The last action's sequence number (0: none yet); updated under the row lock.
    seq = models.PositiveIntegerField(_("actions"), default=0)
    # Whom to tell when the game ends: the kind of table whose handler an app registered
    # (games/live/kinds.py; "" for a table nobody waits for, such as practice), and the
    # caller's own reference (e.g. a match id).
    reports_to = models.CharField(_("reports to"), max_length=40, blank=True)
    result_ref = models.CharField(_("result reference"), max_length=100, blank=True)
    # The push-record/1 record, written when the game ends.
    record = models.JSONField(_("game record"), null=True, blank=True)
    # Whether the handler has run for the finished game (the sweep sends it until then).
    reported = models.BooleanField(_("reported"), default=False)
    # The time a person has for a turn (None: no limit), and when the turn of the person
    # to move runs out (None on a bot's turn and without a limit): then the seat's
    # stand-in bot finishes that turn (LIVE.md "Time").
    move_seconds = models.PositiveIntegerField(_("time per turn (seconds)"), null=True,
                                               blank=True)
    deadline = models.DateTimeField(_("turn ends"), null=True, blank=True)
    # When the table's one turn timer out with the broker is due (None: none is out). A
    # new turn sends none while one is due before its deadline: the timer, finding the
    # deadline still ahead, sends itself again for it (turns.arm_timer).
    timer_due = models.DateTimeField(_("turn timer due"), null=True, blank=True)
    # Each person's reserve for the whole game, spent once a turn outlasts
    # ``move_seconds`` (None: none); what is left of it is in ``seating`` (clock.py).
    reserve_seconds = models.PositiveIntegerField(_("reserve per player (seconds)"), null=True,
                                                  blank=True)
    # How long a person may be gone (not yet joined since ``began`` or ``created``, or no
    # heartbeat)
    # before their seat's substitute bot plays for them (None: never; presence.py).
    grace_seconds = models.PositiveIntegerField(_("substitute after (seconds)"), null=True,
                                                blank=True)
    # When the clock of the person to move started (None on a bot's turn, without a
    # clock, once over): what the turn cost their reserve is counted from it.
    turn_started = models.DateTimeField(_("turn started"), null=True, blank=True)
    # When the director paused the table (None: not paused): no action is taken and no
    # clock runs until they resume it, when deadline and turn_started move on by the pause.
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    # Per seat (seat 0 first): its reserve left, whether its substitute plays it now and
    # whether the director pinned the substitute (seating.py). On the table's row, as it
    # changes under the row's lock and every update reads that row anyway.
    seating = models.JSONField(_("seating"), default=list)
    # Whether the table waits for the first person holding a seat to open it: no bot
    # moves until then, so that they see the game from its first action (practice and
    # friends' tables; a tournament's starts at its time, with substitutes).
    awaiting = models.BooleanField(_("waiting for its first player"), default=False)
    # When that first person opened it (None: it awaited nobody): the grace of the people
    # not yet seen runs from then, not from ``created`` (presence.py).
    began = models.DateTimeField(_("began"), null=True, blank=True)
    # The seat whose person resigned the game (status ``resigned``; None otherwise).
    resigned_seat = models.PositiveSmallIntegerField(_("resigned by seat"), null=True,
                                                     blank=True)
    # The director's last message to the table, shown to everyone at it.
    message = models.CharField(_("message from the director"), max_length=300, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("live table")
        verbose_name_plural = _("live tables")
        indexes = [
            # the sweep's questions: turns run out, results not yet reported
            models.Index(fields=["deadline"], condition=Q(deadline__isnull=False),
                         name="live_table_deadline"),
            models.Index(fields=["status"], condition=Q(reported=False),
                         name="live_table_unreported"),
        ]

    def __str__(self) -> str:
        return f"live table {self.pk}"


class LiveSeat(models.Model):
    """Who plays a seat: a user or a bot of a level (exactly one of them)."""

    class Tab(models.TextChoices):
        SHOWN = "shown", _("shown")
        HIDDEN = "hidden", _("hidden")
        CLOSED = "closed", _("closed")

    table = models.ForeignKey(LiveTable, on_delete=models.CASCADE, related_name="seats",
                              verbose_name=_("live table"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="live_seats", verbose_name=_("user"))
    bot = models.CharField(_("bot level"), max_length=20, blank=True)
    # The level of the bot that plays a person's seat while they are gone ("" for a
    # bot's seat).
    substitute = models.CharField(_("substitute's bot level"), max_length=20, blank=True)
    # A person's last sign of life at the table: connecting, a heartbeat, leaving (None:
    # never came). Written without the table's lock, as often as every few seconds.
    seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    # When the person left the table for good (None: they have not): its substitute plays
    # the rest of the game, the table no longer counts as one of theirs, and they see it
    # as a spectator (games/live/quitting.py).
    left = models.DateTimeField(_("left the table"), null=True, blank=True)
    # What the person's page last said of itself (presence.py): open and shown, open in a
    # hidden tab, or closed; with ``seen``, how the seat shows its person to the table.
    tab = models.CharField(_("page"), max_length=6, choices=Tab.choices, default=Tab.CLOSED)
    # The round trip of their heartbeat as their page last measured it (None: not yet).
    lag_ms = models.PositiveIntegerField(_("lag (ms)"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat at a live table")
        verbose_name_plural = _("seats at live tables")
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="live_seat_once"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="live_seat_0_to_3"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}"


class LiveAction(models.Model):
    """One accepted action; never updated or deleted."""

    table = models.ForeignKey(LiveTable, on_delete=models.CASCADE, related_name="actions",
                              verbose_name=_("live table"))
    seq = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    # The engine's text form (``2 discard 4C``), which parses back to the same action.
    action = models.CharField(_("action"), max_length=500)
    # The sender's id for this action, so a resend is answered, not applied again.
    client_id = models.CharField(_("sender's id"), max_length=64)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("action")
        verbose_name_plural = _("actions")
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="live_action_seq_once"),
            models.UniqueConstraint(fields=["table", "seat", "client_id"],
                                    name="live_action_client_id_once"),
        ]
        indexes = [
            # the health check's question, the actions of the last seconds (tables acted on
            # many times a second); appended at the index's end, as ``created`` only grows
            models.Index(fields=["created"], name="live_action_created"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.seq}: {self.action}"


class LiveHint(models.Model):
    """A hint a person asked for at their turn (games/live/hints.py): the move the strongest
    bot suggested and why, kept beside the action log so that the replay shows where one
    was used and what it said (the finished game's record marks only the move made after
    it, ``"hint": true``). One per seat and action: asking again at the same point answers
    with this one."""

    table = models.ForeignKey(LiveTable, on_delete=models.CASCADE, related_name="hints",
                              verbose_name=_("live table"))
    # the log's number of the action the hint preceded (the table's ``seq`` + 1 when asked),
    # and the same as the record counts it: the hand (1 to 5) and the action's index in it
    seq = models.PositiveIntegerField(_("before action"))
    hand = models.PositiveSmallIntegerField(_("hand"))
    index = models.PositiveIntegerField(_("action in hand"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    # the suggested action in the engine's text form, and its reason: the advice's English
    # template and values (games/bots/advice.py), translated when shown
    action = models.CharField(_("suggested action"), max_length=500)
    reason = models.JSONField(_("reason"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("hint")
        verbose_name_plural = _("hints")
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq", "seat"], name="live_hint_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} hint before #{self.seq}: {self.action}"


class FriendTable(models.Model):
    """A table a player (the host) opened for friends, waiting for them to take its seats
    (games/live/friends.py). It holds no deal and no game: those begin when it starts, as
    the live table ``table`` it becomes, so a waiting table can be neither played nor
    watched, and the live table's log stays the whole game."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for friends")
        STARTED = "started", _("started")
        # Nobody started it for ``LIVE_ABANDON_AFTER`` (games/live/limits.py).
        ABANDONED = "abandoned", _("abandoned")

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="hosted_friend_tables", verbose_name=_("host"))
    # The level of its bots, and of the bots that take the friends' seats nobody took.
    bot = models.CharField(_("bot level"), max_length=20)
    # Whether it starts by itself once every friend's seat is taken.
    auto_start = models.BooleanField(_("starts when every seat is taken"), default=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.WAITING)
    # Part of every seat's link, so a link names this table and no other ever given the
    # same number (a database rebuilt), whatever the signature says.
    key = models.CharField(_("link key"), max_length=32)
    # The game it became (set exactly when started).
    table = models.OneToOneField(LiveTable, on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="friend_table", verbose_name=_("live table"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # The last time someone took a seat (or its creation): a table nobody starts ends this
    # long after it (``limits.end_abandoned_tables``).
    active = models.DateTimeField(_("last seat taken"))
    # The game over whose people this table was offered to as a rematch (games/live/
    # rematch.py): its seats are theirs alone, taken by accepting on that game's page.
    rematch_of = models.OneToOneField(LiveTable, on_delete=models.CASCADE, null=True,
                                      blank=True, related_name="rematch",
                                      verbose_name=_("rematch of"))

    class Meta:
        verbose_name = _("friends' table")
        verbose_name_plural = _("friends' tables")
        constraints = [
            models.CheckConstraint(
                condition=Q(status="started", table__isnull=False)
                | (~Q(status="started") & Q(table__isnull=True)),
                name="friend_table_started_has_table"),
        ]
        indexes = [models.Index(fields=["active"], condition=Q(status="waiting"),
                                name="friend_table_waiting")]

    def __str__(self) -> str:
        return f"friends' table {self.pk}"


class FriendSeat(models.Model):
    """A seat of a waiting table: the host's, one kept for a friend (``user`` once someone
    took it), or a bot's."""

    class Kind(models.TextChoices):
        HOST = "host", _("host")
        FRIEND = "friend", _("friend")
        BOT = "bot", _("bot")

    friend_table = models.ForeignKey(FriendTable, on_delete=models.CASCADE,
                                     related_name="seats", verbose_name=_("friends' table"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    kind = models.CharField(_("kind"), max_length=6, choices=Kind.choices)
    # the host's (a deleted host takes the whole table along) or the friend's who took it
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="friend_seats", verbose_name=_("user"))

    class Meta:
        verbose_name = _("seat at a friends' table")
        verbose_name_plural = _("seats at friends' tables")
        ordering = ["friend_table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["friend_table", "seat"], name="friend_seat_once"),
            # one person, one seat per table
            models.UniqueConstraint(fields=["friend_table", "user"],
                                    name="friend_seat_one_per_person"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="friend_seat_0_to_3"),
            models.CheckConstraint(condition=~Q(kind="bot") | Q(user__isnull=True),
                                   name="friend_seat_bot_has_nobody"),
        ]

    def __str__(self) -> str:
        return f"{self.friend_table} seat {self.seat}"


class ChatMessage(models.Model):
    """A line said at a live table (games/live/chat.py), kept with the table: the people
    at it talk on ``table``, its spectators apart on ``spectators`` (the people do not read
    it while they play, so no spectator can tell them what they may not know)."""

    class Channel(models.TextChoices):
        TABLE = "table", _("the table")
        SPECTATORS = "spectators", _("spectators")

    table = models.ForeignKey(LiveTable, on_delete=models.CASCADE, related_name="chat",
                              verbose_name=_("live table"))
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="live_chat", verbose_name=_("user"))
    # the seat its author held (None: a spectator), which names them at the table
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    text = models.CharField(_("text"), max_length=300)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["table", "pk"]
        indexes = [
            # a connection's history (the last lines of its channel), and the rate limit's
            # count of a user's recent lines
            models.Index(fields=["table", "channel", "-id"], name="live_chat_history"),
            models.Index(fields=["user", "created"], name="live_chat_by_user"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, {self.get_channel_display()}: {self.text[:40]}"


class ChatReport(models.Model):
    """Someone's report of a chat message to the organisers (the admin lists them)."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports",
                                verbose_name=_("chat message"))
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="live_chat_reports", verbose_name=_("reported by"))
    created = models.DateTimeField(_("reported"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ["-created"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"],
                                               name="live_chat_report_once")]

    def __str__(self) -> str:
        return f"{self.reporter} reported {self.message}"
