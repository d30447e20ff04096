"""A tournament's round schedule: when its rounds start, when check-in opens and closes,
the hard deadline and what settles a table still played at it, and where the scheduler
stands (the next step and when it is due). The rule is ``tournaments.schedule`` (pure);
``services.schedule`` takes the steps."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.schedule import Settle, Step

from .core import Tournament


def valid_time_zone(name: str) -> None:
    """A zoneinfo name (``Europe/Helsinki``, ``UTC``), or the field says which it got."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationError(_("%(name)s is not a time zone: use a name such as "
                                "Europe/Helsinki or UTC.") % {"name": name}) from None


def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(available_timezones())]


class Schedule(models.Model):
    """When an online tournament's rounds are played, set once and then run by Celery beat
    (``tasks.schedule_tick``). Every time is stored in UTC; ``time_zone`` is the zone the
    organiser reads and writes them in."""

    class AtDeadline(models.TextChoices):
        BOTS = Settle.BOTS.value, _("bots finish the game at full speed")
        ADJUDICATE = Settle.ADJUDICATE.value, _(
            "the table is ended: the finished hands count, the others score 0-0")

    class NextStep(models.TextChoices):
        NONE = "", _("nothing")
        CHECK_IN = Step.CHECK_IN.value, _("open check-in")
        START = Step.START.value, _("pair, publish and open the round's tables")
        COMPLETE = Step.COMPLETE.value, _("complete the round when its tables are done")
        SETTLE = Step.SETTLE.value, _("settle the tables still played at the deadline")

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True,
                                      related_name="schedule", verbose_name=_("tournament"))
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[valid_time_zone],
        help_text=_("The zone the times below are given in, e.g. Europe/Helsinki; each "
                    "visitor sees them in their own."))
    starts_at = models.DateTimeField(_("starts at"),
                                     help_text=_("When round 1 starts (is paired and "
                                                 "published)."))
    round_times = models.JSONField(
        _("round times"), default=dict, blank=True,
        help_text=_("Rounds with a fixed time of their own: round number to its start (UTC). "
                    "Moving a round sets its time here."))
    interval_minutes = models.PositiveIntegerField(
        _("minutes between rounds"), null=True, blank=True, validators=[MaxValueValidator(
            7 * 24 * 60)],
        help_text=_("A round without a time of its own starts this long after the previous "
                    "round's last table finished. Empty: it waits for its time or for you."))
    check_in_opens_minutes = models.PositiveIntegerField(
        _("check-in opens (minutes before a round)"), null=True, blank=True,
        validators=[MaxValueValidator(7 * 24 * 60)],
        help_text=_("With players must check in: each round's window opens this long before "
                    "it starts, and its players are told. Empty: no windows."))
    check_in_closes_minutes = models.PositiveIntegerField(
        _("check-in closes (minutes before a round)"), default=0,
        validators=[MaxValueValidator(7 * 24 * 60)])
    round_minutes = models.PositiveIntegerField(
        _("hard deadline (minutes after a round starts)"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(7 * 24 * 60)],
        help_text=_("A table still played this long after its round started is settled as "
                    "chosen below. Empty: no deadline."))
    at_deadline = models.CharField(_("at the deadline"), max_length=12,
                                   choices=AtDeadline.choices, default=AtDeadline.BOTS)
    paused = models.BooleanField(_("paused"), default=False,
                                 help_text=_("Nothing runs by itself while paused; rounds "
                                             "already being played go on."))
    # where the scheduler stands (services.schedule writes these under the tournament's lock)
    next_step = models.CharField(_("next step"), max_length=12, choices=NextStep.choices,
                                 blank=True, editable=False)
    next_round = models.PositiveSmallIntegerField(_("round of the next step"), default=0,
                                                  editable=False)
    next_step_at = models.DateTimeField(_("next step at"), null=True, blank=True,
                                        editable=False)
    check_in_round = models.PositiveSmallIntegerField(
        _("check-in opened for round"), default=0, editable=False)
    settled_round = models.PositiveSmallIntegerField(
        _("round settled at its deadline"), default=0, editable=False)
    published_at = models.DateTimeField(_("round being played started at"), null=True,
                                        blank=True, editable=False)
    last_error = models.TextField(_("last failed step"), blank=True, editable=False)
    # a tick handed the next step to a worker then (None: nobody has it); the step's own
    # transaction clears it
    under_way_since = models.DateTimeField(_("next step under way since"), null=True,
                                           blank=True, editable=False)

    class Meta:
        verbose_name = _("schedule")
        verbose_name_plural = _("schedules")
        # the tick's one question: which steps are due (never the paused or finished ones)
        indexes = [models.Index(fields=["next_step_at"], name="schedule_due",
                                condition=Q(next_step_at__isnull=False))]

    def __str__(self) -> str:
        return str(self.tournament)

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)
