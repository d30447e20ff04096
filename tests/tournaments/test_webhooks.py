"""Webhooks end to end: events written by the real services, delivered by the tasks to a
real HTTP receiver on 127.0.0.1 that checks the signature; retries, disabling, the
refusal of private addresses and redirects, a hanging receiver, and a subscription's
reach (its tournament, its organiser's)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.conftest import tasks_in_process
from tournaments import services, webhook_signing
from tournaments.models import Notification, WebhookDelivery, WebhookSubscription
from tournaments.services import webhook_delivery, webhooks

from .factories import UserFactory, tournament_with_teams
from .webhook_receiver import Receiver, receiver

pytestmark = pytest.mark.django_db(transaction=False)

SHEET = [[0, 40], [30, 0], [0, 50], [40, 0], [0, 25]]
OUT = [0, 1, 2, 3, 0]


@pytest.fixture
def private_allowed(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True


@pytest.fixture
def hook() -> Iterator[Receiver]:
    with receiver() as state:
        yield state


@pytest.fixture
def run(django_capture_on_commit_callbacks: Any) -> Any:
    """Run a step as a service does, its follow-up tasks (the deliveries) in-process after
    its commit."""
    def run(step: Any, *args: Any, **kwargs: Any) -> Any:
        with tasks_in_process(), django_capture_on_commit_callbacks(execute=True):
            return step(*args, **kwargs)
    return run


def subscribe(organiser: Any, url: str, events: list[str], **kwargs: Any) -> WebhookSubscription:
    return webhooks.webhook_create(user=organiser, url=url, format=kwargs.pop("format", "json"),
                                   events=events, **kwargs)


def bodies(hook: Receiver) -> list[dict[str, Any]]:
    return [json.loads(got.body) for got in hook.got]


def test_it_posts_a_published_round_signed(private_allowed: None, hook: Receiver,
                                           run: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser], name="Spring Swiss")
    subscription = subscribe(organiser, hook.url, ["round.published"])
    round = services.round_pair_next(tournament=tournament)
    run(services.round_publish, round=round)

    [got] = hook.got
    headers = got.headers
    assert webhook_signing.verify(subscription.secret, headers["Push-Webhook-Timestamp"],
                                  got.body, headers["Push-Webhook-Signature"], timezone.now())
    assert not webhook_signing.verify("another secret", headers["Push-Webhook-Timestamp"],
                                      got.body, headers["Push-Webhook-Signature"],
                                      timezone.now())
    event = json.loads(got.body)
    assert event["type"] == "round.published" and headers["Push-Webhook-Id"] == event["id"]
    assert event["data"]["tournament"]["name"] == "Spring Swiss"
    matches = event["data"]["round"]["matches"]
    assert [m["table"] for m in matches] == [1, 2] and all(m["result"] is None for m in matches)
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.response_code, delivery.attempts) == ("delivered", 200, 1)
    # delivered is final: the task run again (or the sweep) sends nothing
    assert webhook_delivery.webhook_deliver(delivery.pk) is None
    assert webhook_delivery.webhooks_send_due(now=timezone.now() + timedelta(days=2)) == 0
    assert len(hook.got) == 1


def test_a_replayed_delivery_is_refused_by_its_timestamp() -> None:
    body = webhook_signing.body("id", "ping", timezone.now(), {})
    sent = int(time.time()) - 6 * 60
    signed = webhook_signing.signature("s", sent, body)
    assert webhook_signing.verify("s", str(sent), body, signed, timezone.now() - timedelta(
        minutes=6))
    assert not webhook_signing.verify("s", str(sent), body, signed, timezone.now())
    assert not webhook_signing.verify("s", str(sent), body + b" ", signed, timezone.now()
                                      - timedelta(minutes=6))


def test_results_and_standings_are_told_as_they_happen(private_allowed: None, hook: Receiver,
                                                       run: Any) -> None:
    organiser, player_user = UserFactory(), UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser], rounds_planned=1)
    subscribe(organiser, hook.url, ["result.submitted", "result.confirmed",
                                    "standings.changed", "round.completed",
                                    "tournament.finished", "tournament.started"])
    round = run(services.round_pair_next, tournament=tournament)
    services.round_publish(round=round)
    match = round.matches.get()
    team_a = match.team_a
    team_a.player_a.user = player_user
    team_a.player_a.save()
    result = run(services.match_submit_score_sheet, match=match, hand_scores=SHEET,
                 out_seats=OUT, user=player_user)  # a player's: waits for the other team
    run(services.result_confirm, result=result, user=organiser)
    run(services.round_complete, round=round, user=organiser)
    types = [event["type"] for event in bodies(hook)]
    assert types[:3] == ["tournament.started", "result.submitted", "result.confirmed"]
    assert "standings.changed" in types
    assert types[-2:] == ["round.completed", "tournament.finished"]
    submitted, confirmed = bodies(hook)[1:3]
    assert submitted["data"]["match"]["result"] == {
        "id": result.pk, "source": "sheet", "totals": [70, 115], "winner": "a",
        "confirmed": False}
    assert confirmed["data"]["match"]["result"]["confirmed"] is True
    finished = bodies(hook)[-1]["data"]
    assert finished["tournament"]["status"] == "finished"
    assert [row["team"] for row in finished["standings"]["rows"]] == [team_a.name,
                                                                      match.team_b.name]


def test_a_failing_receiver_is_retried_with_backoff_for_a_day(
        private_allowed: None, hook: Receiver, run: Any, settings: Any) -> None:
    settings.WEBHOOKS_DISABLE_AFTER = 1000  # here the retries alone are followed
    hook.status = 500
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    subscribe(organiser, hook.url, ["standings.changed"])
    run(webhooks.emit, "standings.changed", tournament, {})
    delivery = WebhookDelivery.objects.get()
    start = delivery.created
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("pending", 1, 500)
    assert "answered 500" in delivery.last_error
    waits = [delivery.next_attempt - start]
    now = delivery.next_attempt
    while delivery.status == "pending":
        assert webhook_delivery.webhook_deliver(delivery.pk, now=now - timedelta(seconds=1)) \
            is None  # not due yet
        webhook_delivery.webhook_deliver(delivery.pk, now=now)
        delivery.refresh_from_db()
        waits.append(delivery.next_attempt - now)
        now = delivery.next_attempt
    minutes = [round(wait.total_seconds() / 60) for wait in waits[:8]]
    assert minutes == [1, 2, 4, 8, 16, 32, 60, 60]
    assert delivery.status == "failed" and now - start <= timedelta(days=1)
    assert len(hook.got) == delivery.attempts
    hook.status = 204  # mended: the organiser sends it again from the admin
    run(webhooks.webhook_send_again, user=organiser, deliveries=[delivery])
    delivery.refresh_from_db()
    assert delivery.status == "delivered" and delivery.response_code == 204


def test_repeated_failure_disables_the_subscription_and_tells_its_organiser(
        private_allowed: None, hook: Receiver, run: Any, settings: Any) -> None:
    settings.WEBHOOKS_DISABLE_AFTER = 3
    hook.status = 410
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    subscription = subscribe(organiser, hook.url, ["standings.changed"])
    for _ in range(3):
        subscription.refresh_from_db()
        assert subscription.active
        run(webhooks.emit, "standings.changed", tournament, {})
    subscription.refresh_from_db()
    assert not subscription.active and subscription.disabled_at is not None
    assert "3 deliveries in a row failed" in subscription.disabled_reason
    notice = Notification.objects.get(user=organiser)
    assert notice.kind == "webhook_disabled" and notice.params["url"] == hook.url
    run(webhooks.emit, "standings.changed", tournament, {})  # disabled: written for nobody
    assert len(hook.got) == 3 and WebhookDelivery.objects.count() == 3
    # those still pending are given up at their next attempt, without being sent
    pending = WebhookDelivery.objects.filter(status="pending")
    assert pending.count() == 3
    for delivery in pending:
        assert webhook_delivery.webhook_deliver(
            delivery.pk, now=delivery.next_attempt) == "failed"
    assert len(hook.got) == 3
    assert set(WebhookDelivery.objects.values_list("last_error", flat=True)) == {
        "the subscription is disabled"}


def test_a_success_between_failures_starts_the_count_again(
        private_allowed: None, hook: Receiver, run: Any, settings: Any) -> None:
    settings.WEBHOOKS_DISABLE_AFTER = 2
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    subscription = subscribe(organiser, hook.url, ["standings.changed"])
    for status in (500, 200, 500):
        hook.status = status
        run(webhooks.emit, "standings.changed", tournament, {})
    subscription.refresh_from_db()
    assert subscription.active and subscription.consecutive_failures == 1


def test_a_private_address_is_refused_before_connecting(hook: Receiver, run: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    subscribe(organiser, hook.url, ["standings.changed"])
    run(webhooks.emit, "standings.changed", tournament, {})
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "pending" and delivery.response_code is None
    assert "127.0.0.1, a private or reserved address" in delivery.last_error
    assert hook.got == []


@pytest.mark.parametrize("address, public", [
    ("127.0.0.1", False), ("10.1.2.3", False), ("172.16.0.1", False), ("192.168.1.1", False),
    ("169.254.169.254", False), ("100.64.0.1", False), ("0.0.0.0", False), ("224.0.0.1", False),
    ("::1", False), ("fe80::1", False), ("fc00::1", False), ("::ffff:127.0.0.1", False),
    ("::ffff:10.0.0.1", False), ("93.184.216.34", True), ("2606:4700::1111", True),
])
def test_only_public_addresses_are_posted_to(address: str, public: bool) -> None:
    import ipaddress
    assert webhook_delivery.public(ipaddress.ip_address(address)) is public


def test_a_redirect_is_not_followed(private_allowed: None, hook: Receiver, run: Any) -> None:
    hook.status, hook.location = 302, "http://127.0.0.1:1/elsewhere"
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    subscribe(organiser, hook.url, ["standings.changed"])
    run(webhooks.emit, "standings.changed", tournament, {})
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.response_code) == ("pending", 302)
    assert [got.path for got in hook.got] == ["/hook"]


def test_a_hanging_receiver_costs_at_most_the_timeout(
        private_allowed: None, hook: Receiver, run: Any, settings: Any) -> None:
    settings.WEBHOOKS_TIMEOUT_SECONDS = 0.5
    hook.hang = 3.0
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    subscribe(organiser, hook.url, ["standings.changed"])
    started = time.monotonic()
    run(webhooks.emit, "standings.changed", tournament, {})
    assert time.monotonic() - started < 2.0
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "pending" and "no answer" in delivery.last_error


def test_a_duplicate_rounds_results_wait_for_its_boards(private_allowed: None, hook: Receiver,
                                                        run: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(6, organisers=[organiser], duplicate="matchpoints",
                                       tiebreaks=["butler"])
    subscribe(organiser, hook.url, ["result.submitted", "result.confirmed", "round.published"])
    round = services.round_pair_next(tournament=tournament)
    run(services.round_publish, round=round)
    first, second, third = round.matches.order_by("table__number")
    run(services.match_submit_score_sheet, match=first, hand_scores=SHEET, out_seats=OUT,
        user=organiser)
    assert [event["type"] for event in bodies(hook)] == ["round.published"]
    assert WebhookDelivery.objects.count() == 1  # nothing written while the round is secret
    run(services.round_release_boards, round=round, user=organiser)
    told = bodies(hook)[1:]
    assert [(e["type"], e["data"]["match"]["id"]) for e in told] == [
        ("result.confirmed", first.pk)]
    assert told[0]["data"]["match"]["result"]["totals"] == [70, 115]
    run(services.match_submit_score_sheet, match=second, hand_scores=SHEET, out_seats=OUT,
        user=organiser)  # released: told at once
    assert [e["data"]["match"]["id"] for e in bodies(hook)[2:]] == [second.pk]


def test_a_duplicate_round_is_told_when_its_last_table_is_confirmed(
        private_allowed: None, hook: Receiver, run: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser], duplicate="matchpoints",
                                       tiebreaks=["butler"])
    subscribe(organiser, hook.url, ["result.confirmed"])
    round = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round)
    first, second = round.matches.order_by("table__number")
    run(services.match_submit_score_sheet, match=first, hand_scores=SHEET, out_seats=OUT,
        user=organiser)
    assert hook.got == []
    run(services.match_submit_score_sheet, match=second, hand_scores=SHEET, out_seats=OUT,
        user=organiser)
    assert sorted(e["data"]["match"]["id"] for e in bodies(hook)) == [first.pk, second.pk]


def test_a_subscription_reaches_only_what_its_organiser_organises(
        private_allowed: None, hook: Receiver, run: Any) -> None:
    organiser, other = UserFactory(), UserFactory()
    mine = tournament_with_teams(2, organisers=[organiser])
    also_mine = tournament_with_teams(2, organisers=[organiser])
    theirs = tournament_with_teams(2, organisers=[other])
    only_mine = subscribe(organiser, hook.url + "/one", ["standings.changed"], tournament=mine)
    all_mine = subscribe(organiser, hook.url + "/all", ["standings.changed"])
    subscribe(other, hook.url + "/other", ["standings.changed"])
    for tournament in (mine, also_mine, theirs):
        run(webhooks.emit, "standings.changed", tournament, {})
    told = sorted((got.path, json.loads(got.body)["data"]["tournament"]["id"])
                  for got in hook.got)
    assert told == sorted([("/hook/one", mine.pk), ("/hook/all", mine.pk),
                           ("/hook/all", also_mine.pk), ("/hook/other", theirs.pk)])
    mine.organisers.remove(organiser)  # no longer theirs: neither subscription hears of it
    hook.got.clear()
    run(webhooks.emit, "standings.changed", mine, {})
    assert hook.got == [] and only_mine.deliveries.count() == 1
    assert all_mine.deliveries.count() == 2


def test_a_fan_out_to_a_thousand_subscriptions_is_a_constant_few_queries() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])

    def queries_for(count: int) -> int:
        WebhookSubscription.objects.bulk_create(
            WebhookSubscription(organiser=organiser, url="https://example.org/hook",
                                events=["standings.changed"], secret="s")
            for _ in range(count))
        with CaptureQueriesContext(connection) as queries:
            assert webhooks.emit("standings.changed", tournament, {"n": count}) >= count
        return len(queries)

    assert queries_for(10) == queries_for(990)
    assert WebhookDelivery.objects.filter(payload__n=990).count() == 1000


def test_an_events_data_is_made_only_when_a_subscription_wants_it() -> None:
    """A round completed where no subscription wants round.completed costs the one query
    that finds the subscriptions, not the standings and the round's matches as well."""
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    for match in round.matches.all():
        services.match_submit_score_sheet(match=match, hand_scores=SHEET, out_seats=OUT,
                                          user=organiser)

    def queries() -> int:
        with CaptureQueriesContext(connection) as done:
            webhooks.round_completed(round, tournament_finished=False)
        return len(done)

    subscribe(organiser, "https://example.org/hook", ["round.published"])
    assert queries() == 1
    assert WebhookDelivery.objects.count() == 0
    subscribe(organiser, "https://example.org/other", ["round.completed"])
    assert queries() > 1
    [delivery] = WebhookDelivery.objects.all()
    assert delivery.event_type == "round.completed"
    assert delivery.payload["standings"] and delivery.payload["round"]["matches"]


