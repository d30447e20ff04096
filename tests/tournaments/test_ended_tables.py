"""An organiser ends a live table whose game cannot finish: the score sheet they decide is
the match's result (source *ended*, with their reason), the table stops, and every refusal
changes nothing; a report of the finished game arriving later leaves their result.

The console counts a published online round's live tables and says when every one is done,
offering to complete the round."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from games.bots import make_bot
from games.engine import play_game
from games.live.models import LiveTable
from tournaments import selectors, services
from tournaments.models import Match, Result, Round, Standing
from tournaments.services.deals import match_deals
from tournaments.services.online import record_live_result

from .factories import UserFactory, tournament_with_teams
from .test_admin import logged_in, said
from .test_console import buttons, console, next_step
from .test_online import online, publish_first_round

pytestmark = pytest.mark.django_db

SHEET = [[0, 40], [30, 0], [0, 50], [40, 0], [20, 0]]  # 90 each, with OUTS
OUTS = [0, 1, 2, 3, 1]
A_WINS = [[0, 40], [30, 0], [0, 50], [40, 0], [0, 25]]  # 70 against 115: team A wins
A_OUTS = [0, 1, 2, 3, 0]


@pytest.fixture
def organiser() -> Any:
    return UserFactory()


@pytest.fixture
def match(organiser: Any) -> Match:
    """The one match of a published online round, its live table being played."""
    return publish_first_round(online(organisers=[organiser]), organiser)


def table_of(match: Match) -> LiveTable:
    return LiveTable.objects.get(match=match)


def end(match: Match, user: Any, reason: Any = "Bo's connection is gone for good",
        hand_scores: Any = None, out_seats: Any = None) -> Result:
    return services.match_end_live_table(
        match=match, hand_scores=A_WINS if hand_scores is None else hand_scores,
        out_seats=A_OUTS if out_seats is None else out_seats, reason=reason, user=user)


def finished_record(match: Match) -> dict[str, Any]:
    """The whole game on the match's own deals, played by bots: what the table would have
    written had it finished."""
    return play_game([make_bot("random", seat) for seat in range(4)],
                     *match_deals(match)).to_json()


def test_the_organiser_ends_a_stuck_table_and_their_score_sheet_counts(
        organiser: Any, match: Match, eager_tasks: None,
        django_capture_on_commit_callbacks: Any) -> None:
    # a person's clock running (bots hold every seat here, so none runs by itself)
    LiveTable.objects.filter(match=match).update(deadline=timezone.now() + timedelta(minutes=1))
    table = table_of(match)
    assert table.status == LiveTable.Status.PLAYING and table.deadline is not None
    with django_capture_on_commit_callbacks(execute=True):
        result = end(match, organiser, reason="  Bo's connection is gone for good ")
    assert result.source == Result.Source.ENDED and result.confirmed
    assert result.reason == "Bo's connection is gone for good"
    assert (result.total_a, result.total_b, result.winner) == (70, 115, "a")
    assert result.entered_by == organiser and result.record is None and result.bot_share == 0
    assert Match.objects.get(pk=match.pk).status == Match.Status.DONE
    table.refresh_from_db()
    assert table.status == LiveTable.Status.ENDED and table.deadline is None
    points = dict(Standing.objects.filter(tournament=match.round.tournament, round_number=0)
                  .values_list("team_id", "points"))
    assert points == {match.team_a_id: 2, match.team_b_id: 0}


def assert_nothing_changed(match: Match, table: LiveTable) -> None:
    assert not Result.objects.filter(match=match).exists()
    now = table_of(match)
    assert (now.status, now.seq, now.deadline) == (table.status, table.seq, table.deadline)
    assert Match.objects.get(pk=match.pk).status == Match.Status.PENDING


@pytest.mark.parametrize(("reason", "says"), [
    ("", "say why the table is ended"),
    ("   \n", "say why the table is ended"),
    (None, "say why the table is ended"),
    ("x" * 501, "500 characters at most"),
])
def test_a_missing_or_overlong_reason_is_refused(organiser: Any, match: Match, reason: Any,
                                                 says: str) -> None:
    table = table_of(match)
    with pytest.raises(services.TournamentUserError, match=says):
        end(match, organiser, reason=reason)
    assert_nothing_changed(match, table)


def test_an_impossible_score_sheet_is_refused_hand_by_hand(organiser: Any,
                                                           match: Match) -> None:
    table = table_of(match)
    with pytest.raises(services.ResultRejected, match="hand 5"):
        end(match, organiser, hand_scores=SHEET, out_seats=[0, 1, 2, 3, 0])  # 0 went out
    with pytest.raises(services.ResultRejected):
        end(match, organiser, hand_scores=SHEET[:4], out_seats=OUTS[:4])  # four hands
    assert_nothing_changed(match, table)


def test_only_an_organiser_of_the_tournament_ends_its_table(match: Match) -> None:
    table = table_of(match)
    other = UserFactory()  # staff, organising another tournament
    tournament_with_teams(2, organisers=[other])
    with pytest.raises(PermissionDenied, match="only the organisers"):
        end(match, other)
    assert_nothing_changed(match, table)


def test_an_organiser_who_plays_in_the_match_does_not_end_its_table(organiser: Any,
                                                                    match: Match) -> None:
    table = table_of(match)
    player = match.team_a.player_a
    player.user = organiser
    player.save()
    with pytest.raises(PermissionDenied, match="plays in a match"):
        end(match, organiser)
    assert_nothing_changed(match, table)


def test_a_table_whose_game_finished_is_not_ended(organiser: Any, match: Match) -> None:
    """Finished, its report not yet in: the result comes from the game, and the organiser's
    sheet, written first in the transaction, is rolled back with it."""
    LiveTable.objects.filter(match=match).update(status=LiveTable.Status.FINISHED,
                                                 record=finished_record(match), deadline=None)
    table = table_of(match)
    with pytest.raises(services.TournamentUserError, match="no longer in play"):
        end(match, organiser)
    assert_nothing_changed(match, table)


def test_a_table_reported_or_ended_already_has_its_result(organiser: Any,
                                                          match: Match) -> None:
    LiveTable.objects.filter(match=match).update(status=LiveTable.Status.FINISHED,
                                                 record=finished_record(match), deadline=None)
    record_live_result(table_of(match))
    with pytest.raises(services.ResultExists):
        end(match, organiser)
    assert Result.objects.get(match=match).source == Result.Source.ONLINE
    assert table_of(match).status == LiveTable.Status.FINISHED

    second = publish_first_round(online(organisers=[organiser]), organiser)
    end(second, organiser)
    with pytest.raises(services.ResultExists):
        end(second, organiser, reason="again")
    assert Result.objects.get(match=second).reason == "Bo's connection is gone for good"


def test_a_match_at_the_venue_has_no_table_to_end(organiser: Any) -> None:
    tournament = tournament_with_teams(2, organisers=[organiser])
    match = publish_first_round(tournament, organiser)
    with pytest.raises(services.TournamentUserError, match="not played at a live table"):
        end(match, organiser)
    assert not Result.objects.filter(match=match).exists()


def test_a_report_of_the_game_arriving_after_the_end_leaves_the_organisers_result(
        organiser: Any, match: Match) -> None:
    end(match, organiser)
    table = table_of(match)
    table.record = finished_record(match)  # as if a finished game's report came late
    record_live_result(table)
    result = Result.objects.get(match=match)
    assert (result.source, result.reason, result.total_a) == (
        Result.Source.ENDED, "Bo's connection is gone for good", 70)


# -- the console and the admin pages --------------------------------------------------


def test_the_console_counts_the_live_tables_and_says_when_the_round_is_done(
        organiser: Any) -> None:
    tournament = online(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    first, second = round.matches.order_by("table__number")
    client = logged_in(organiser)

    assert selectors.live_tables_by_round(tournament) == {1: selectors.LiveTables(2, 2, 0)}
    page = client.get(console(tournament)).content.decode()
    assert "Online: 0 of 2 live tables done, 2 being played." in page
    assert "2 table(s) are being played online" in page
    assert "Not now: 2 tables are still being played online" in page
    assert page.count(">end table ") == 2
    assert reverse("admin:tournaments_match_end_table", args=[first.pk]) in page
    assert "is done: complete the round" not in page and buttons(page)["complete"] is False

    end(first, organiser)
    # the second finishes and is reported, as a finished game is
    LiveTable.objects.filter(match=second).update(status=LiveTable.Status.FINISHED,
                                                  record=finished_record(second))
    assert selectors.live_tables_by_round(tournament)[1] == selectors.LiveTables(2, 0, 1)
    page = client.get(console(tournament)).content.decode()
    assert "Online: 1 of 2 live tables done, 0 being played." in page
    assert "is done: complete the round" not in page  # its report is not in yet

    record_live_result(table_of(second))
    LiveTable.objects.filter(match=second).update(reported=True)
    assert selectors.live_tables_by_round(tournament)[1].all_done
    page = client.get(console(tournament)).content.decode()
    assert "Online: 2 of 2 live tables done, 0 being played." in page
    assert "Every table of round 1 is done: complete the round." in page
    assert next_step(page) == "complete" and buttons(page)["complete"] is True
    assert ">end table " not in page


def test_a_round_at_the_venue_has_no_live_tables_to_count(organiser: Any) -> None:
    tournament = tournament_with_teams(2, organisers=[organiser])
    publish_first_round(tournament, organiser)
    assert selectors.live_tables_by_round(tournament) == {}
    page = logged_in(organiser).get(console(tournament)).content.decode()
    assert "Online:" not in page and "is done: complete the round" not in page


def test_the_end_table_page_ends_it_and_refuses_a_missing_reason(organiser: Any,
                                                                 match: Match) -> None:
    client = logged_in(organiser)
    change = reverse("admin:tournaments_match_change", args=[match.pk])
    url = reverse("admin:tournaments_match_end_table", args=[match.pk])
    assert url in client.get(change).content.decode()
    assert "score sheet below is the match" in client.get(url).content.decode()
    data: dict[str, Any] = {"hand-TOTAL_FORMS": "5", "hand-INITIAL_FORMS": "0"}
    for number, (scores, out) in enumerate(zip(A_WINS, A_OUTS, strict=True)):
        data.update({f"hand-{number}-team_a": scores[0], f"hand-{number}-team_b": scores[1],
                     f"hand-{number}-out_seat": out})
    refused = client.post(url, {**data, "reason": " "})
    assert refused.status_code == 200 and "This field is required." in refused.content.decode()
    assert not Result.objects.filter(match=match).exists()

    response = client.post(url, {**data, "reason": "the table hangs"}, follow=True)
    assert "The live table of" in said(response) and "is ended" in said(response)
    page = response.content.decode()
    assert "the table hangs" in page and url not in page  # the reason shown, no link now
    assert table_of(match).status == LiveTable.Status.ENDED
    result_page = client.get(reverse("admin:tournaments_result_change",
                                     args=[match.result.pk])).content.decode()
    assert "the table hangs" in result_page
    assert "decided by the organiser (live table ended)" in result_page


def test_another_organisers_match_has_no_end_table_page(match: Match) -> None:
    client = logged_in(UserFactory())
    url = reverse("admin:tournaments_match_end_table", args=[match.pk])
    assert client.get(url).status_code in (302, 404)
    assert client.post(url, {"reason": "mine now"}).status_code in (302, 404)
    assert table_of(match).status == LiveTable.Status.PLAYING


def test_the_match_page_shows_the_organisers_decision_and_reason(organiser: Any,
                                                                 match: Match,
                                                                 client: Any) -> None:
    end(match, organiser, reason="Bo's connection is gone for good")
    page = client.get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()
    assert ("The organisers ended this game's live table before it finished and decided "
            "the result: Bo&#x27;s connection is gone for good") in page
    round_page = client.get(reverse("tournaments:round_detail",
                                    args=[match.round.tournament_id, 1])).content.decode()
    assert "Decided by the organisers: the live table was ended." in round_page
    assert Round.objects.get(pk=match.round_id).status == Round.Status.PUBLISHED
