"""Games bots played much of for people: a live record marks each action a bot played for a
person's seat (``"bot": "<level>"``), the result stores the largest share over the seats,
and a tournament with a ``bot_share_limit`` leaves the games above it out of its standings
and the ratings, still showing them, marked."""

from __future__ import annotations

import math
from copy import deepcopy
from typing import Any

import pytest
from django.urls import reverse

from games.bots import make_bot
from games.engine import play_game, verify
from tournaments import selectors, services
from tournaments.bot_share import bot_share, left_out, percent, seat_bot_shares
from tournaments.models import Match, RatingEntry, Result, Standing, Tournament
from tournaments.services.deals import match_deals
from tournaments.services.online import record_live_result

from .factories import UserFactory, tournament_with_teams
from .test_admin import logged_in, said
from .test_online import online, publish_first_round

pytestmark = pytest.mark.django_db


def actions(*seats: int, bot: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """Actions of ``seats`` in turn; those at the indexes in ``bot`` marked a bot's."""
    return [{"seat": seat, "do": "take", **({"bot": "greedy"} if index in bot else {})}
            for index, seat in enumerate(seats)]


def test_each_seats_share_is_its_marked_actions_over_its_actions() -> None:
    record = {"hands": [{"actions": actions(0, 1, 0, 1, 0, bot=frozenset({0, 2}))},
                        {"actions": actions(0, 2, bot=frozenset({0, 1}))}]}
    assert seat_bot_shares(record) == [3 / 4, 0.0, 1.0, 0.0]
    assert bot_share(record) == 1.0
    assert seat_bot_shares(None) == [0.0] * 4 and bot_share({"hands": []}) == 0.0
    assert bot_share({"hands": [{"actions": [{"seat": 7, "do": "take", "bot": "x"}]}]}) == 0


def test_a_game_is_left_out_only_above_the_limit() -> None:
    ten = {"hands": [{"actions": actions(*[0] * 10, bot=frozenset({1, 4, 8}))}]}
    share = bot_share(ten)
    assert share == 0.3
    assert not left_out(share, None) and not left_out(share, 30) and left_out(share, 29)
    assert not left_out(0.0, 1) and left_out(1.0, 99) and not left_out(1.0, 100)
    assert (percent(share), percent(1 / 3), percent(1.0), percent(0.125)) == (
        "30", "33.3", "100", "12.5")


def marked_record(match: Match, seat: int = 0, every: int = 3) -> dict[str, Any]:
    """A whole game on the match's deals, every ``every``-th action of ``seat`` marked as a
    bot's (the first of each hand among them)."""
    record = play_game([make_bot("random", s) for s in range(4)], *match_deals(match)).to_json()
    for hand in record["hands"]:
        own = [action for action in hand["actions"] if action["seat"] == seat]
        for action in own[::every]:
            action["bot"] = "greedy"
    return record


def expected_share(record: dict[str, Any], seat: int = 0) -> float:
    own = [a for hand in record["hands"] for a in hand["actions"] if a["seat"] == seat]
    return sum(1 for a in own if "bot" in a) / len(own)


def test_the_marks_leave_the_record_valid_and_its_result_stores_the_share() -> None:
    organiser = UserFactory()
    match = publish_first_round(online(organisers=[organiser]), organiser)
    record = marked_record(match)
    plain = deepcopy(record)
    for hand in plain["hands"]:
        for action in hand["actions"]:
            action.pop("bot", None)
    assert verify(record).status == "complete"
    assert verify(record).totals == verify(plain).totals  # the reader ignores the mark

    table = match.live_table
    assert table is not None
    table.record = record
    record_live_result(table)  # the finished table's handler
    result = Result.objects.get(match=match)
    assert result.source == Result.Source.ONLINE
    assert result.bot_share == pytest.approx(expected_share(record)) and result.bot_share > 0

    # a score sheet (at the venue: an online match's result comes from its table)
    entered = publish_first_round(tournament_with_teams(2, organisers=[organiser]), organiser)
    sheet = services.match_submit_score_sheet(
        match=entered, hand_scores=[[0, 40], [30, 0], [0, 50], [40, 0], [20, 0]],
        out_seats=[0, 1, 2, 3, 1], user=organiser)
    assert sheet.bot_share == 0


def played(tournament: Tournament) -> dict[int, int]:
    return dict(Standing.objects.filter(tournament=tournament, round_number=0)
                .values_list("team_id", "played"))


def test_the_standings_and_the_ratings_leave_out_games_above_the_limit_only(
        eager_tasks: None, django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament = online(organisers=[organiser])
    match = publish_first_round(tournament, organiser)
    record = marked_record(match)
    with django_capture_on_commit_callbacks(execute=True):
        result = services.results.match_store_live_record(match=match, record=record)
    share = result.bot_share
    teams = {match.team_a_id: 1, match.team_b_id: 1}
    assert played(tournament) == teams  # off by default: it counts
    services.ratings_rebuild()
    assert RatingEntry.objects.filter(match=match).count() == 4
    assert match.team_a_id in selectors.provisional_team_ids(tournament)

    tournament.bot_share_limit = math.ceil(share * 100) - 1  # just below the share
    tournament.save()
    services.standings_rebuild(tournament=tournament)
    services.ratings_rebuild()
    assert played(tournament) == {match.team_a_id: 0, match.team_b_id: 0}
    assert not RatingEntry.objects.filter(match=match).exists()
    assert not selectors.provisional_team_ids(tournament)

    tournament.bot_share_limit = math.ceil(share * 100)  # at or above it
    tournament.save()
    services.standings_rebuild(tournament=tournament)
    services.ratings_rebuild()
    assert played(tournament) == teams
    assert RatingEntry.objects.filter(match=match).count() == 4


def test_the_match_page_says_how_much_bots_played_and_marks_a_game_left_out(
        client: Any) -> None:
    organiser = UserFactory()
    tournament = online(organisers=[organiser])
    match = publish_first_round(tournament, organiser)
    result = services.results.match_store_live_record(match=match, record=marked_record(match))
    name = match.team_a.player_a.name
    url = reverse("tournaments:match_detail", args=[match.pk])
    line = f"Bots played {percent(result.bot_share)}% of {name}'s actions."
    page = client.get(url).content.decode()
    assert line in page and "Left out of the standings" not in page

    Tournament.objects.filter(pk=tournament.pk).update(
        bot_share_limit=math.ceil(result.bot_share * 100) - 1)
    page = client.get(url).content.decode()
    assert line in page
    assert ("<strong>Left out of the standings and the ratings</strong>: this tournament "
            f"leaves out games where bots played more than "
            f"{math.ceil(result.bot_share * 100) - 1}% of a player's actions.") in page
    round_page = client.get(reverse("tournaments:round_detail",
                                    args=[tournament.pk, 1])).content.decode()
    assert "Left out of the standings and the ratings: bots played much of this game." \
        in round_page
    finnish = client.get(url, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert f"Botit pelasivat {percent(result.bot_share)} % pelaajan {name} siirroista." \
        in finnish
    admin_page = logged_in(organiser).get(
        reverse("admin:tournaments_result_change", args=[result.pk])).content.decode()
    assert (f"bots played {percent(result.bot_share)}% of a person&#x27;s actions (left out "
            "of the standings and the ratings)") in admin_page


def test_changing_the_limit_in_the_admin_rebuilds_the_standings(
        eager_tasks: None, django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament = online(organisers=[organiser])
    match = publish_first_round(tournament, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        result = services.results.match_store_live_record(match=match,
                                                          record=marked_record(match))
    assert set(played(tournament).values()) == {1}
    entries = list(tournament.entries.order_by("pk"))
    data: dict[str, Any] = {
        "name": tournament.name, "format": "swiss", "status": "running", "rounds_planned": 3,
        "points_win": 2, "points_draw": 1, "points_loss": 0, "points_bye": 2,
        "bye_policy": "bye", "bot_level": "greedy", "knockout_tie_rule": "better_seed",
        "dealing": "platform", "play": "online", "spectators": "anyone", "turn_seconds": 60,
        "reserve_seconds": 300, "grace_seconds": 60,
        "organisers": [organiser.pk], "tiebreaks_0": "score_diff",
        "bot_share_limit": math.ceil(result.bot_share * 100) - 1,
        "entries-TOTAL_FORMS": len(entries), "entries-INITIAL_FORMS": len(entries),
        "absences-TOTAL_FORMS": 0, "absences-INITIAL_FORMS": 0,
        "forbidden_pairings-TOTAL_FORMS": 0, "forbidden_pairings-INITIAL_FORMS": 0,
        "schedule-TOTAL_FORMS": 0, "schedule-INITIAL_FORMS": 0}
    for number, entry in enumerate(entries):
        data.update({f"entries-{number}-id": entry.pk, f"entries-{number}-team": entry.team_id,
                     f"entries-{number}-seed": entry.seed,
                     f"entries-{number}-tournament": tournament.pk})
    with django_capture_on_commit_callbacks(execute=True):
        response = logged_in(organiser).post(
            reverse("admin:tournaments_tournament_change", args=[tournament.pk]), data,
            follow=True)
    assert "The bot-share limit changed" in said(response), response.content.decode()[:3000]
    assert set(played(tournament).values()) == {0}