def test_a_discord_subscription_gets_a_readable_message(private_allowed: None, hook: Receiver,
                                                        run: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser], name="Spring Swiss")
    subscribe(organiser, hook.url, ["round.published"], format="discord")
    round = services.round_pair_next(tournament=tournament)
    run(services.round_publish, round=round)
    a, b = round.matches.order_by("table__number")
    assert bodies(hook) == [{"content": (
        f"Round 1 of Spring Swiss published:\ntable 1: {a.team_a.name} vs {a.team_b.name}\n"
        f"table 2: {b.team_a.name} vs {b.team_b.name}")}]


@pytest.mark.parametrize("url, events, message", [
    ("ftp://example.org/", ["round.published"], "url: give an http:// or https://"),
    ("https://user:pw@example.org/", ["round.published"], "no login in it"),
    ("https:///path", ["round.published"], "with a host"),
    ("https://example.org:99999/", ["round.published"], "port"),
    ("https://example.org/", ["round.played"], "events: choose one or more"),
    ("https://example.org/", [], "events: choose one or more"),
])
def test_a_bad_subscription_says_what_and_stores_nothing(url: str, events: list[str],
                                                         message: str) -> None:
    organiser = UserFactory()
    tournament_with_teams(2, organisers=[organiser])
    with pytest.raises(services.TournamentUserError, match=message):
        subscribe(organiser, url, events)
    assert not WebhookSubscription.objects.exists()


