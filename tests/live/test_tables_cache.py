"""``/tables/`` keeps its scan of the tables in play a few seconds for every visitor
(``listing._public``): what it keeps is the public's answer only, so no visitor is shown a
table they would be refused, whoever filled it; a visitor's own tables are read at every
request; and the list costs as many queries at any number of tables."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live import listing, service

from .conftest import SEED
from .test_tables_page import _restricted_tournament_table, _section

pytestmark = pytest.mark.django_db


def _listed(client: Client, table_id: int) -> bool:
    return f'data-table="{table_id}"' in _section(
        client.get(reverse("live:tables")).content.decode(), "watch-tables")


def test_a_table_its_organiser_is_shown_is_not_shown_to_others_from_the_kept_scan() -> None:
    table, organiser = _restricted_tournament_table("players")
    director = Client()
    director.force_login(organiser)
    assert _listed(director, table.pk)  # first, while the scan is made and kept
    assert not _listed(Client(), table.pk)
    outsider = Client()
    outsider.force_login(get_user_model().objects.create_user("eve", password="pw-eve-12345"))
    assert not _listed(outsider, table.pk)
    assert _listed(director, table.pk)  # still asked of the policy for them


def test_a_visitors_own_tables_are_fresh_while_the_others_wait_for_the_scan(
        player: Any, settings: Any) -> None:
    settings.LIVE_MAX_OPEN_PRACTICE_TABLES = None
    service.create_practice_table(player, "greedy", seat=0, seed=SEED)
    own = Client()
    own.force_login(player)
    own.get(reverse("live:tables"))  # the scan is kept from here
    new = service.create_practice_table(player, "greedy", seat=0, seed=SEED + 1)
    html = own.get(reverse("live:tables")).content.decode()
    assert f'data-table="{new.pk}"' in _section(html, "my-tables")
    assert not _listed(Client(), new.pk)  # the kept scan is older than the table
    from django.core.cache import cache

    cache.clear()  # as once FRESH_SECONDS have passed
    assert _listed(Client(), new.pk)


def _queries(user: Any) -> int:
    """The queries of ``user``'s list once the scan is kept (asked once before)."""
    listing.tables_now(AnonymousUser())
    with CaptureQueriesContext(connection) as queries:
        lists = listing.tables_now(user)
    assert lists.watchable
    return len(queries.captured_queries)


def test_the_list_costs_as_many_queries_at_any_number_of_tables(player: Any) -> None:
    """Each tournament's table is one its policy is asked about: the kept scan asks once
    for everyone, not once a visitor and table."""
    from django.core.cache import cache

    _restricted_tournament_table("anyone")
    few = _queries(AnonymousUser()), _queries(player)
    assert few[0] == 0  # the next visitor not logged in costs no query for the list
    for _more in range(3):
        _restricted_tournament_table("anyone")
    cache.clear()
    assert (_queries(AnonymousUser()), _queries(player)) == few
