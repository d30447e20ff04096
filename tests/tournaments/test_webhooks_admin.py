"""Webhooks in the admin: an organiser makes a subscription (its secret shown once), sees
their own subscriptions and deliveries only, and sends a test event, a delivery again, or
enables a disabled subscription again; a bad URL is refused on the form, storing nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import timezone

from tests.conftest import tasks_in_process
from tournaments.models import WebhookDelivery, WebhookSubscription
from tournaments.services import webhooks

from .factories import UserFactory, tournament_with_teams
from .test_admin import act, logged_in, said, url
from .webhook_receiver import receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return UserFactory()


@pytest.fixture
def tournament(organiser: Any) -> Any:
    return tournament_with_teams(2, organisers=[organiser])


def test_an_organiser_adds_a_webhook_and_sees_its_secret_once(organiser: Any,
                                                              tournament: Any) -> None:
    client = logged_in(organiser)
    response = client.post(url("webhooksubscription_add"), {
        "url": "https://example.org/hook", "format": "slack", "tournament": tournament.pk,
        "events": ["round.published", "round.completed"]}, follow=True)
    made = WebhookSubscription.objects.get()
    assert f"Its secret, shown this once: {made.secret}" in said(response)
    assert (made.organiser, made.tournament, made.format) == (organiser, tournament, "slack")
    assert made.events == ["round.completed", "round.published"]
    page = client.get(url("webhooksubscription_change", made.pk)).content.decode()
    assert made.secret not in page


def test_a_bad_url_or_anothers_tournament_is_refused_on_the_form(tournament: Any) -> None:
    client = logged_in(UserFactory())
    for fields in ({"url": "ftp://example.org/", "events": ["round.published"]},
                   {"url": "https://example.org/", "events": ["round.published"],
                    "tournament": tournament.pk}):
        response = client.post(url("webhooksubscription_add"), {"format": "json", **fields})
        assert response.status_code == 200 and response.context["adminform"].form.errors
    assert not WebhookSubscription.objects.exists()


def test_an_organiser_sees_only_their_own_webhooks_and_deliveries(organiser: Any,
                                                                   tournament: Any) -> None:
    mine = webhooks.webhook_create(user=organiser, url="https://example.org/mine",
                                   format="json", events=["round.published"])
    other = UserFactory()
    tournament_with_teams(2, organisers=[other])
    theirs = webhooks.webhook_create(user=other, url="https://example.org/theirs",
                                     format="json", events=["round.published"])
    now = timezone.now()
    for subscription in (mine, theirs):
        WebhookDelivery.objects.create(subscription=subscription, event_type="ping",
                                       event_id=f"{subscription.pk:032x}", created=now,
                                       next_attempt=now)
    client = logged_in(organiser)
    page = client.get(url("webhooksubscription_changelist")).content.decode()
    assert "example.org/mine" in page and "example.org/theirs" not in page
    log = client.get(url("webhookdelivery_changelist")).content.decode()
    assert str(mine) in log and str(theirs) not in log
    assert client.get(url("webhooksubscription_change", theirs.pk)).status_code == 302
    # an action on another's rows finds none of them
    act(client, "webhookdelivery", "send_again", *WebhookDelivery.objects.all())
    assert WebhookDelivery.objects.get(subscription=theirs).attempts == 0


def test_a_test_event_a_delivery_again_and_enabling_again(
        organiser: Any, tournament: Any, settings: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True
    client = logged_in(organiser)
    with receiver() as hook, tasks_in_process():
        subscription = webhooks.webhook_create(user=organiser, url=hook.url, format="json",
                                               events=["round.published"])
        with django_capture_on_commit_callbacks(execute=True):
            response = act(client, "webhooksubscription", "send_test_event", subscription)
        assert "A test event goes to 1 webhook." in said(response)
        delivery = WebhookDelivery.objects.get()
        with django_capture_on_commit_callbacks(execute=True):
            response = act(client, "webhookdelivery", "send_again", delivery)
        assert "1 delivery is sent again." in said(response)
        assert [json.loads(got.body)["id"] for got in hook.got] == [str(delivery.event_id)] * 2
    page = client.get(url("webhooksubscription_change", subscription.pk)).content.decode()
    assert "<td>ping</td><td>delivered</td><td>200</td><td>1</td>" in page
    WebhookSubscription.objects.filter(pk=subscription.pk).update(
        active=False, consecutive_failures=10, disabled_reason="it failed")
    response = act(client, "webhooksubscription", "enable_again", subscription)
    assert "1 webhook is enabled again." in said(response)
    subscription.refresh_from_db()
    assert subscription.active and subscription.consecutive_failures == 0