def test_only_an_organiser_subscribes() -> None:
    from django.core.exceptions import PermissionDenied
    organiser, stranger = UserFactory(), UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    with pytest.raises(PermissionDenied):
        subscribe(stranger, "https://example.org/", ["round.published"], tournament=tournament)
    with pytest.raises(PermissionDenied):
        subscribe(stranger, "https://example.org/", ["round.published"])
    assert not WebhookSubscription.objects.exists()


def test_a_ping_reaches_even_a_disabled_subscription(private_allowed: None, hook: Receiver,
                                                     run: Any) -> None:
    organiser = UserFactory()
    tournament_with_teams(2, organisers=[organiser])
    subscription = subscribe(organiser, hook.url, ["round.published"])
    WebhookSubscription.objects.filter(pk=subscription.pk).update(active=False)
    subscription.refresh_from_db()
    run(webhooks.webhook_ping, user=organiser, subscription=subscription)
    assert [event["type"] for event in bodies(hook)] == ["ping"]


def test_an_online_rounds_tables_are_told_as_they_open_and_finish(
        private_allowed: None, hook: Receiver, run: Any, settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    organiser = UserFactory()
    # no player has a login: bots play every seat, at once after the publishing's commit
    tournament = tournament_with_teams(2, organisers=[organiser], play="online",
                                       bot_level="greedy")
    subscribe(organiser, hook.url, ["table.opened", "table.finished", "result.confirmed"])
    round = services.round_pair_next(tournament=tournament)
    run(services.round_publish, round=round)
    match = round.matches.get()
    events = bodies(hook)
    assert [event["type"] for event in events] == ["table.opened", "table.finished",
                                                   "result.confirmed"]
    assert {event["data"]["match"]["id"] for event in events} == {match.pk}
    assert events[0]["data"]["match"]["live_table"] == match.live_table_id is not None
    assert events[0]["data"]["match"]["result"] is None
    assert events[1]["data"]["match"]["result"]["source"] == "online"


def test_a_receiver_whose_certificate_is_not_trusted_gets_nothing(
        private_allowed: None, run: Any, tmp_path: Any) -> None:
    import subprocess
    certificate, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", key, "-out", certificate], check=True, capture_output=True)
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    with receiver((certificate, key)) as hook:
        subscribe(organiser, hook.url, ["standings.changed"])
        run(webhooks.emit, "standings.changed", tournament, {})
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "pending" and "CERTIFICATE_VERIFY_FAILED" in delivery.last_error
    assert hook.got == []


def test_the_sweep_sends_a_failed_delivery_once_it_is_due(
        private_allowed: None, hook: Receiver, run: Any) -> None:
    hook.status = 503
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    subscribe(organiser, hook.url, ["standings.changed"])
    run(webhooks.emit, "standings.changed", tournament, {})
    delivery = WebhookDelivery.objects.get()
    hook.status = 200
    assert run(webhook_delivery.webhooks_send_due) == 0  # not due for a minute
    # the minute passes
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        next_attempt=timezone.now() - timedelta(seconds=1))
    assert run(webhook_delivery.webhooks_send_due) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, len(hook.got)) == ("delivered", 2, 2)


