"""Entering with a partner on the site: the tournament page's entry section and its form,
the partner's page reached from their notification, the player's page, withdrawing."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.entering import open_tournament, player_with_login, stored
from tests.tournaments.factories import UserFactory
from tournaments.models import Entry, EntryRequest, Notification, Tournament

from .test_markup import Audit

pytestmark = pytest.mark.django_db


def logged_in(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def without_tokens(page: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def test_a_asks_b_and_b_accepts_from_the_link_in_the_notification() -> None:
    tournament = open_tournament(capacity=8, waiting_list=True)
    (aino, aino_user), (bo, bo_user) = player_with_login("Aino"), player_with_login("Bo")
    a, b = logged_in(aino_user), logged_in(bo_user)
    page = reverse("tournaments:tournament_detail", args=[tournament.pk])

    before = text(a.get(page))
    assert "Enter with a partner" in before and "Places taken: 0 of 8." in before

    asked = a.post(reverse("tournaments:tournament_enter", args=[tournament.pk]),
                   {"partner": bo.handle})
    assert asked.status_code == 302 and asked["Location"] == page + "#entry"
    assert f"You asked @{bo.handle} to enter with you" in text(a.get(page))
    own_page = text(a.get(reverse("tournaments:player_detail", args=[aino.pk])))
    assert f"you asked @{bo.handle}; no answer yet" in own_page
    assert "no answer yet" not in text(Client().get(reverse("tournaments:player_detail",
                                                            args=[aino.pk])))

    told = Notification.objects.get(user=bo_user)
    assert told.kind == Notification.Kind.PARTNER_ASKS
    assert "Aino asks you to enter" in text(b.get(reverse("tournaments:player_detail",
                                                          args=[bo.pk])))
    ask_page = b.get(told.link)
    assert ask_page.status_code == 200
    assert f"Aino (@{aino.handle}) asks you to enter {tournament.name}" in text(ask_page)

    answered = b.post(told.link, {"answer": "accept"})
    assert answered.status_code == 302
    assert "This request is answered: entered." in text(b.get(told.link))
    assert Entry.objects.get(tournament=tournament).team.name == "Aino & Bo"
    assert "Your team is entered." in text(a.get(page))
    assert "Aino &amp; Bo" in text(a.get(page))
    for user in (aino_user, bo_user):
        kinds = set(Notification.objects.filter(user=user).values_list("kind", flat=True))
        assert Notification.Kind.ENTRY in kinds
    assert set(Notification.objects.filter(user=bo_user).values_list("kind", flat=True)) == {
        Notification.Kind.PARTNER_ASKS, Notification.Kind.ENTRY}

    # once only
    again = b.post(told.link, {"answer": "decline"})
    assert again.status_code == 400 and "answered or withdrawn already" in text(again)


def test_a_handle_nobody_has_gets_the_same_answer_as_one_somebody_has() -> None:
    tournament = open_tournament()
    (_aino, aino_user), (bo, _bo_user) = player_with_login(), player_with_login()
    (_cai, cai_user) = player_with_login()
    url = reverse("tournaments:tournament_enter", args=[tournament.pk])
    page = reverse("tournaments:tournament_detail", args=[tournament.pk])

    real = logged_in(aino_user).post(url, {"partner": bo.handle})
    ghost = logged_in(cai_user).post(url, {"partner": "nobody-has-this"})

    assert (real.status_code, real["Location"]) == (ghost.status_code, ghost["Location"])
    shown_real = without_tokens(text(logged_in(aino_user).get(page))).replace(bo.handle, "H")
    shown_ghost = without_tokens(text(logged_in(cai_user).get(page))).replace(
        "nobody-has-this", "H")
    section = re.compile(r'<section id="entry".*?</section>')
    assert section.search(shown_real)[0] == section.search(shown_ghost)[0]  # type: ignore[index]


def test_a_refusal_is_shown_beside_the_form_and_stores_nothing() -> None:
    tournament = open_tournament()
    aino, aino_user = player_with_login()
    before = stored(tournament)

    answer = logged_in(aino_user).post(
        reverse("tournaments:tournament_enter", args=[tournament.pk]), {"partner": aino.handle})

    assert answer.status_code == 400
    assert "You cannot enter with yourself" in text(answer)
    assert 'role="alert"' in text(answer)
    assert stored(tournament) == before


def test_nobody_but_the_named_partner_opens_the_answer_page() -> None:
    tournament = open_tournament()
    (aino, aino_user), (bo, bo_user) = player_with_login(), player_with_login()
    ask = EntryRequest.objects.create(tournament=tournament, asker=aino,
                                      partner_handle=bo.handle)
    link = reverse("tournaments:entry_request", args=[ask.pk])

    for stranger in (player_with_login()[1], aino_user, UserFactory()):
        for answer in (logged_in(stranger).get(link),
                       logged_in(stranger).post(link, {"answer": "accept"})):
            assert answer.status_code == 403
            assert "only the partner it names may answer it" in text(answer)
    assert Client().get(link).status_code == 302  # to the login page
    missing = logged_in(bo_user).get(reverse("tournaments:entry_request", args=[ask.pk + 99]))
    assert missing.status_code == 404
    assert EntryRequest.objects.get(pk=ask.pk).state == EntryRequest.State.ASKED


def test_an_answer_that_is_neither_is_refused() -> None:
    tournament = open_tournament()
    (aino, _aino_user), (bo, bo_user) = player_with_login(), player_with_login()
    ask = EntryRequest.objects.create(tournament=tournament, asker=aino,
                                      partner_handle=bo.handle)
    answer = logged_in(bo_user).post(reverse("tournaments:entry_request", args=[ask.pk]),
                                     {"answer": "perhaps"})
    assert answer.status_code == 400 and "Choose Accept or Decline." in text(answer)
    assert EntryRequest.objects.get(pk=ask.pk).state == EntryRequest.State.ASKED


def test_the_forms_need_their_csrf_token() -> None:
    tournament = open_tournament()
    (_aino, aino_user), (bo, _bo_user) = player_with_login(), player_with_login()
    client = logged_in(aino_user, enforce_csrf_checks=True)
    page = text(client.get(reverse("tournaments:tournament_detail", args=[tournament.pk])))
    assert 'name="csrfmiddlewaretoken"' in page

    answer = client.post(reverse("tournaments:tournament_enter", args=[tournament.pk]),
                         {"partner": bo.handle})

    assert answer.status_code == 403 and not EntryRequest.objects.exists()


def test_withdrawing_from_the_tournament_page() -> None:
    tournament = open_tournament()
    (_aino, aino_user), (bo, bo_user) = player_with_login(), player_with_login()
    a = logged_in(aino_user)
    a.post(reverse("tournaments:tournament_enter", args=[tournament.pk]), {"partner": bo.handle})
    ask = EntryRequest.objects.get()
    logged_in(bo_user).post(reverse("tournaments:entry_request", args=[ask.pk]),
                            {"answer": "accept"})
    page = text(a.get(reverse("tournaments:tournament_detail", args=[tournament.pk])))
    assert "Withdraw your team" in page

    a.post(reverse("tournaments:tournament_withdraw", args=[tournament.pk]))

    assert not Entry.objects.exists()
    assert EntryRequest.objects.get().state == EntryRequest.State.WITHDRAWN
    again = a.post(reverse("tournaments:tournament_withdraw", args=[tournament.pk]))
    assert again.status_code == 400 and "You have no entry or request" in text(again)


def test_the_entry_section_for_the_logged_out_and_the_invite_only() -> None:
    tournament = open_tournament(capacity=4, waiting_list=True)
    page = text(Client().get(reverse("tournaments:tournament_detail", args=[tournament.pk])))
    assert "Log in to enter with a partner" in page
    assert "0 teams on the waiting list." in page
    invite_only = open_tournament(entry_mode=Tournament.EntryMode.INVITE)
    page = text(Client().get(reverse("tournaments:tournament_detail", args=[invite_only.pk])))
    assert 'id="entry"' not in page


def test_the_entry_pages_are_well_formed() -> None:
    tournament = open_tournament()
    (aino, aino_user), (bo, bo_user) = player_with_login(), player_with_login()
    ask = EntryRequest.objects.create(tournament=tournament, asker=aino,
                                      partner_handle=bo.handle)
    for client, url in (
            (logged_in(aino_user), reverse("tournaments:tournament_detail", args=[tournament.pk])),
            (logged_in(bo_user), reverse("tournaments:entry_request", args=[ask.pk])),
            (logged_in(bo_user), reverse("tournaments:player_detail", args=[bo.pk]))):
        audit = Audit()
        audit.feed(client.get(url).content.decode())
        assert audit.h1 == 1
        assert not [i for i, n in audit.ids.items() if n > 1]
        assert all(c in audit.labels for c in audit.controls if c)


def test_the_entry_window_reads_as_dates_and_times_with_their_zone() -> None:
    # in the settings' zone, 24-hour clock: "… 4 p.m.." was what an English date format
    # ending a sentence read like
    tournament = open_tournament(entries_open=datetime(2026, 12, 1, 16, 0, tzinfo=UTC),
                                 entries_close=datetime(2026, 12, 20, 21, 30, tzinfo=UTC))
    page = text(Client().get(reverse("tournaments:tournament_detail", args=[tournament.pk])))
    opens = timezone.localtime(tournament.entries_open).strftime("%Y-%m-%d %H:%M")
    closes = timezone.localtime(tournament.entries_close).strftime("%Y-%m-%d %H:%M")
    assert (f"Teams enter themselves from {opens} to {closes} "
            f"({timezone.get_current_timezone_name()}).") in page
