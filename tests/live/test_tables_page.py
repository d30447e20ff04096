"""``/tables/``: the tables running now, the visitor's own first ("My tables"), then those
they may watch, each linked with its hand and who sits; a tournament's table its
spectator setting closes to outsiders is not listed for them."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.live import listing, service
from games.live.models import LiveTable

from .conftest import SEED

pytestmark = pytest.mark.django_db


def _section(html: str, list_id: str) -> str:
    """The list ``list_id`` of the page ("" when it is not there)."""
    start = html.find(f'id="{list_id}"')
    return "" if start < 0 else html[start:html.index("</ul>", start)]


def _restricted_tournament_table(spectators: str) -> tuple[LiveTable, Any]:
    """A published online round's table of a tournament whose spectators are
    ``spectators``; the table and its organiser."""
    from tests.tournaments.factories import UserFactory
    from tests.tournaments.test_online import online, publish_first_round

    organiser = UserFactory()
    tournament = online(organisers=[organiser], turn_seconds=None, spectators=spectators)
    match = publish_first_round(tournament, organiser)
    return LiveTable.objects.get(match=match), organiser


def test_anyone_sees_the_tables_in_play_linked_with_their_hand_and_seats(player: Any) -> None:
    table = service.create_practice_table(player, "greedy", seat=1, seed=SEED)
    finished = service.create_practice_table(player, "greedy", seat=1, seed=SEED + 1)
    LiveTable.objects.filter(pk=finished.pk).update(status=LiveTable.Status.FINISHED)
    response = Client().get(reverse("live:tables"))
    assert response.status_code == 200
    html = response.content.decode()
    watch = _section(html, "watch-tables")
    assert f'href="{reverse("live:table", args=[table.pk])}"' in watch
    assert "hand 1 of 5" in watch and "alice" in watch and "bot (greedy)" in watch
    assert f'data-table="{finished.pk}"' not in html  # not running now
    assert 'id="mine"' not in html  # nobody's own when logged out
    assert "log in" in html


def test_a_player_sees_their_own_tables_first(player: Any) -> None:
    mine = service.create_practice_table(player, "greedy", seat=0, seed=SEED)
    other = get_user_model().objects.create_user("bob", password="pw-bob-12345")
    theirs = service.create_practice_table(other, "greedy", seat=0, seed=SEED)
    client = Client()
    client.force_login(player)
    html = client.get(reverse("live:tables")).content.decode()
    own, watch = _section(html, "my-tables"), _section(html, "watch-tables")
    assert f'data-table="{mine.pk}"' in own and f'data-table="{theirs.pk}"' not in own
    assert f'data-table="{theirs.pk}"' in watch and f'data-table="{mine.pk}"' not in watch
    assert html.index('id="my-tables"') < html.index('id="watch-tables"')
    # one with no table of their own is told so
    client.force_login(get_user_model().objects.create_user("carol", password="pw-c-1234567"))
    html = client.get(reverse("live:tables")).content.decode()
    assert "You have no table in play." in html and _section(html, "my-tables") == ""


@pytest.mark.parametrize("spectators", ["nobody", "players"])
def test_a_tournament_table_closed_to_outsiders_is_not_listed_for_them(
        spectators: str) -> None:
    table, organiser = _restricted_tournament_table(spectators)
    shown = f'data-table="{table.pk}"'
    assert shown not in Client().get(reverse("live:tables")).content.decode()
    outsider = Client()
    outsider.force_login(get_user_model().objects.create_user("eve", password="pw-eve-12345"))
    assert shown not in outsider.get(reverse("live:tables")).content.decode()
    # its organisers may always watch it: listed, marked as a tournament's
    director = Client()
    director.force_login(organiser)
    watch = _section(director.get(reverse("live:tables")).content.decode(), "watch-tables")
    assert shown in watch and "tournament" in watch


def test_an_open_tournament_table_is_listed_for_anyone() -> None:
    table, _organiser = _restricted_tournament_table("anyone")
    assert f'data-table="{table.pk}"' in Client().get(reverse("live:tables")).content.decode()


def test_the_list_is_capped_at_the_newest(player: Any, settings: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    settings.LIVE_MAX_OPEN_PRACTICE_TABLES = None
    monkeypatch.setattr(listing, "SHOWN", 2)
    tables = [service.create_practice_table(player, "greedy", seat=0, seed=SEED + n)
              for n in range(4)]
    lists = listing.tables_now(get_user_model().objects.create_user("dan"))
    assert [t.table_id for t in lists.watchable] == [tables[3].pk, tables[2].pk]
    assert lists.more
    html = Client().get(reverse("live:tables")).content.decode()
    assert html.count("<li data-table=") == 2 and "The 2 newest are shown." in html
