"""The route census: every URL pattern of the site and the API, taken from the resolver (a
route added later is walked without anyone listing it), is asked for by four people while a
duplicate round and a robot duplicate event are secret: a visitor who is not logged in, a
player of another table (one that has finished), a player who has not yet played, and an
organiser who plays in the round. No answer (body or headers: ETags, counts, CSV, NDJSON)
holds a card, a score or a result of the secret games. Each marker is first shown to be
found, once the games are released, on the routes that show games, so the census cannot
pass by finding nothing anywhere.

Left out, each for its reason (``NOT_GAMES``): routes that show no game (accounts, a
person's notifications and mail, a partner's answer to an entry request, the language
switch, the rules, the favicon, the API's schema and login, OAuth2's consent and tokens),
practice tables among friends (never secret), and the admin, the organisers' workplace,
which withholds the secret games from an organiser who plays in their own way: its printed
deals through ``services.deals``, its matches and results through
``admin/scoping.without_secret_games`` (``test_admin_secret.py``)."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games.live import service
from games.live.models import LiveTable
from tests.robot_duplicate.test_robot_duplicate import act, play  # noqa: F401  (act: a fixture)
from tournaments.models import (
    EntryRequest,
    Player,
    Result,
    Team,
    WebhookDelivery,
    WebhookSubscription,
)
from tournaments.services.calendars import calendar_key_renew

from .factories import UserFactory
from .secret_games import SecretGames

pytestmark = pytest.mark.django_db

#: Route prefixes that show no game of anyone's, with why.
NOT_GAMES = {
    "admin/": "the organisers' workplace (see the module's docstring)",
    "accounts/": "logins, sign-up, invitations and a person's e-mail settings",
    "notifications/": "a person's own notifications: what happened and a link, no game",
    "mail/": "unsubscribing from mail",
    "i18n/": "the language switch",
    "rules/": "the rules",
    "favicon.ico": "an icon",
    "friends/": "practice tables among friends, never secret",
    "play/": "starts a practice table",
    "entries/": "a partner's answer to a request to enter a tournament",
    "api/v1/schema/": "the API's description",
    "api/v1/docs/": "the API's description",
    "api/v1/auth/": "API logins and tokens",
    "oauth/": "an app's consent page, its tokens and their revocation",
    "api/v1/^(?P<rest>.*)$": "the API's not-found answer",
}

PARAM = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def patterns(resolver: URLResolver, prefix: str = "") -> Iterator[str]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from patterns(entry, prefix + str(entry.pattern))
        else:
            assert isinstance(entry, URLPattern)
            yield prefix + str(entry.pattern)


class Values:
    """What to put for a route's path parameters: every object of the secret games each can
    name, read once for a census (the calendar tokens renewed once, so every route asks
    with the same, current ones). A parameter nobody taught the census fails the test."""

    def __init__(self, site: SecretGames) -> None:
        t, matches = site.tournament, site.matches
        players = [p.pk for p in Player.objects.filter(user__isnull=False)]
        teams = list(Team.objects.values_list("pk", flat=True))
        self.by_api: dict[str, list[Any]] = {
            "tournaments": [t.pk], "rounds": [site.round.pk],
            "matches": [m.pk for m in matches], "robot-events": [site.event.pk],
            "teams": [m.team_a_id for m in matches], "players": players,
            "leagues": [site.league.pk],
            "entry-requests": list(EntryRequest.objects.values_list("pk", flat=True)),
            "seasons": list(site.league.seasons.values_list("pk", flat=True)),
            "webhooks": list(WebhookSubscription.objects.values_list("pk", flat=True))}
        self.known: dict[str, list[Any]] = {
            "tournament_id": [t.pk], "number": [1, 2, 3, 4, 5],
            "match_id": [m.pk for m in matches], "table_id": site.tables(),
            "event_id": [site.event.pk], "entry_id": [site.entry.pk],
            "team_id": teams, "team": teams,  # an entry's team
            "player_id": players,
            "format": ["json", "csv", "ndjson"], "slug": [site.league.slug],
            "token": [calendar_key_renew(user=user).token for user in site.users.values()
                      if user is not None],
        }

    def __call__(self, route: str, name: str) -> list[str]:
        """What to put for path parameter ``name`` of ``route``."""
        if name == "pk":
            kind = route.removeprefix("api/v1/^").split("/")[0].split("\\")[0]
            assert kind in self.by_api, f"the census cannot fill {route}: teach it {kind!r}"
            return [str(v) for v in self.by_api[kind]]
        assert name in self.known, f"the census cannot fill {name!r} of {route}: teach it"
        return [str(v) for v in self.known[name]]


def paths(site: SecretGames) -> list[str]:
    """Every path the census asks for."""
    values = Values(site)
    found = []
    for route in patterns(get_resolver()):
        if any(route.startswith(prefix) for prefix in NOT_GAMES):
            continue
        names = [a or b for a, b in PARAM.findall(route)]
        for chosen in itertools.product(*(values(route, n) for n in names)):
            fill = iter(chosen)
            path = PARAM.sub(lambda _m, fill=fill: next(fill), route)
            path = path.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "")
            found.append("/" + path)
    return sorted(set(found))


def markers(site: SecretGames) -> dict[str, str]:
    """Text that only the secret games' answers hold, by what it is (compared with every
    space taken out of the answer): a finished table's total as a page and as the API and
    the records write it, its first actions as its record and its replay write them, its
    first board's result in the boards export, the robot event's ranking line."""
    found: dict[str, str] = {}
    match = site.matches[0]
    result = Result.objects.get(match=match)
    first, second = ((result.total_b, result.total_a) if result.winner == "b"
                     else (result.total_a, result.total_b))  # the winner's total first
    found["a total on a page"] = f"{first}–{second}"
    found["a total on the round page"] = f'<span class="total">{result.total_b}<'
    # the bots before its person may have ended a hand already (a seat can go out on its
    # first turn), so where it stands is asked of the live table, not assumed
    table3 = service.progress(LiveTable.objects.get(pk=site.matches[2].live_table_id))
    found["where table 3 stands"] = (f"Hand {table3.hand_no} of 5 · score "
                                     f"{table3.totals[0]}–{table3.totals[1]}")
    found["a total in the API"] = compact({"totals": [result.total_a, result.total_b]})[1:-1]
    first = result.hand_scores[0]
    found["a board in the export"] = (f"1,1,0,{match.team_a_id},{match.team_a.name},{match.pk},"
                                      f"1,{first[1] - first[0]},")
    for name, table_id in (("table 1", match.live_table_id),
                           ("the robot table", site.entry.live_table_id)):
        actions = LiveTable.objects.get(pk=table_id).record["hands"][0]["actions"]
        found[f"{name}'s record"] = compact(actions[:6])[1:-1]
        discard = next(action for action in actions if action["do"] == "discard")
        # the replay's own key order (PostgreSQL keeps a stored record's keys in its own)
        found[f"{name}'s replay"] = compact(
            {"act": {"seat": discard["seat"], "do": "discard", "card": discard["card"]}})[1:-1]
    found["the robot ranking"] = f"{site.entry.pk},{site.entry.player.username},,"
    return found


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def answer(client: Client, path: str) -> str:
    response = client.get(path, HTTP_ACCEPT="*/*")
    headers = " ".join(f"{k}: {v}" for k, v in response.items())
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return re.sub(r"\s+", "", f"{response.status_code} {headers} {body.decode(errors='replace')}")


def census(site: SecretGames, user: Any) -> dict[str, set[str]]:
    """Which markers each answer holds, by path, for ``user`` (None: logged out)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    found = {name: re.sub(r"\s+", "", marker) for name, marker in markers(site).items()}
    hits = {}
    for path in paths(site):
        text = answer(client, path)
        hits[path] = {name for name, marker in found.items() if marker in text}
    return hits


