"""The admin's entry requests: listed for the tournament's organisers only, approved or
refused by an action (the players told), and the entry settings in the tournament form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.models import Entry, EntryRequest, Notification, Tournament

from .entering import awaiting, enter_team, open_tournament, player_with_login
from .factories import UserFactory
from .test_admin import act, logged_in, said
from .test_admin_forms import new_tournament

pytestmark = pytest.mark.django_db


def test_an_organiser_approves_and_refuses_teams_awaiting_approval() -> None:
    organiser = UserFactory()
    tournament, (first, second) = awaiting(organiser)
    client = logged_in(organiser)

    approved = act(client, "entryrequest", "approve", first)
    refused = act(client, "entryrequest", "refuse", second)

    assert "entered" in said(approved) and "refused; its players are told" in said(refused)
    assert Entry.objects.get(tournament=tournament).team == first.team
    assert EntryRequest.objects.get(pk=second.pk).state == EntryRequest.State.REFUSED
    assert Notification.objects.filter(key=f"entry-request:{second.pk}:refused").count() == 2
    again = act(client, "entryrequest", "approve", first)
    assert "is not awaiting approval" in said(again)


def test_another_organisers_requests_are_neither_listed_nor_approved() -> None:
    tournament, (first, _second) = awaiting(UserFactory())
    other = logged_in(UserFactory())

    page = other.get(reverse("admin:tournaments_entryrequest_changelist"))
    assert page.status_code == 200 and tournament.name not in page.content.decode()
    act(other, "entryrequest", "approve", first)

    assert EntryRequest.objects.get(pk=first.pk).state == EntryRequest.State.AWAITING
    assert not Entry.objects.exists()


def test_the_tournament_form_has_the_entry_settings_and_checks_the_window() -> None:
    client = logged_in(UserFactory())
    page = client.get(reverse("admin:tournaments_tournament_add")).content.decode()
    for name in ("entry_mode", "entries_open_0", "entries_close_0", "capacity",
                 "waiting_list"):
        assert f'name="{name}"' in page

    response = new_tournament(client, [], entry_mode="open")

    assert "Players enter between two times: give both." in response.content.decode()
    assert not Tournament.objects.exists()


def test_raising_the_places_in_the_form_moves_waiting_teams_up() -> None:
    organiser = UserFactory()
    tournament = open_tournament(capacity=2, waiting_list=True, organisers=[organiser])
    teams = [enter_team(tournament, player_with_login(), player_with_login()) for _ in range(3)]
    client = logged_in(organiser)
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    form = client.get(url).context["adminform"].form
    data = {**{k: v for k, v in form.initial.items() if v is not None and k != "organisers"},
            "organisers": [organiser.pk], "capacity": 3,
            "entries_open_0": tournament.entries_open.strftime("%Y-%m-%d"),
            "entries_open_1": tournament.entries_open.strftime("%H:%M:%S"),
            "entries_close_0": tournament.entries_close.strftime("%Y-%m-%d"),
            "entries_close_1": tournament.entries_close.strftime("%H:%M:%S"),
            "waiting_list": "on", "tiebreaks_0": "score_diff", "tiebreaks_1": "buchholz",
            "entries-TOTAL_FORMS": "2", "entries-INITIAL_FORMS": "2",
            "absences-TOTAL_FORMS": "0", "absences-INITIAL_FORMS": "0",
            "forbidden_pairings-TOTAL_FORMS": "0", "forbidden_pairings-INITIAL_FORMS": "0"}
    for number, entry in enumerate(Entry.objects.filter(tournament=tournament)):
        data.update({f"entries-{number}-id": entry.pk, f"entries-{number}-team": entry.team_id,
                     f"entries-{number}-tournament": tournament.pk})
    data.pop("tiebreaks", None)
    data.pop("entries_open", None)
    data.pop("entries_close", None)
    data.pop("keep_apart_clubs", None)

    response = client.post(url, data, follow=True)

    assert "1 team moved up from the waiting list" in said(response)
    assert EntryRequest.objects.get(pk=teams[2].pk).state == EntryRequest.State.ENTERED
