"""A pairs robot duplicate entrant invites their partner, who accepts (the table is dealt)
or refuses (robot_duplicate/services.py): nobody uses up another person's one play by
naming them, an organiser or a superuser cannot be named, and the answer for a partner who
cannot be invited is one sentence whether or not the name exists."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live.models import LiveSeat, LiveTable
from robot_duplicate import services
from robot_duplicate.models import RobotEntry, RobotEvent
from tournaments.services import TournamentUserError

from .test_robot_duplicate import open_event, person

pytestmark = pytest.mark.django_db


def seats(entry: RobotEntry) -> list[int | None]:
    return list(LiveSeat.objects.filter(table_id=entry.live_table_id).order_by("seat")
                .values_list("user_id", flat=True))


def test_a_named_partner_is_only_invited_and_refusing_leaves_them_free_to_play() -> None:
    event = open_event(kind=RobotEvent.Kind.PAIRS)
    anna, bea, cai = person("anna"), person("bea"), person("cai")
    invitation = services.robot_enter(event=event, user=anna, partner=bea)
    assert invitation.awaiting_partner and not LiveTable.objects.exists()
    with pytest.raises(TournamentUserError, match="still open: withdraw it"):
        services.robot_enter(event=event, user=anna, partner=cai)
    # only the partner answers an invitation
    with pytest.raises(TournamentUserError, match="no longer open"):
        services.robot_answer(entry=invitation, user=cai, accept=True)
    assert services.robot_answer(entry=invitation, user=bea, accept=False) is None
    assert not RobotEntry.objects.exists()
    # bea, who refused, plays with someone else; anna, free again, invites cai
    services.robot_enter(event=event, user=bea, partner=cai)
    services.robot_enter(event=event, user=anna, partner=cai)
    assert RobotEntry.objects.filter(partner=cai, awaiting_partner=True).count() == 2
    assert not LiveTable.objects.exists()


def test_accepting_deals_the_table_and_drops_every_other_invitation_of_either(
        django_capture_on_commit_callbacks: Any) -> None:
    event = open_event(kind=RobotEvent.Kind.PAIRS)
    anna, bea, cai, dan = (person(n) for n in ("anna", "bea", "cai", "dan"))
    from_anna = services.robot_enter(event=event, user=anna, partner=bea)
    from_bea = services.robot_enter(event=event, user=bea, partner=cai)
    from_dan = services.robot_enter(event=event, user=dan, partner=anna)
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.robot_answer(entry=from_anna, user=bea, accept=True)
    assert entry is not None and seats(entry) == [anna.pk, None, bea.pk, None]
    assert list(RobotEntry.objects.values_list("pk", flat=True)) == [from_anna.pk]
    for stale, answerer in ((from_bea, cai), (from_dan, anna)):
        with pytest.raises(TournamentUserError, match="no longer open"):
            services.robot_answer(entry=stale, user=answerer, accept=True)
    with pytest.raises(TournamentUserError, match="your partner has answered"):
        services.robot_withdraw(entry=from_anna, user=anna)
    assert LiveTable.objects.count() == 1


def test_the_player_withdraws_an_invitation_not_yet_answered() -> None:
    event = open_event(kind=RobotEvent.Kind.PAIRS)
    anna, bea = person("anna"), person("bea")
    invitation = services.robot_enter(event=event, user=anna, partner=bea)
    with pytest.raises(TournamentUserError, match="no longer open"):
        services.robot_withdraw(entry=invitation, user=bea)
    services.robot_withdraw(entry=invitation, user=anna)
    assert not RobotEntry.objects.exists()
    with pytest.raises(TournamentUserError, match="no longer open"):
        services.robot_answer(entry=invitation, user=bea, accept=True)


def test_an_invitation_accepted_after_the_event_closed_deals_nothing() -> None:
    event = open_event(kind=RobotEvent.Kind.PAIRS)
    anna, bea = person("anna"), person("bea")
    invitation = services.robot_enter(event=event, user=anna, partner=bea)
    RobotEvent.objects.filter(pk=event.pk).update(closes=event.opens)
    with pytest.raises(TournamentUserError, match="has closed"):
        services.robot_answer(entry=invitation, user=bea, accept=True)
    invitation.refresh_from_db()
    assert invitation.awaiting_partner and not LiveTable.objects.exists()


def refused_partners() -> tuple[RobotEvent, Any]:
    """A pairs event, and anna, whose named partner is refused alike for every name below:
    "nobody" (no account), "root" (a superuser), "gone" (inactive), the event's organiser
    and "cai" (who has played, with bea)."""
    event = open_event(kind=RobotEvent.Kind.PAIRS)
    anna, bea, cai = person("anna"), person("bea"), person("cai")
    root = person("root")
    root.is_superuser = True
    root.save()
    gone = person("gone")
    gone.is_active = False
    gone.save()
    played = services.robot_enter(event=event, user=bea, partner=cai)
    services.robot_answer(entry=played, user=cai, accept=True)
    return event, anna


def test_nobody_who_may_not_play_can_be_named_and_the_answer_does_not_tell_who_exists() -> None:
    event, anna = refused_partners()
    organiser = event.organisers.get()
    client = Client()
    client.force_login(anna)
    url = reverse("robot_duplicate:play", args=[event.pk])
    answers = {}
    for name in ("nobody", "root", "gone", organiser.username, "cai"):
        response = client.post(url, {"partner": name})
        assert response.status_code == 400, name
        alert = re.search(r'<p class="error" role="alert">(.*?)</p>', response.content.decode())
        assert alert is not None, name
        answers[name] = alert.group(1).replace(name, "NAME")
        assert f"No invitation was sent: “{name}” is not someone who may play" in alert.group(1)
    assert len(set(answers.values())) == 1, answers
    assert not RobotEntry.objects.filter(player=anna).exists()


def test_the_invited_partner_answers_on_the_event_page() -> None:
    event = open_event(kind=RobotEvent.Kind.PAIRS)
    anna, bea = person("anna"), person("bea")
    page = reverse("robot_duplicate:detail", args=[event.pk])
    inviter, invited = Client(), Client()
    inviter.force_login(anna)
    invited.force_login(bea)
    response = inviter.post(reverse("robot_duplicate:play", args=[event.pk]),
                            {"partner": "bea"})
    assert response.status_code == 302 and response["Location"] == page
    assert "Your invitation to bea waits for their answer" in inviter.get(page).content.decode()
    shown = invited.get(page).content.decode()
    assert "anna invites you to play this event as their partner" in shown
    entry = RobotEntry.objects.get()
    accept = reverse("robot_duplicate:accept", args=[event.pk, entry.pk])
    assert accept in shown
    # the inviter cannot accept their own invitation for the partner
    response = inviter.post(accept)
    assert response.status_code == 400 and "no longer open" in response.content.decode()
    assert invited.get(accept).status_code == 405
    response = invited.post(accept)
    entry.refresh_from_db()
    assert response.status_code == 302 and entry.live_table_id is not None
    assert response["Location"] == reverse("live:table", args=[entry.live_table_id])
    assert "Go to your table" in inviter.get(page).content.decode()
    assert Client().post(accept).status_code == 302  # to the login page, nothing done
    assert RobotEntry.objects.count() == 1 and LiveTable.objects.count() == 1


def test_a_name_nobody_has_is_checked_as_long_as_one_who_may_not_play() -> None:
    """The one answer takes as long for every name: a name nobody has goes through the same
    queries as a superuser's, an inactive account's, an organiser's and a partner who has
    played (before, it was answered straight after the lookup, measurably sooner: 59 ms
    against 65 to 72 ms, medians of 20, on the production server)."""
    event, anna = refused_partners()
    client = Client()
    client.force_login(anna)
    url = reverse("robot_duplicate:play", args=[event.pk])
    client.get(reverse("robot_duplicate:detail", args=[event.pk]))  # the session is read
    queries = {}
    for name in ("nobody", "root", "gone", event.organisers.get().username, "cai"):
        with CaptureQueriesContext(connection) as context:
            assert client.post(url, {"partner": name}).status_code == 400, name
        queries[name] = len(context.captured_queries)
    assert len(set(queries.values())) == 1, queries
