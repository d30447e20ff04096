"""The TRF-style report: its columns where the manual says, a bye, a round not yet played."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments.exports.trf import Game, TeamLine, trf_report
from tournaments.models import Match

from .events import finished_swiss


def test_each_field_is_in_its_columns() -> None:
    report = trf_report(event="Spring Open", starts_on="2026-05-02", ends_on="", rounds_planned=3,
                        teams=[TeamLine(12, "A very long team name that is cut off here",
                                        4.5, 1, {1: Game(3, "b", "1"), 3: Game(0, "-", "U")})])
    lines = report.splitlines()
    assert lines[:5] == ["012 Spring Open", "042 2026-05-02", "052", "062 1", "XXR 3"]
    line = lines[5]

    def columns(first: int, last: int) -> str:  # 1-based, inclusive, as the manual counts
        return line[first - 1:last]

    assert columns(1, 3) == "001"
    assert columns(5, 8) == "  12"
    assert columns(10, 41) == "A very long team name that is cu"
    assert columns(43, 47) == "  4.5"
    assert columns(49, 52) == "   1"
    assert columns(54, 63) == "  0003 b 1"
    assert columns(64, 73) == " " * 10  # round 2: not paired
    assert columns(74, 83) == "  0000 - U"  # round 3: a bye


@pytest.mark.django_db
def test_it_reports_a_swiss_tournament_with_its_byes() -> None:
    tournament = finished_swiss(3, 3)
    response = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/trf/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    lines = [line for line in response.content.decode().splitlines() if line[:3] == "001"]
    assert len(lines) == 3
    byes = Match.objects.filter(round__tournament=tournament, is_bye=True)
    assert byes.count() == 3
    for bye in byes.select_related("round"):
        number = bye.team_a.entries.get(tournament=tournament).seed
        line = next(line for line in lines if int(line[4:8]) == number)
        start = 54 + 10 * (bye.round.number - 1) - 1
        assert line[start:start + 10] == "  0000 - U"
    for line in lines:
        blocks = [line[53 + 10 * r:63 + 10 * r] for r in range(3)]
        assert all(block[-1] in "10=U" for block in blocks)
