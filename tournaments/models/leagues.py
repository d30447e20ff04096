"""What spans tournaments: leagues with their seasons, a season's divisions (one tournament
each, ranked by level) or its series of events (ranked on a table of points per place), and
the clubs players and teams belong to, with the pairings an organiser forbids."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .core import Team, Tournament


class League(models.Model):
    """An organiser's league: its seasons follow one another, and at the end of each the top
    teams of a division go up one and the bottom teams down one."""

    name = models.CharField(_("name"), max_length=200, unique=True,
                            error_messages={"unique": _("There is already a league of this name.")})
    slug = models.SlugField(_("address"), max_length=60, unique=True,
                            help_text=_("The league's page is /leagues/<address>/."))
    description = models.TextField(_("description"), blank=True)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="leagues",
                                        blank=True, verbose_name=_("organisers"))
    promote = models.PositiveSmallIntegerField(
        _("teams promoted"), default=2,
        help_text=_("How many of each division's top teams go up a division after a season."))
    relegate = models.PositiveSmallIntegerField(
        _("teams relegated"), default=2,
        help_text=_("How many of each division's bottom teams go down a division."))

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


def default_place_points() -> list[int]:
    """The points for places 1 to 10 when the organiser sets none (those of motor racing:
    a win is worth a little more than two seconds)."""
    return [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


class Season(models.Model):
    """One season of a league: divisions played side by side, or a series of events."""

    class Kind(models.TextChoices):
        DIVISIONS = "divisions", _("divisions (one tournament each, teams go up and down)")
        SERIES = "series", _("a series of events ranked on points per place")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft (the organiser may still change its divisions)")
        CURRENT = "current", _("current")
        FINISHED = "finished", _("finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons",
                               verbose_name=_("league"))
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices,
                            default=Kind.DIVISIONS)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.CURRENT)
    place_points = models.JSONField(
        _("points per place"), default=default_place_points, blank=True,
        help_text=_("A series: the points for 1st, 2nd, 3rd ... place, as a list "
                    "(e.g. [10, 7, 5, 3, 1]); places further down score nothing."))
    best_of = models.PositiveSmallIntegerField(
        _("events that count"), null=True, blank=True,
        help_text=_("A series: only each team's and player's best N events count. "
                    "Empty: all of them."))

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-number"]
        constraints = [models.UniqueConstraint(
            fields=["league", "number"], name="season_number_once",
            violation_error_message=_("This league already has a season of this number."))]

    def __str__(self) -> str:
        return f"{self.league} · {self.name}"

    def clean(self) -> None:
        points = self.place_points
        if not isinstance(points, list) or not all(
                isinstance(p, int | float) and not isinstance(p, bool) and p >= 0
                for p in points):
            raise ValidationError({"place_points": _(
                "A list of points, 1st place first, each a number of 0 or more: "
                "[10, 7, 5, 3, 1].")})
        if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
            raise ValidationError({"place_points": _(
                "A better place cannot score fewer points than a worse one.")})
        if self.best_of == 0:
            raise ValidationError({"best_of": _("At least one event must count.")})

    def points_for(self) -> list[Decimal]:
        return [Decimal(str(p)) for p in self.place_points]


class Division(models.Model):
    """A division of a season: one tournament; level 1 is the top division."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions",
                               verbose_name=_("season"))
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE,
                                      related_name="division", verbose_name=_("tournament"))
    level = models.PositiveSmallIntegerField(_("level"), help_text=_("1 is the top division."))

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["season", "level"]
        constraints = [models.UniqueConstraint(
            fields=["season", "level"], name="division_level_once",
            violation_error_message=_("This season already has a division at this level."))]

    def __str__(self) -> str:
        return str(self.tournament)


class SeriesEvent(models.Model):
    """An event of a series season: one tournament, whose final places score points."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="events",
                               verbose_name=_("season"))
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE,
                                      related_name="series_event", verbose_name=_("tournament"))

    class Meta:
        verbose_name = _("series event")
        verbose_name_plural = _("series events")
        ordering = ["season", "tournament__starts_on", "tournament_id"]

    def __str__(self) -> str:
        return str(self.tournament)


class Club(models.Model):
    """A club a player or a team belongs to; an organiser may keep a club's teams apart."""

    name = models.CharField(_("name"), max_length=100, unique=True,
                            error_messages={"unique": _("There is already a club of this name.")})

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ForbiddenPairing(models.Model):
    """Two teams the organiser asks the draw to keep apart in one tournament (siblings,
    a couple): Swiss pairs them only when no draw keeps them apart, and says so."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="forbidden_pairings",
                                   verbose_name=_("tournament"))
    team_a = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("team"))
    team_b = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("and team"))

    class Meta:
        verbose_name = _("pairing to avoid")
        verbose_name_plural = _("pairings to avoid")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "team_a", "team_b"], name="forbidden_pairing_once",
                violation_error_message=_("These two teams are already kept apart here.")),
            models.CheckConstraint(
                condition=~Q(team_a=models.F("team_b")), name="forbidden_pairing_two_teams",
                violation_error_message=_("Choose two different teams.")),
        ]

    def __str__(self) -> str:
        return f"{self.team_a} ≠ {self.team_b}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # one order for the pair, so that (a, b) and (b, a) are the same row
        if self.team_a_id and self.team_b_id and self.team_a_id > self.team_b_id:
            self.team_a_id, self.team_b_id = self.team_b_id, self.team_a_id
        super().save(*args, **kwargs)