def test_once_released_every_marker_shows_where_games_are_shown(site: SecretGames) -> None:
    site.release()
    hits = census(site, None)
    shown = set().union(*hits.values())
    assert shown == set(markers(site))
    table, robot = site.matches[0].live_table_id, site.entry.live_table_id
    must = [
        (f"/tables/{table}/record.json", "table 1's record"),
        (f"/tables/{table}/replay.json", "table 1's replay"),
        (f"/tables/{robot}/record.json", "the robot table's record"),
        (f"/tables/{robot}/replay.json", "the robot table's replay"),
        (f"/matches/{site.matches[0].pk}/record.json", "table 1's record"),
        (f"/matches/{site.matches[0].pk}/", "a total on a page"),
        (f"/tournaments/{site.tournament.pk}/rounds/1/", "a total on the round page"),
        (f"/tournaments/{site.tournament.pk}/rounds/1/live/", "a total on the round page"),
        (f"/tournaments/{site.tournament.pk}/rounds/1/", "where table 3 stands"),
        (f"/api/v1/matches/{site.matches[0].pk}/", "a total in the API"),
        (f"/api/v1/tournaments/{site.tournament.pk}/boards.csv", "a board in the export"),
        (f"/api/v1/robot-events/{site.event.pk}/ranking.csv", "the robot ranking"),
    ]
    for path, marker in must:
        assert marker in hits[path], path


@pytest.mark.parametrize("who", ["anonymous", "other table", "not yet played", "organiser"])
def test_no_route_shows_a_secret_game(site: SecretGames, who: str) -> None:
    hits = census(site, site.users[who])
    leaks = {path: found for path, found in hits.items() if found}
    assert leaks == {}


