"""Robot duplicate events: each entrant plays the event's five boards at a live table of its
own, with bots in the other seats, within a window the organisers set, and is ranked on
matchpoints against everyone who held the same seats (``services``).

The bots play every other seat identically at every table (the same level, and their
randomness drawn from the deals and the turn, ``games.live.service``), so the only
difference between tables is the person (or the pair).

The tables keep the names they had when these models were part of ``tournaments``
(``Meta.db_table``): the app was split out of it without moving a row (migrations
``tournaments.0025`` and this app's ``0001``)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import BOT_LEVELS, new_deal_seed

#: The kind of live table an entrant plays at (``LiveTable.reports_to``).
ROBOT_TABLE_KIND = "robot-duplicate"


class RobotEvent(models.Model):
    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", _("individual: one person (seat 0) and three bots")
        PAIRS = "pairs", _("pairs: two partners (seats 0 and 2) and two bots")

    class BotBoards(models.TextChoices):
        PLAYED = "played", _("as played")
        NOT_PLAYED = "not_played", _("as not played (scaled as a table that did not finish)")

    name = models.CharField(_("name"), max_length=200, unique=True)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="robot_events",
                                        verbose_name=_("organisers"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices,
                            default=Kind.INDIVIDUAL)
    opens = models.DateTimeField(_("opens"), help_text=_("From then on, entrants may play."))
    closes = models.DateTimeField(
        _("closes"), help_text=_("No table starts after this; the boards and the ranking are "
                                 "shown once it has passed and every table has finished."))
    bot_level = models.CharField(_("bot level"), max_length=10, choices=BOT_LEVELS,
                                 default="greedy",
                                 help_text=_("The bots of every other seat, and the "
                                             "substitute of a person who leaves."))
    bot_boards = models.CharField(
        _("a board a bot finished for a person"), max_length=10, choices=BotBoards.choices,
        default=BotBoards.PLAYED,
        help_text=_("A person who leaves mid-game has a bot finish it; the boards the bot "
                    "finished are marked, and scored as played or as not played."))
    turn_seconds = models.PositiveIntegerField(
        _("time per turn (seconds)"), null=True, blank=True, default=60,
        validators=[MinValueValidator(5)], help_text=_("Empty: no clock."))
    grace_seconds = models.PositiveIntegerField(
        _("substitute after (seconds)"), null=True, blank=True, default=60,
        validators=[MinValueValidator(30)],
        help_text=_("A person whose connection is gone this long gets a bot for the turns "
                    "they miss. Empty: never."))
    # the boards every table is dealt (duplicate.boards_from_seed); never shown while open
    seed = models.BigIntegerField(_("boards' seed"), default=new_deal_seed, editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "tournaments_robotevent"  # its name from before the app was split out
        verbose_name = _("robot duplicate event")
        verbose_name_plural = _("robot duplicate events")
        ordering = ["-opens", "-id"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.opens and self.closes and self.closes <= self.opens:
            raise ValidationError({"closes": _("An event closes after it opens.")})

    def is_open(self, now: datetime) -> bool:
        return self.opens <= now < self.closes


class RobotEntry(models.Model):
    """One entrant's table: ``player`` holds seat 0 (and ``partner`` seat 2 in a pairs
    event); its hand scores and which boards a bot finished are stored when it ends.

    In a pairs event the entry starts as the player's invitation (``awaiting_partner``, no
    table): the partner accepts it, and only then is the table dealt, or refuses it, and the
    entry goes. Nobody can use up another person's one play by naming them."""

    event = models.ForeignKey(RobotEvent, on_delete=models.CASCADE, related_name="entries",
                              verbose_name=_("event"))
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="robot_entries", verbose_name=_("player"))
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                                blank=True, related_name="+", verbose_name=_("partner"))
    live_table = models.OneToOneField("live.LiveTable", on_delete=models.SET_NULL, null=True,
                                      blank=True, related_name="+",
                                      verbose_name=_("live table"))
    awaiting_partner = models.BooleanField(
        _("awaiting the partner's answer"), default=False,
        help_text=_("The partner has been invited and has not yet accepted."))
    started = models.DateTimeField(_("started"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    hand_scores = models.JSONField(_("hand scores"), default=list, blank=True,
                                   help_text=_("[[seats 0 and 2, seats 1 and 3], ...] per hand"))
    bot_hands = models.JSONField(_("boards a bot finished"), default=list, blank=True,
                                 help_text=_("per hand: whether a bot finished it for a person"))
    record = models.JSONField(_("game record"), null=True, blank=True,
                              help_text=_("push-record/1, as the live table wrote it"))

    class Meta:
        db_table = "tournaments_robotentry"  # as the event's
        verbose_name = _("robot duplicate entry")
        verbose_name_plural = _("robot duplicate entries")
        ordering = ["event", "id"]
        # nobody plays the boards twice: once as the player (or one invitation out), once as
        # an accepted partner at most; a person may be invited by several until one accepts
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="robot_entry_once"),
            models.UniqueConstraint(fields=["event", "partner"],
                                    condition=Q(partner__isnull=False, awaiting_partner=False),
                                    name="robot_partner_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player}" + (f" & {self.partner}" if self.partner else "")
