"""The chat reports in the admin: an organiser sees those of their tournaments' tables and
no other's, a superuser every table's (a practice table's too); nobody edits one."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.live import service
from games.live.models import ChatMessage, ChatReport, LiveTable

from .factories import UserFactory
from .test_admin import logged_in
from .test_online import online, publish_first_round

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:live_chatreport_changelist")


def _reported(table: LiveTable, text: str) -> ChatReport:
    author, reporter = UserFactory(), UserFactory()
    message = ChatMessage.objects.create(table=table, channel="table", user=author, seat=0,
                                         text=text)
    return ChatReport.objects.create(message=message, reporter=reporter)


@pytest.fixture
def reports() -> dict[str, Any]:
    """A report at each of two tournaments' tables and at a practice table."""
    ours, theirs = UserFactory(is_staff=True), UserFactory(is_staff=True)
    found: dict[str, Any] = {"ours": ours, "theirs": theirs}
    for organiser, text in ((ours, "said at our table"), (theirs, "said at their table")):
        match = publish_first_round(online(organisers=[organiser]), organiser)
        found[text] = _reported(LiveTable.objects.get(match=match), text)
    practice = service.create_practice_table(UserFactory(), "greedy", seat=0, seed=3)
    found["said at practice"] = _reported(practice, "said at practice")
    return found


def test_an_organiser_sees_the_reports_of_their_tournaments_tables_only(
        reports: dict[str, Any]) -> None:
    client = logged_in(reports["ours"])
    page = client.get(CHANGELIST).content.decode()
    assert "said at our table" in page
    assert "said at their table" not in page and "said at practice" not in page
    theirs = reports["said at their table"]
    assert client.get(reverse("admin:live_chatreport_change", args=[theirs.pk])).status_code \
        == 302  # not found: back to the admin's index
    ours = reports["said at our table"]
    assert client.get(reverse("admin:live_chatreport_change", args=[ours.pk])).status_code == 200
    assert client.post(reverse("admin:live_chatreport_delete", args=[ours.pk]),
                       {"post": "yes"}).status_code == 403
    assert ChatReport.objects.count() == 3


def test_a_superuser_sees_every_tables_reports(reports: dict[str, Any]) -> None:
    client = logged_in(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(CHANGELIST).content.decode()
    for text in ("said at our table", "said at their table", "said at practice"):
        assert text in page
    practice = reports["said at practice"]
    assert client.get(reverse("admin:live_chatreport_change", args=[practice.pk])
                      ).status_code == 200
