"""Players entering by themselves: a request to enter a tournament with a partner, from the
ask to the place. An ``Entry`` (``core``) is made only when the team gets its place; until
then, and after a refusal or a withdrawal, the team is a request here
(``services.entries``)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .core import HANDLE_LENGTH, Player, Team, Tournament


class EntryRequest(models.Model):
    """A player's request to enter ``tournament`` with the partner whose handle they gave.

    Until the partner answers, the row holds only what the asker typed (``partner_handle``),
    whether or not a player has that handle, so that nothing stored tells the two apart;
    ``partner`` and ``team`` are set when the partner accepts. ``number`` is the team's
    place in the order of arrival (first come, first served), given when it is complete."""

    class State(models.TextChoices):
        ASKED = "asked", _("asked: the partner has not answered")
        DECLINED = "declined", _("declined by the partner")
        AWAITING = "awaiting", _("awaiting the organisers' approval")
        WAITING = "waiting", _("on the waiting list")
        ENTERED = "entered", _("entered")
        REFUSED = "refused", _("refused by the organisers")
        WITHDRAWN = "withdrawn", _("withdrawn")

    #: The states in which a request holds its players in the tournament.
    ACTIVE = (State.ASKED, State.AWAITING, State.WAITING, State.ENTERED)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="entry_requests", verbose_name=_("tournament"))
    asker = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+",
                              verbose_name=_("asked by"))
    partner_handle = models.CharField(_("partner's handle, as given"), max_length=HANDLE_LENGTH)
    partner = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True,
                                related_name="+", verbose_name=_("partner (once they answer)"))
    team = models.ForeignKey(Team, on_delete=models.PROTECT, null=True, blank=True,
                             related_name="+", verbose_name=_("team"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices,
                             default=State.ASKED)
    number = models.PositiveIntegerField(
        _("arrival"), null=True, blank=True,
        help_text=_("The team's place in the order of arrival: the waiting list moves up "
                    "in this order."))
    created = models.DateTimeField(_("asked"), auto_now_add=True)
    answered = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("entry request")
        verbose_name_plural = _("entry requests")
        ordering = ["-created", "-id"]
        constraints = [
            # the order of arrival is one line a tournament (given under its row's lock)
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="entry_request_number_once"),
            # a player asks once at a time a tournament (the service says why, in words)
            models.UniqueConstraint(fields=["tournament", "asker"],
                                    condition=Q(state__in=["asked", "awaiting", "waiting",
                                                           "entered"]),
                                    name="entry_request_one_active_a_player"),
        ]

    def __str__(self) -> str:
        return gettext("%(asker)s with @%(partner)s in %(tournament)s") % {
            "asker": self.asker.name, "partner": self.partner_handle,
            "tournament": self.tournament}
