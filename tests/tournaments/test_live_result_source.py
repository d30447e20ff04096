"""A match played at a live table has one source of its result: the table's game when it
ends, or an organiser who ends the table from the director's view. While the table plays,
every other path (a player's score sheet, a record upload, the admin's forms, the API) is
refused with a sentence saying why, and stores nothing."""

from __future__ import annotations

import html
import json
import logging
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.live.models import LiveTable
from tournaments import services
from tournaments.models import Absence, Match, Result
from tournaments.services.online import record_live_result

from .factories import UserFactory
from .test_admin import logged_in
from .test_online import online, publish_first_round

pytestmark = pytest.mark.django_db

SHEET = [[0, 40], [30, 0], [0, 50], [40, 0], [20, 0]]
OUT = [0, 1, 2, 3, 1]
SAYS = "is being played at its live table: its result comes from the table's game"


@pytest.fixture
def organiser() -> Any:
    return UserFactory()


@pytest.fixture
def match(organiser: Any) -> Match:
    """alice (seat 0) and bob (seat 1) at their live table, in play."""
    tournament = online(organisers=[organiser])
    home, away = (entry.team for entry in tournament.entries.order_by("seed"))
    home.player_a.user = get_user_model().objects.create_user("alice", password="pw-a-12345")
    away.player_a.user = get_user_model().objects.create_user("bob", password="pw-b-12345")
    home.player_a.save(), away.player_a.save()
    match = publish_first_round(tournament, organiser)
    assert LiveTable.objects.get(match=match).status == LiveTable.Status.PLAYING
    return match


def nothing_stored(match: Match) -> None:
    assert not Result.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).status != Match.Status.DONE


def a_record(match: Match) -> dict[str, Any]:
    from .test_match_deals import played_on

    assert match.seed is not None
    return played_on(match.seed)


def test_the_api_refuses_a_players_score_sheet(match: Match) -> None:
    client = APIClient()
    client.force_authenticate(match.team_a.player_a.user)
    response = client.post(f"/api/v1/matches/{match.pk}/result/",
                           {"score_sheet": {"hand_scores": SHEET, "out_seats": OUT}},
                           format="json")
    assert response.status_code == 400 and SAYS in json.dumps(response.json())
    nothing_stored(match)


def test_the_api_refuses_an_organisers_record(organiser: Any, match: Match) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post(f"/api/v1/matches/{match.pk}/result/", {"record": a_record(match)},
                           format="json")
    assert response.status_code == 400 and SAYS in json.dumps(response.json())
    nothing_stored(match)


def test_the_players_score_sheet_page_refuses(match: Match) -> None:
    client = Client()
    client.force_login(match.team_a.player_a.user)
    data = {}
    for hand, (scores, out) in enumerate(zip(SHEET, OUT, strict=True), start=1):
        data.update({f"hand-{hand}-out": str(out), f"hand-{hand}-team-0": str(scores[0]),
                     f"hand-{hand}-team-1": str(scores[1])})
    response = client.post(reverse("tournaments:score_sheet", args=[match.pk]), data)
    assert SAYS in html.unescape(response.content.decode())
    nothing_stored(match)


def test_the_admins_score_sheet_refuses(organiser: Any, match: Match) -> None:
    data = {"hand-TOTAL_FORMS": "5", "hand-INITIAL_FORMS": "0", "hand-MIN_NUM_FORMS": "5",
            "hand-MAX_NUM_FORMS": "5"}
    for hand, (scores, out) in enumerate(zip(SHEET, OUT, strict=True)):
        data.update({f"hand-{hand}-team_a": str(scores[0]), f"hand-{hand}-team_b": str(scores[1]),
                     f"hand-{hand}-out_seat": str(out)})
    response = logged_in(organiser).post(
        reverse("admin:tournaments_match_score_sheet", args=[match.pk]), data)
    assert SAYS in html.unescape(response.content.decode())
    nothing_stored(match)


def test_the_admins_record_upload_refuses(organiser: Any, match: Match) -> None:
    upload = SimpleUploadedFile("game.json", json.dumps(a_record(match)).encode(),
                                content_type="application/json")
    response = logged_in(organiser).post(
        reverse("admin:tournaments_match_record", args=[match.pk]), {"file": upload})
    assert SAYS in html.unescape(response.content.decode())
    nothing_stored(match)


def test_once_the_table_is_ended_its_decision_stands_and_a_late_record_is_logged(
        organiser: Any, match: Match, caplog: pytest.LogCaptureFixture) -> None:
    services.match_end_live_table(match=match, hand_scores=SHEET, out_seats=OUT,
                                  reason="the table hung", user=organiser)
    table = LiveTable.objects.get(match=match)
    table.record = a_record(match)
    with caplog.at_level(logging.WARNING, logger="tournaments.services.online"):
        record_live_result(table)
    assert Result.objects.get(match=match).source == Result.Source.ENDED
    assert "already had a result (ended), which stands" in caplog.text


def test_an_organisers_correction_is_refused_while_the_table_plays(
        organiser: Any, match: Match) -> None:
    # a result from before the table was (re)opened: stored while it stood ended
    LiveTable.objects.filter(match=match).update(status=LiveTable.Status.ABANDONED)
    result = services.match_submit_score_sheet(match=match, hand_scores=SHEET, out_seats=OUT,
                                               user=organiser)
    LiveTable.objects.filter(match=match).update(status=LiveTable.Status.PLAYING)
    corrector = UserFactory()
    match.round.tournament.organisers.add(corrector)
    with pytest.raises(services.TournamentUserError, match=SAYS):
        services.result_correct(result=result, hand_scores=[[0, 10], *SHEET[1:]],
                                out_seats=OUT, user=corrector)
    kept = Result.objects.get(pk=result.pk)
    assert (kept.total_a, kept.total_b, kept.source) == (result.total_a, result.total_b,
                                                         Result.Source.SHEET)


def test_the_bot_job_does_not_play_a_match_whose_live_table_plays(
        organiser: Any, match: Match) -> None:
    """Every player marked absent once the table is open: the table's substitutes play
    their seats (``round_fill_seats``), so the match has bots in every seat; the round's bot
    job still leaves it to its table rather than playing it a second time offline."""
    for player in (match.team_a.player_a, match.team_a.player_b, match.team_b.player_a,
                   match.team_b.player_b):
        Absence.objects.create(tournament=match.round.tournament, round_number=1,
                               player=player)
    assert services.round_fill_seats(round=match.round, user=organiser) == 4
    assert LiveTable.objects.get(match=match).status == LiveTable.Status.PLAYING
    with pytest.raises(services.TournamentUserError):
        services.job_play_round_bots(round=match.round, user=organiser)
    assert services.match_play_bots(match_id=match.pk) is None
    nothing_stored(match)
