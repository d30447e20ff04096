"""A site with secret games in it, for the route census (``test_route_census.py``).

An online duplicate round of three tables: tables 1 and 2 have finished (bots played them;
their people are marked absent), table 3 is in play (its person has not yet played a
turn), so the round's boards are secret. Its organiser plays in it (on table 2's team).
And a robot duplicate event whose window is still open, with one entrant's game finished.

Playing those games takes seconds, so a test module builds the site once (``secret_site``,
``conftest.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.live.models import LiveTable
from robot_duplicate import services as robot_services
from robot_duplicate.models import RobotEntry, RobotEvent
from tests.robot_duplicate.test_robot_duplicate import open_event, person, play
from tournaments import services
from tournaments.models import (
    Division,
    League,
    Match,
    Round,
    Season,
    Seat,
    SeriesEvent,
    Tournament,
    WebhookSubscription,
)
from tournaments.services import webhooks

from .factories import UserFactory, tournament_with_teams


@dataclass
class SecretGames:
    tournament: Tournament
    round: Round
    matches: list[Match]  # by table number
    event: RobotEvent
    entry: RobotEntry  # the finished robot table's
    users: dict[str, Any]  # "anonymous" (None), "other table", "not yet played", "organiser"
    league: League  # its season 1 has the tournament as its division, season 2 as an event

    def release(self) -> None:
        """What makes every secret game public: the round's boards released, the robot
        event's window closed (its only table has finished)."""
        services.round_release_boards(round=self.round, user=self.users["organiser"])
        RobotEvent.objects.filter(pk=self.event.pk).update(
            closes=timezone.now() - timedelta(seconds=1))

    def fresh(self) -> SecretGames:
        """The same site read again from the database (a rolled-back test may have left
        these objects changed in memory)."""
        users = get_user_model().objects.in_bulk(
            [u.pk for u in self.users.values() if u is not None])
        matches = Match.objects.select_related("team_a", "table").in_bulk(
            [m.pk for m in self.matches])
        return SecretGames(
            Tournament.objects.get(pk=self.tournament.pk), Round.objects.get(pk=self.round.pk),
            [matches[m.pk] for m in self.matches], RobotEvent.objects.get(pk=self.event.pk),
            RobotEntry.objects.get(pk=self.entry.pk),
            {who: None if u is None else users[u.pk] for who, u in self.users.items()},
            League.objects.get(pk=self.league.pk))

    def tables(self) -> list[int]:
        """Every live table: the round's three, then the robot event's."""
        ids = [m.live_table_id for m in self.matches]
        return [pk for pk in ids if pk is not None] + [self.entry.live_table_id or 0]


def build(act: Any, capture: Any) -> SecretGames:
    """``act`` and ``capture``: the robot test's in-process bots and the on-commit hook."""
    organiser = UserFactory(username="organiser-who-plays")
    tournament = tournament_with_teams(6, play=Tournament.Play.ONLINE, bot_level="greedy",
                                       organisers=[organiser], duplicate="matchpoints",
                                       tiebreaks=["butler"], rounds_planned=2,
                                       name="Secret cup")
    # a webhook of every event of it: the census reads it through the API, and the secret
    # games' events are held back from it (test_webhooks.py); its deliveries are refused,
    # the address being private
    webhooks.webhook_create(user=organiser, url="http://127.0.0.1:9/hook", format="json",
                            events=WebhookSubscription.Event.values, tournament=tournament)
    league = League.objects.create(name="Secret league", slug="secret-league")
    league.organisers.add(organiser)
    Division.objects.create(tournament=tournament, level=1, season=Season.objects.create(
        league=league, number=1, name="Divisions"))
    SeriesEvent.objects.create(tournament=tournament, season=Season.objects.create(
        league=league, number=2, name="Series", kind=Season.Kind.SERIES))
    round = services.round_pair_next(tournament=tournament, user=organiser)
    matches = list(round.matches.filter(is_bye=False).select_related("team_a", "table")
                   .order_by("table__number"))
    other, waiting = person("other-table"), person("not-yet-played")
    for match, user in zip(matches, (other, organiser, waiting), strict=True):
        player = match.team_a.player_a
        player.user = user
        player.save()
        if user is not waiting:  # absent: a substitute plays for them, so the table
            # finishes at once (as an absence marked before the pairing seats it)
            Seat.objects.filter(match=match, position=0).update(
                player=None, bot_level="greedy", substitute=True)
    with capture(execute=True):
        services.round_publish(round=round, user=organiser)
    for match in matches:
        match.refresh_from_db()
    statuses = [LiveTable.objects.get(pk=m.live_table_id).status for m in matches]
    assert statuses == [LiveTable.Status.FINISHED] * 2 + [LiveTable.Status.PLAYING], [
        (s, list(LiveTable.objects.get(pk=m.live_table_id).seats.values_list("user_id", "bot")))
        for s, m in zip(statuses, matches, strict=True)]

    event = open_event(bot_level="random", name="Secret robot event")
    with capture(execute=True):
        entry = robot_services.robot_enter(event=event, user=person("robot-entrant"))
    assert entry.live_table_id is not None
    from games.live import service

    service.begin(entry.live_table_id)
    play(entry.live_table_id, act, random.Random(3))
    entry.refresh_from_db()
    assert LiveTable.objects.get(pk=entry.live_table_id).status == LiveTable.Status.FINISHED
    return SecretGames(tournament, round, matches, event, entry, {
        "anonymous": None, "other table": other, "not yet played": waiting,
        "organiser": organiser}, league)

