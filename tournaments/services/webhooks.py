"""Webhook events: each service that takes a step an organiser may subscribe to calls one
of these in its own transaction, and the event is written as one delivery a subscription
(``WebhookDelivery``) with one query to find the subscriptions and one bulk insert, however
many there are; a task sent after the commit (``followups.webhooks_later``) sends them
(``webhook_delivery``). A step rolled back so tells no one, and a receiver is never told of
a step that did not happen. An event's data is made only when a subscription wants it.

Secrecy: a duplicate round's results, and that one of its tables has finished, are its
secret until its boards are shown (``selectors.visibility.boards_hidden``). Their events
(``table.finished``, ``result.submitted``, ``result.confirmed``) are held back, not
written, while the round is secret, and written all at once when it stops being so: its
organiser releases the boards, or its last table's result is confirmed.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.users import RequestUser
from tournaments.models import (
    Match,
    Result,
    Round,
    Season,
    Tournament,
    WebhookDelivery,
    WebhookSubscription,
)
from tournaments.selectors.visibility import boards_hidden
from tournaments.selectors.webhooks import (
    league_data,
    league_subscribers,
    match_data,
    matches_data,
    round_data,
    season_data,
    standings_data,
    tournament_data,
    webhook_subscribers,
)

from . import followups
from .access import require_organiser
from .errors import TournamentUserError

TYPES = frozenset(WebhookSubscription.Event.values)
#: the test event an organiser sends from the admin; every subscription takes it
PING = "ping"
#: how many subscriptions a person may hold
WEBHOOKS_A_PERSON = 50


Events = list[tuple[str, dict[str, Any]]]
#: what a result's step may tell (``_result_events``)
RESULT_EVENTS = frozenset({"table.finished", "result.submitted", "result.confirmed"})


def emit(event_type: str, tournament: Tournament, data: dict[str, Any]) -> int:
    """Write the event ``event_type`` of ``tournament`` with ``data`` for every active
    subscription that wants it; how many deliveries were written."""
    return emit_each(tournament, [(event_type, data)])


def emit_each(tournament: Tournament, events: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """:func:`emit` for several events of one tournament (a round's tables), each with an
    event id of its own: still one query for the subscriptions and one insert."""
    events = list(events)
    if not events:
        return 0
    return _emit_when_heard(tournament, {kind for kind, _data in events}, lambda: events)


def _emit_when_heard(tournament: Tournament, kinds: Iterable[str],
                     events: Callable[[], Events]) -> int:
    """:func:`emit_each` of ``events()``, made only when a subscription wants one of
    ``kinds``: most tournaments have none, and the data (a round's matches, the standings)
    costs queries in the step's transaction."""
    subscribers = webhook_subscribers(tournament.pk)
    if not any(kind in wanted for _pk, wanted in subscribers for kind in kinds):
        return 0
    return _write(subscribers, [(kind, {"tournament": tournament_data(tournament), **data})
                                for kind, data in events()])


def _write(subscribers: list[tuple[int, list[str]]],
           events: list[tuple[str, dict[str, Any]]]) -> int:
    """One delivery of each event for each of ``subscribers`` that wants it, in one
    insert; the task that sends them after the commit."""
    if not subscribers:
        return 0
    now = timezone.now()
    rows = []
    for event_type, data in events:
        if event_type not in TYPES:
            raise ValueError(f"unknown webhook event {event_type!r}")
        event_id = uuid.uuid4()
        rows += [WebhookDelivery(subscription_id=pk, event_id=event_id, event_type=event_type,
                                 payload=data, created=now, next_attempt=now)
                 for pk, wanted in subscribers if event_type in wanted]
    if rows:
        WebhookDelivery.objects.bulk_create(rows, batch_size=1000)
        followups.webhooks_later([row.pk for row in rows])
    return len(rows)


def season_drafted(season: Season) -> None:
    """A league's next season drafted (``season``, a draft: its divisions and who went up
    and down), told to the league's organisers' subscriptions for all their events."""
    _season_event("season.drafted", season)


def season_confirmed(season: Season) -> None:
    """A drafted season made the league's current one."""
    _season_event("season.confirmed", season)


def _season_event(event_type: str, season: Season) -> None:
    _write(league_subscribers(season.league_id),
           [(event_type, {"league": league_data(season.league),
                          "season": season_data(season)})])


def tournament_started(tournament: Tournament) -> None:
    emit("tournament.started", tournament, {})


def round_published(round: Round) -> None:
    """Its pairings: every match of the round, by table."""
    _emit_when_heard(round.tournament, ["round.published"],
                     lambda: [("round.published", {"round": round_data(round)})])


def tables_opened(round: Round, matches: Iterable[Match]) -> None:
    """One ``table.opened`` a match of the round whose live table has just opened."""
    opened = [match.pk for match in matches if match.live_table_id is not None]
    if opened:
        _emit_when_heard(round.tournament, ["table.opened"],
                         lambda: [("table.opened", {"match": data})
                                  for data in matches_data(opened)])


def result_stored(result: Result, *, now_confirmed: bool) -> None:
    """A result was stored (``now_confirmed``: it counts from now on, stored confirmed or
    confirmed now): ``result.submitted`` or ``result.confirmed``, and ``table.finished`` for
    a game played at a live table. Held back while its round is secret; the step that makes
    the round's last table confirmed writes the events of the whole round."""
    round = Round.objects.select_related("tournament").get(pk=result.match.round_id)
    if round.seed is not None and not round.boards_released \
            and round.status != Round.Status.COMPLETE:
        if boards_hidden(round):
            return
        if now_confirmed:  # the round was secret until this result: its events go now
            _round_results(round)
            return
    _emit_when_heard(round.tournament, RESULT_EVENTS, lambda: _result_events(
        Match.objects.select_related("round", "table", "team_a", "team_b", "result")
        .get(pk=result.match_id)))


def boards_released(round: Round, *, was_hidden: bool) -> None:
    """An organiser released a duplicate round's boards: the results held back (those of
    a round that was secret until now) are told now."""
    if was_hidden:
        _round_results(round)


def _round_results(round: Round) -> None:
    matches = (Match.objects.filter(round=round, result__isnull=False)
               .select_related("round", "table", "team_a", "team_b", "result")
               .order_by("table__number", "pk"))
    _emit_when_heard(round.tournament, RESULT_EVENTS,
                     lambda: [event for match in matches for event in _result_events(match)])


def _result_events(match: Match) -> Events:
    data = {"match": match_data(match)}
    events = [("result.confirmed" if match.result.confirmed else "result.submitted", data)]
    if match.live_table_id is not None and match.result.source in (Result.Source.ONLINE,
                                                                   Result.Source.ENDED):
        events.insert(0, ("table.finished", data))
    return events


def round_completed(round: Round, *, tournament_finished: bool) -> None:
    """``round.completed`` with the round's results and the standings after it; and
    ``tournament.finished`` with the final standings when it was the last."""
    tournament = round.tournament
    kinds = ["round.completed"]
    if tournament_finished:
        tournament.refresh_from_db(fields=["status"])
        kinds.append("tournament.finished")

    def events() -> Events:
        after = standings_data(tournament, round.number)
        made: Events = [("round.completed", {"round": round_data(round), "standings": after})]
        if tournament_finished:
            made.append(("tournament.finished", {"standings": after}))
        return made

    _emit_when_heard(tournament, kinds, events)


def standings_changed(tournament: Tournament) -> None:
    _emit_when_heard(tournament, ["standings.changed"], lambda: [
        ("standings.changed", {"standings": standings_data(tournament)})])


def webhook_create(*, user: RequestUser, url: str, format: str, events: Iterable[str],
                   tournament: Tournament | None = None) -> WebhookSubscription:
    """A new subscription of ``user`` (who organises ``tournament``, or, without one, the
    tournaments they organise) to ``events`` at ``url``, with a new secret to verify its
    deliveries by, which the caller shows them once."""
    chosen = webhook_check(user=user, url=url, format=format, events=events,
                           tournament=tournament)
    assert user.is_authenticated  # webhook_check lets no one else by
    with transaction.atomic():
        held = WebhookSubscription.objects.select_for_update().filter(organiser_id=user.pk)
        if len(held) >= WEBHOOKS_A_PERSON:
            raise TournamentUserError(_("you hold %(count)d webhooks already: delete one "
                                        "first") % {"count": WEBHOOKS_A_PERSON})
        return WebhookSubscription.objects.create(
            organiser=user, tournament=tournament, url=url, format=format,
            events=chosen, secret=secrets.token_hex(32))


def webhook_check(*, user: RequestUser, url: str, format: str, events: Iterable[str],
                  tournament: Tournament | None = None) -> list[str]:
    """What :func:`webhook_create` checks before it writes (the admin's form asks it too):
    the events chosen, sorted, or the error saying what is wrong."""
    if not user.is_authenticated:
        raise PermissionDenied(_("log in to subscribe to a tournament's events"))
    if tournament is not None:
        require_organiser(user, tournament)
    elif not (user.is_superuser or user.organised.exists()):
        raise PermissionDenied(_("only organisers subscribe to tournaments' events"))
    chosen = sorted(set(events))
    unknown = [event for event in chosen if event not in TYPES]
    if unknown or not chosen:
        raise TournamentUserError(_("events: choose one or more of %(events)s")
                                  % {"events": ", ".join(sorted(TYPES))})
    if format not in WebhookSubscription.Format.values:
        raise TournamentUserError(_("format: choose one of %(formats)s")
                                  % {"formats": ", ".join(WebhookSubscription.Format.values)})
    checked_url(url)
    return chosen


def checked_url(url: str) -> str:
    """``url`` if it is one a webhook may post to: http or https, with a host, no login
    in it, at most 500 characters (where it resolves to is checked at each delivery)."""
    parts = urlsplit(url)
    if len(url) > 500 or parts.scheme not in ("http", "https") or not parts.hostname \
            or parts.username is not None or parts.password is not None:
        raise TournamentUserError(_("url: give an http:// or https:// address with a host "
                                    "(and no login in it), of 500 characters at most"))
    try:
        parts.port  # noqa: B018 - a port out of range raises when read
    except ValueError:
        raise TournamentUserError(_("url: its port is not a port number")) from None
    return url


def webhook_delete(*, user: RequestUser, subscription: WebhookSubscription) -> None:
    """Delete one of ``user``'s subscriptions, with its deliveries' log."""
    if subscription.organiser_id != user.pk:
        raise PermissionDenied(_("only its organiser deletes a webhook"))
    subscription.delete()


def webhook_ping(*, user: RequestUser, subscription: WebhookSubscription) -> WebhookDelivery:
    """Send a test event (``ping``) to one of ``user``'s subscriptions, active or not."""
    if subscription.organiser_id != user.pk and not user.is_superuser:
        raise PermissionDenied(_("only its organiser tests a webhook"))
    now = timezone.now()
    with transaction.atomic():
        delivery = WebhookDelivery.objects.create(
            subscription=subscription, event_id=uuid.uuid4(), event_type=PING,
            payload={"subscription": subscription.pk}, created=now, next_attempt=now)
        followups.webhooks_later([delivery.pk])
    return delivery


def webhook_send_again(*, user: RequestUser, deliveries: Iterable[WebhookDelivery]) -> int:
    """Send these deliveries of ``user``'s subscriptions again now, delivered or not (a
    receiver that lost one; the event id is the same, for it to deduplicate on); how many.
    One that fails again is retried only while its event's day of retries lasts."""
    chosen = [d.pk for d in deliveries
              if d.subscription.organiser_id == user.pk or user.is_superuser]
    if not chosen:
        return 0
    now = timezone.now()
    with transaction.atomic():
        count = WebhookDelivery.objects.filter(pk__in=chosen).update(
            status=WebhookDelivery.Status.PENDING, next_attempt=now, attempts=0,
            delivered_at=None)
        followups.webhooks_later(chosen)
    return count


def webhooks_enable(*, user: RequestUser,
                    subscriptions: Iterable[WebhookSubscription]) -> int:
    """Enable again these disabled subscriptions of ``user``'s (its receiver mended), with
    their count of failures started afresh; how many."""
    chosen = [s.pk for s in subscriptions if s.organiser_id == user.pk or user.is_superuser]
    return WebhookSubscription.objects.filter(pk__in=chosen, active=False).update(
        active=True, consecutive_failures=0, disabled_at=None, disabled_reason="")
