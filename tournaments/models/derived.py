"""Rows derived from the results (standings, rating history), rebuilt whole at any time by
``services.derived``."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.ratings import Rating

from .core import Match, Player, Team, Tournament


class Standing(models.Model):
    """Derived: a team's line in the standings after ``round_number`` (0 = current)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="standings", verbose_name=_("tournament"))
    round_number = models.PositiveSmallIntegerField(_("after round"))
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("team"))
    rank = models.PositiveIntegerField(_("rank"))
    points = models.DecimalField(_("points"), max_digits=6, decimal_places=1)
    played = models.PositiveIntegerField(_("matches played"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    byes = models.PositiveIntegerField(_("byes"), default=0)
    values = models.JSONField(_("tie-break values"), default=dict)

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        ordering = ["tournament", "round_number", "rank", "team_id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "round_number", "team"],
                                               name="standing_once")]

    def __str__(self) -> str:
        if self.round_number:
            return gettext("%(rank)d. %(team)s (after round %(number)d)") % {
                "rank": self.rank, "team": self.team, "number": self.round_number}
        return gettext("%(rank)d. %(team)s (now)") % {"rank": self.rank, "team": self.team}


class RatingEntry(models.Model):
    """Derived: a player's rating after a match (the history behind their rating chart)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history",
                               verbose_name=_("player"))
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+",
                              verbose_name=_("match"))
    mu = models.FloatField(_("μ (mean)"))
    sigma = models.FloatField(_("σ (uncertainty)"))

    class Meta:
        verbose_name = _("rating entry")
        verbose_name_plural = _("rating entries")
        ordering = ["player", "id"]
        constraints = [models.UniqueConstraint(fields=["player", "match"], name="rating_once")]

    def __str__(self) -> str:
        return f"{self.player}: {Rating(self.mu, self.sigma)}"