def test_a_secret_rounds_tables_fragment_does_not_change_as_its_games_go_on(
        site: SecretGames, act: Any) -> None:  # noqa: F811
    """The round's fragment (and so its ETag) tells nothing of a secret table's play."""
    path = f"/tournaments/{site.tournament.pk}/rounds/1/live/"
    before = Client().get(path)
    table = site.matches[2].live_table_id
    assert table is not None
    service.begin(table)
    # the person plays out the hand in play (the bots may have ended one before them, and
    # the bots' answer to the person's last move may end the next one too)
    scored = len(service.update_since(table, 0, 0).view["scores"])
    play(table, act, random.Random(5), hands=scored + 1)
    after = Client().get(path)
    assert len(service.update_since(table, 0, 0).view["scores"]) > scored
    assert (after.content, after["ETag"]) == (before.content, before["ETag"])


@pytest.mark.parametrize("who", ["anonymous", "other table", "not yet played", "organiser"])
def test_no_route_tells_which_tables_of_a_secret_round_have_finished(
        site: SecretGames, who: str) -> None:
    """Tables 1 and 2 have finished, table 3 plays: as on the round's page, every table is
    being played everywhere (a team's and a player's results, the API's status and its
    filter), no team is marked provisional in the standings, and the match pages offer the
    same. An organiser who directs the round sees the statuses in the API."""
    client = Client()
    if site.users[who] is not None:
        client.force_login(site.users[who])
    done, playing = site.matches[0], site.matches[2]
    matches = f"/api/v1/matches/?round={site.round.pk}"

    def statuses(client: Client) -> dict[int, str]:
        return {m["id"]: m["status"] for m in client.get(matches).json()["results"]}

    def filtered(client: Client, status: str) -> int:
        count: int = client.get(f"{matches}&status={status}").json()["count"]
        return count

    assert set(statuses(client).values()) == {"playing"}
    assert client.get(f"/api/v1/matches/{done.pk}/").json()["status"] == "playing"
    assert (filtered(client, "done"), filtered(client, "playing")) == (0, 3)
    for match in (done, playing):
        for page in (f"/teams/{match.team_a_id}/", f"/players/{match.team_a.player_b_id}/"):
            text = client.get(page).content.decode()
            assert '">being played</a>' in text and '">done</a>' not in text, page
    standings = client.get(f"/tournaments/{site.tournament.pk}/standings/").content.decode()
    assert "badge-provisional" not in standings
    if who != "not yet played":  # who may enter table 3's sheet (refused while it plays)
        report = {match.pk: "Report the result" in client.get(f"/matches/{match.pk}/")
                  .content.decode() for match in (done, playing)}
        assert len(set(report.values())) == 1, report

    director = UserFactory(username="organiser-who-directs")
    site.tournament.organisers.add(director)
    directing = Client()
    directing.force_login(director)
    assert statuses(directing)[done.pk] == "done" and filtered(directing, "done") == 2
    site.release()
    assert statuses(client)[done.pk] == "done" and filtered(client, "done") == 2


@pytest.mark.parametrize(("who", "finished", "playing"), [
    ("someone", 0, 2), ("other table", 1, 2), ("organiser", 0, 2)])
def test_reporting_a_result_does_not_tell_which_tables_of_a_secret_round_have_finished(
        site: SecretGames, who: str, finished: int, playing: int) -> None:
    """Confirming, disputing or submitting a result of a table one does not play at answers
    alike for a finished table and one in play (``finished``, ``playing``: indexes of
    matches): 'no result to confirm' only where there is none told a logged-in stranger
    which tables had finished, and an organiser who plays in the round got 'already has a
    result'. The organiser who plays enters no result of the round's other tables (the
    admin shows them none), as a stranger."""
    user = site.users.get(who) or UserFactory(username="someone", is_staff=False)
    client = Client()
    client.force_login(user)
    sheet = {"score_sheet": {"hand_scores": [[0, 40], [30, 0], [0, 50], [40, 0], [20, 0]],
                             "out_seats": [0, 1, 2, 3, 1]}}
    answers = {}
    for index in (finished, playing):
        match = site.matches[index]
        name = str(match)
        said = []
        for path, body in ((f"/api/v1/matches/{match.pk}/result/confirm/", {}),
                           (f"/api/v1/matches/{match.pk}/result/", sheet)):
            response = client.post(path, body, content_type="application/json")
            said.append((response.status_code, response.content.decode().replace(name, "M")))
        for page in ("confirm", "dispute"):
            said.append(client.post(f"/matches/{match.pk}/result/{page}/").status_code)
        answers[index] = said
    assert answers[finished] == answers[playing]
    assert not Result.objects.filter(match=site.matches[playing]).exists()


def test_no_webhook_hears_of_a_secret_game_before_its_release(site: SecretGames) -> None:
    """The organiser's webhook of every event of the tournament: while the round is secret,
    its deliveries hold no result of it (nor that a table finished); released, they do."""
    marker = markers(site)["a total in the API"]

    def told() -> tuple[set[str], bool]:
        rows = WebhookDelivery.objects.values_list("event_type", "payload")
        return {kind for kind, _data in rows}, any(marker in compact(data)
                                                   for _kind, data in rows)

    assert told() == ({"tournament.started", "round.published", "table.opened"}, False)
    site.release()
    kinds, shown = told()
    assert {"table.finished", "result.confirmed"} <= kinds and shown
