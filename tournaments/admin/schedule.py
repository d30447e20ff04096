"""An online tournament's schedule in the admin: set on the tournament's page (an inline,
its times read and written in the schedule's own time zone), and run from the console
(pause or resume it, take its next step now, move a round).

The times an organiser types are in the schedule's time zone whatever the admin's own; they
are stored in UTC (``Schedule``). The console's buttons post to the console's one view,
which calls one service each (``services.schedule_*``)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import services
from tournaments.models import Schedule, Tournament
from tournaments.models.schedule import valid_time_zone
from tournaments.selectors import tournament_schedule

from .scoping import ScopedInline

LOCAL = "%Y-%m-%d %H:%M"
ROUND_LINE = re.compile(r"^\s*(\d{1,2})\s*:\s*(\S+\s+\S+)\s*$")


def in_zone(moment: datetime | None, zone_name: str) -> str:
    """``moment`` as the schedule's zone reads it (``2026-12-07 18:00 Europe/Helsinki``)."""
    if moment is None:
        return "—"
    try:
        zone = ZoneInfo(zone_name)
    except (KeyError, ValueError):
        zone = ZoneInfo("UTC")
    return f"{date_format(moment.astimezone(zone), 'Y-m-d H:i')} {zone_name}"


def local_time(text: str, zone_name: str) -> datetime | None:
    """``YYYY-MM-DD HH:MM`` in the zone, aware (None: not such a time)."""
    try:
        naive = datetime.strptime(text.strip(), LOCAL)
    except ValueError:
        return None
    return naive.replace(tzinfo=ZoneInfo(zone_name))


