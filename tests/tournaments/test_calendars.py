"""Calendar feeds: a tournament's, a league's (drafts left out) and a person's own at a
private address they can replace; each one a calendar that icalendar reads back."""

from __future__ import annotations

from datetime import date

import icalendar
import pytest
from django.test import Client

from tournaments.models import CalendarKey, Division, Entry, Season
from tournaments.services.calendars import calendar_key_renew

from .factories import PlayerFactory, TeamFactory, TournamentFactory, UserFactory
from .leagues import league_with_divisions

pytestmark = pytest.mark.django_db


def events(response) -> dict[str, icalendar.Event]:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = icalendar.Calendar.from_ical(response.content)
    return {str(event["summary"]): event for event in calendar.walk("VEVENT")}


def test_a_tournaments_calendar_holds_its_days() -> None:
    tournament = TournamentFactory(starts_on=date(2027, 3, 1), ends_on=date(2027, 3, 2))
    found = events(Client().get(f"/tournaments/{tournament.pk}/calendar.ics"))
    event = found[tournament.name]
    assert event.decoded("dtstart") == date(2027, 3, 1)
    assert event.decoded("dtend") == date(2027, 3, 3)  # the day after the last, RFC 5545
    assert str(event["url"]).endswith(f"/tournaments/{tournament.pk}/")
    undated = TournamentFactory()
    assert events(Client().get(f"/tournaments/{undated.pk}/calendar.ics")) == {}


def test_a_leagues_calendar_holds_the_tournaments_of_its_public_seasons() -> None:
    league, season, _teams, _organiser = league_with_divisions([2], play=False)
    shown = season.divisions.get().tournament
    shown.starts_on = date(2027, 1, 5)
    shown.save()
    draft = Season.objects.create(league=league, number=2, name="Draft",
                                  status=Season.Status.DRAFT)
    Division.objects.create(season=draft, level=1, tournament=TournamentFactory(
        starts_on=date(2027, 6, 1)))
    assert set(events(Client().get(f"/leagues/{league.slug}/calendar.ics"))) == {shown.name}


def test_a_persons_calendar_is_at_a_secret_address_they_can_replace() -> None:
    user = UserFactory(is_staff=False)
    player = PlayerFactory(user=user)
    mine = TournamentFactory(starts_on=date(2027, 2, 1))
    Entry.objects.create(tournament=mine, team=TeamFactory(player_a=player), seed=1)
    TournamentFactory(starts_on=date(2027, 2, 1))  # not theirs
    client = Client()
    client.force_login(user)
    assert "Make my calendar address" in client.get(f"/players/{player.pk}/").content.decode()
    assert client.get("/calendar/renew/").status_code == 405  # a write is a POST
    client.post("/calendar/renew/")
    token = CalendarKey.objects.get(user=user).token
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert f"/calendar/{token}.ics" in page
    assert set(events(Client().get(f"/calendar/{token}.ics"))) == {mine.name}
    renewed = calendar_key_renew(user=user).token
    assert renewed != token
    gone = Client().get(f"/calendar/{token}.ics")
    assert gone.status_code == 404
    assert set(events(Client().get(f"/calendar/{renewed}.ics"))) == {mine.name}
    # someone else's page offers no calendar; anonymous renewal asks to log in
    assert "Your calendar" not in Client().get(f"/players/{player.pk}/").content.decode()
    assert Client().post("/calendar/renew/").status_code == 302