def test_a_step_rolled_back_tells_no_one(private_allowed: None, hook: Receiver,
                                         run: Any) -> None:
    from django.db import transaction
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    subscribe(organiser, hook.url, ["standings.changed"])

    def step() -> None:
        with transaction.atomic():
            webhooks.emit("standings.changed", tournament, {})
            raise RuntimeError("the step failed after its event")

    with pytest.raises(RuntimeError):
        run(step)
    assert not WebhookDelivery.objects.exists() and hook.got == []


def test_a_receiver_failing_now_is_sent_its_delivery_after_the_others(
        private_allowed: None, hook: Receiver, run: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    subscribe(organiser, hook.url + "-healthy", ["tournament.started"])
    failing = subscribe(organiser, hook.url + "-failing", ["tournament.started"])
    run(webhooks.emit, "tournament.started", tournament, {})
    # the newer first, as the subscriptions are listed
    assert [got.path for got in hook.got] == ["/hook-failing", "/hook-healthy"]
    WebhookSubscription.objects.filter(pk=failing.pk).update(consecutive_failures=2)
    run(webhooks.emit, "tournament.started", tournament, {})
    # failing now, it waits behind the healthy one
    assert [got.path for got in hook.got[2:]] == ["/hook-healthy", "/hook-failing"]