class ScheduleForm(forms.ModelForm[Schedule]):
    """The times in the schedule's time zone, as text (``2026-12-07 18:00``), whatever the
    admin's own zone is."""

    start = forms.CharField(label=_("starts at (in its time zone)"),
                            help_text=_("YYYY-MM-DD HH:MM, e.g. 2026-12-07 18:00: when round 1 "
                                        "is paired, published and its tables opened."))
    rounds = forms.CharField(
        label=_("rounds with a time of their own"), required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One a line, round: time, e.g. “2: 2026-12-07 19:30” (in its time zone). "
                    "The others follow the minutes between rounds."))

    class Meta:
        model = Schedule
        fields = ["time_zone", "interval_minutes", "check_in_opens_minutes",
                  "check_in_closes_minutes", "round_minutes", "at_deadline", "paused"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        schedule = self.instance
        if schedule.pk and schedule.starts_at:
            zone = ZoneInfo(schedule.time_zone)
            self.initial["start"] = schedule.starts_at.astimezone(zone).strftime(LOCAL)
            self.initial["rounds"] = "\n".join(
                f"{number}: {datetime.fromisoformat(at).astimezone(zone).strftime(LOCAL)}"
                for number, at in sorted((schedule.round_times or {}).items(),
                                         key=lambda item: int(item[0])))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        zone = data.get("time_zone") or ""
        try:
            valid_time_zone(zone)
        except forms.ValidationError:
            return data  # the field says so
        start = local_time(data.get("start", ""), zone)
        if start is None:
            self.add_error("start", gettext("Give the start as YYYY-MM-DD HH:MM, e.g. "
                                            "2026-12-07 18:00."))
        else:
            self.instance.starts_at = start.astimezone(ZoneInfo("UTC"))
        times = {}
        for number, line in enumerate((data.get("rounds") or "").splitlines(), start=1):
            if not line.strip():
                continue
            found = ROUND_LINE.match(line)
            at = local_time(found.group(2), zone) if found else None
            if found is None or at is None or int(found.group(1)) < 1:
                self.add_error("rounds", gettext(
                    "Line %(line)d, “%(text)s”: write a round and its time, e.g. "
                    "“2: 2026-12-07 19:30”.") % {"line": number, "text": line.strip()[:40]})
                continue
            times[found.group(1)] = at.astimezone(ZoneInfo("UTC")).isoformat()
        self.instance.round_times = times
        tournament = getattr(self.instance, "tournament", None)
        if tournament is not None and tournament.play != Tournament.Play.ONLINE:
            raise forms.ValidationError(gettext(
                "Only an online tournament runs on a schedule: set “played” to online first."))
        return data


class ScheduleInline(ScopedInline[Schedule, Tournament],
                     admin.StackedInline[Schedule, Tournament]):
    model = Schedule
    form = ScheduleForm
    max_num = 1
    extra = 0
    verbose_name_plural = _("schedule (online: rounds run by themselves)")
    fields = ["time_zone", "start", "rounds", "interval_minutes", "check_in_opens_minutes",
              "check_in_closes_minutes", "round_minutes", "at_deadline", "paused",
              "where_it_stands"]
    readonly_fields = ["where_it_stands"]

    @admin.display(description=_("where it stands"))
    def where_it_stands(self, schedule: Schedule) -> str:
        return schedule_status(schedule) if schedule.pk else "—"


def schedule_status(schedule: Schedule) -> str:
    """The schedule's next step in words, with its time in the schedule's zone."""
    if schedule.paused:
        said = gettext("Paused: nothing runs by itself until it is resumed.")
    elif not schedule.next_step:
        said = gettext("Nothing more to run: every round is played.")
    elif schedule.under_way_since is not None:
        said = gettext("Round %(number)d, %(step)s: under way since %(time)s (a worker is "
                       "taking it).") % {
            "number": schedule.next_round,
            "step": Schedule.NextStep(schedule.next_step).label,
            "time": in_zone(schedule.under_way_since, schedule.time_zone)}
    elif schedule.next_step_at is None:
        said = gettext("Round %(number)d waits for a time (move it) or for you (run it now).") \
            % {"number": schedule.next_round}
    else:
        said = gettext("Next: round %(number)d, %(step)s, at %(time)s.") % {
            "number": schedule.next_round,
            "step": Schedule.NextStep(schedule.next_step).label,
            "time": in_zone(schedule.next_step_at, schedule.time_zone)}
    if schedule.last_error:
        said += " " + gettext("The last try failed: %(error)s") % {"error": schedule.last_error}
    return said


def save_schedule(request: HttpRequest, schedule: Schedule) -> None:
    """An inline's schedule saved through the service (which plans its next step)."""
    services.schedule_save(schedule=schedule, user=request.user)


#: The console's schedule buttons: their step names.
SCHEDULE_STEPS = {"schedule_pause", "schedule_resume", "schedule_run", "schedule_move"}


def schedule_step(step: str, tournament: Tournament, request: HttpRequest) -> str:
    """Take one of the console's schedule steps; what was done, in words."""
    user = request.user
    if step in ("schedule_pause", "schedule_resume"):
        paused = step == "schedule_pause"
        services.schedule_pause(tournament=tournament, paused=paused, user=user)
        return gettext("The schedule is paused.") if paused else \
            gettext("The schedule runs again.")
    if step == "schedule_run":
        return services.schedule_run_now(tournament=tournament, user=user)
    schedule = tournament_schedule(tournament)
    if schedule is None:
        raise services.TournamentUserError(gettext("%(tournament)s has no schedule") % {
            "tournament": tournament})
    number = request.POST.get("number", "").strip()
    at = local_time(request.POST.get("at", "").replace("T", " "), schedule.time_zone)
    if not number.isdigit() or len(number) > 2 or at is None:
        raise services.TournamentUserError(gettext(
            "choose a round and its new time as YYYY-MM-DD HH:MM (in %(zone)s)") % {
                "zone": schedule.time_zone})
    services.schedule_move_round(tournament=tournament, number=int(number), at=at, user=user)
    return gettext("Round %(number)s now starts at %(time)s.") % {
        "number": number, "time": in_zone(at, schedule.time_zone)}


def schedule_context(tournament: Tournament) -> dict[str, Any]:
    """What the console shows of the schedule (nothing for a tournament without one)."""
    schedule = tournament_schedule(tournament)
    if schedule is None:
        return {"schedule": None}
    return {"schedule": schedule, "schedule_status": schedule_status(schedule),
            "schedule_zone": schedule.time_zone,
            "schedule_now": timezone.now().astimezone(schedule.zone).strftime("%Y-%m-%dT%H:%M")}
