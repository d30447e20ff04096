"""Notifications in the site: written once a user and key, listed newest first, marked read
(all at once, or one by opening it), and counted in every page's header for a logged-in
person with one query (none for a visitor)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournaments.models import Notification
from tournaments.services.notices import Notice, notify, notify_each

from .factories import UserFactory

pytestmark = pytest.mark.django_db

READY = Notification.Kind.TABLE_READY
PARAMS = {"tournament": "Spring cup", "round": 1, "table": 2}


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_step_told_twice_tells_each_person_once() -> None:
    alice, bob = UserFactory(), UserFactory()
    assert len(notify([alice, bob.pk], READY, "table:1", params=PARAMS)) == 2
    assert notify([alice, bob], READY, "table:1", params=PARAMS) == []
    assert len(notify([alice], READY, "table:2", params=PARAMS)) == 1
    assert Notification.objects.filter(user=alice).count() == 2
    assert Notification.objects.filter(user=bob).count() == 1


def test_notices_each_with_its_own_words_are_written_in_a_few_queries() -> None:
    users = [UserFactory() for _ in range(8)]
    notices = [Notice(user.pk, READY, f"table:{n // 4}", {**PARAMS, "table": n // 4 + 1},
                      f"/tables/{n // 4}/") for n, user in enumerate(users)]
    with CaptureQueriesContext(connection) as queries:
        rows = notify_each(notices)
    assert len(rows) == 8 and len(queries) <= 4  # told, mailed, the insert (and a savepoint)
    assert {(n.params["table"], n.link) for n in Notification.objects.filter(user=users[5])} == {
        (2, "/tables/1/")}


def test_the_page_lists_them_newest_first_and_needs_a_login() -> None:
    alice = UserFactory()
    notify([alice], READY, "table:1", params={**PARAMS, "table": 1}, link="/tables/1/")
    notify([alice], Notification.Kind.ENDED, "round-ended:1",
           params={"tournament": "Spring cup", "round": 1, "what": "round"})
    page = logged_in(alice).get("/notifications/").content.decode()
    ended = page.index("Round 1 of Spring cup has ended.")
    ready = page.index("Your table is ready: table 1, round 1 of Spring cup.")
    assert ended < ready  # the newest first
    response = Client().get("/notifications/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_opening_one_marks_it_read_and_goes_where_it_leads() -> None:
    alice, bob = UserFactory(), UserFactory()
    notify([alice, bob], READY, "table:1", params=PARAMS, link="/tables/1/")
    mine = Notification.objects.get(user=alice)
    client = logged_in(alice)
    response = client.get(f"/notifications/{mine.pk}/")
    assert response.status_code == 302 and response["Location"] == "/tables/1/"
    mine.refresh_from_db()
    assert mine.read is not None
    # another's: not marked, not followed, and nothing said of it
    theirs = Notification.objects.get(user=bob)
    response = client.get(f"/notifications/{theirs.pk}/")
    assert response["Location"] == "/notifications/"
    theirs.refresh_from_db()
    assert theirs.read is None


def test_an_id_past_the_column_is_no_notification() -> None:
    response = logged_in(UserFactory()).get(f"/notifications/{10**20}/")
    assert response.status_code == 302 and response["Location"] == "/notifications/"


def test_a_link_off_the_site_is_never_followed() -> None:
    alice = UserFactory()
    notify([alice], READY, "table:1", params=PARAMS, link="//evil.example/")
    notification = Notification.objects.get(user=alice)
    response = logged_in(alice).get(f"/notifications/{notification.pk}/")
    assert response["Location"] == "/notifications/"


def test_mark_all_read_is_a_post_that_clears_the_count() -> None:
    alice, bob = UserFactory(), UserFactory()
    notify([alice, bob], READY, "table:1", params=PARAMS)
    notify([alice], READY, "table:2", params=PARAMS)
    client = logged_in(alice)
    assert client.get("/notifications/read/").status_code == 405
    assert client.post("/notifications/read/").status_code == 302
    assert not Notification.objects.filter(user=alice, read__isnull=True).exists()
    assert Notification.objects.filter(user=bob, read__isnull=True).count() == 1


def header_count(page: str) -> str:
    start = page.index("data-inbox-count")
    return page[start:page.index("</span></a>", start)]


def test_every_page_shows_the_unread_count_in_one_query() -> None:
    alice = UserFactory()
    notify([alice], READY, "table:1", params=PARAMS)
    notify([alice], READY, "table:2", params=PARAMS)
    client = logged_in(alice)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/rules/").content.decode()
    counts = [q["sql"] for q in queries if "tournaments_notification" in q["sql"]]
    assert len(counts) == 1 and "COUNT" in counts[0].upper()
    assert header_count(page).endswith("> 2") and " hidden" not in header_count(page)
    client.post("/notifications/read/")
    assert " hidden" in header_count(client.get("/rules/").content.decode())


def test_a_visitor_costs_no_count() -> None:
    with CaptureQueriesContext(connection) as queries:
        page = Client().get("/rules/").content.decode()
    assert not [q for q in queries if "tournaments_notification" in q["sql"]]
    assert "data-inbox-count" not in page and "inbox.js" not in page


def test_the_mail_settings_need_a_login() -> None:
    response = Client().get("/accounts/mail/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_benchmark_writes_a_rounds_notifications_and_leaves_nothing_behind() -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("bench_notices", players=40, mailed=0.0, stdout=out)
    assert "a round's start, 40 players: 40 notifications written in" in out.getvalue()
    assert not Notification.objects.exists()
