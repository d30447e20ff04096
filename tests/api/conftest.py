"""A small league to read and write through the API.

``league``: a Swiss tournament of four teams, run by ``organiser``. Round 1 is complete
(two score sheets; standings stored after it; ratings rebuilt); round 2 is published with
no results yet, and one of its players was marked absent, so a bot substitutes. ``cup`` is
another organiser's tournament whose round 1 is still a draft.

It is built once for a test module (``module_league``), in a transaction rolled back after
the module's last test, and each test runs in a savepoint inside it, so what one test writes
is undone before the next. A test whose writes must be committed, because a server or
another thread reads them, asks for ``committed_league`` instead, built for it alone; a
module holds tests of one kind or the other, as the module's transaction must be gone
before a test that commits.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.bots import make_bot
from games.engine.play import deal_from_seed, play_game
from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments import services
from tournaments.models import Absence, Match, Round, Tournament
from tournaments.services import keys

from .client_generation import generated_client

SHEET = [[0, 40], [30, 0], [0, 50], [40, 0], [0, 25]]
OUT = [0, 1, 2, 3, 0]


def database_state() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every tournament model, to compare before and after."""
    return {model.__name__: sorted(map(tuple, model.objects.values_list()), key=repr)
            for model in apps.get_app_config("tournaments").get_models()}


@dataclass
class League:
    organiser: Any
    tournament: Tournament
    round1: Round
    round2: Round
    match: Match  # round 2, published, no result, every seat a person
    substituted: Match  # round 2: one seat a substitute bot
    cup: Tournament
    cup_organiser: Any
    draft_match: Match  # the cup's round 1, a draft

    def fresh(self) -> League:
        """The same league read again from the database (a rolled-back test may have left
        these objects changed in memory)."""
        return League(*(type(value)._default_manager.get(pk=value.pk)
                         for value in (getattr(self, field.name) for field in fields(self))))

    def client(self, user: Any = None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client


def client_of(user: Any) -> APIClient:
    """A client logged in as ``user`` (a session's every scope)."""
    client = APIClient()
    client.force_authenticate(user)
    return client


def counted_queries(send: Any) -> tuple[Any, int]:
    """What ``send()`` answers, and how many queries it made."""
    with CaptureQueriesContext(connection) as queries:
        response = send()
    return response, len(queries)


def bearer(key: str) -> APIClient:
    """A client sending ``key`` (an API key or an app's access token) as its Bearer."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def key_client(user: Any, scopes: list[str], tournaments: list[Tournament]) -> APIClient:
    """A client with a new API key of ``user``'s, of those scopes and tournaments."""
    _row, key = keys.key_create(user=user, name="tool", scopes=scopes, tournaments=tournaments)
    return bearer(key)


def seated_user(match: Match, position: int) -> Any:
    """Give the player in ``position`` a user account and return it."""
    player = match.seats.get(position=position).player
    player.user = UserFactory(is_staff=False)
    player.save()
    return player.user


@pytest.fixture
def record(league: League) -> dict[str, Any]:
    """A complete, legal push-record/1 game played on ``league.match``'s own deals (the
    platform deals: a record of other packs is refused)."""
    return play_game([make_bot("random", seat) for seat in range(4)],
                     *deal_from_seed(league.match.seed)).to_json()


@pytest.fixture
def league(module_league: League, db: Any) -> League:
    """The module's league, its objects read again for this test."""
    return module_league.fresh()


@pytest.fixture
def committed_league(transactional_db: Any) -> League:
    """The league built and committed for this test alone (its server or threads read it)."""
    return build_league()


@pytest.fixture(scope="module")
def module_league(django_db_setup: None, django_db_blocker: Any) -> Iterator[League]:
    """``build_league`` once for a test module (a third of a second of a core, more on a
    loaded machine, for each of some 150 tests), in a transaction rolled back after its
    last test. Each test runs in a savepoint inside it (pytest-django's own)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_league()
        transaction.set_rollback(True)


def build_league() -> League:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser], name="Spring League")
    round1 = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round1, user=organiser)
    for match in round1.matches.all():
        services.match_submit_score_sheet(match=match, hand_scores=SHEET, out_seats=OUT,
                                          user=organiser)
    services.round_complete(round=round1, user=organiser)
    services.ratings_rebuild()

    absent = tournament.entries.order_by("seed").last().team.player_b
    Absence.objects.create(tournament=tournament, round_number=2, player=absent)
    round2 = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round2, user=organiser)
    matches = list(round2.matches.all())
    substituted = next(m for m in matches if m.seats.filter(substitute=True).exists())
    match = next(m for m in matches if m != substituted)

    cup_organiser = UserFactory()
    cup = tournament_with_teams(2, organisers=[cup_organiser], name="Autumn Cup",
                                format=Tournament.Format.ROUND_ROBIN)
    draft = services.round_pair_next(tournament=cup, user=cup_organiser)
    return League(organiser, tournament, round1, round2, match, substituted, cup,
                  cup_organiser, draft.matches.get())


@pytest.fixture
def generated(tmp_path: Path, live_server: Any) -> Iterator[ModuleType]:
    """The client generated from the schema ``live_server`` serves, imported."""
    with generated_client(live_server.url, tmp_path) as package:
        yield package
