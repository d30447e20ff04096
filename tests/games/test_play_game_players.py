"""``play_game --players``: a record made for a match names the match's players in their
seats, so the platform accepts it for that match (and refuses it with the seats turned)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tournaments import services
from tournaments.models import Tournament
from tournaments.services import ResultRejected

from ..pages import organiser, published_round
from ..tournaments.factories import tournament_with_teams


def play(*args: str) -> dict[str, object]:
    out = StringIO()
    call_command("play_game", "--seed", "3", "--bots", "random,random,random,random", *args,
                 stdout=out)
    return json.loads(out.getvalue())


def test_the_record_names_the_seats_in_order() -> None:
    record = play("--players", " Anna, Bo ,Cai,Dan ")
    assert record["players"] == ["Anna", "Bo", "Cai", "Dan"]


def test_without_players_the_bots_are_named() -> None:
    assert play()["players"] == ["random bot"] * 4


@pytest.mark.parametrize(("players", "error"), [
    ("Anna,Bo,Cai", "--players needs four names (one per seat, seat 0 first, separated by "
                    "commas), got 3: 'Anna,Bo,Cai'"),
    ("Anna,Bo,Cai,Dan,Eve", "--players needs four names"),
    ("Anna,,Cai,Dan", "--players: the name of seat 1 is empty"),
    ("Anna,Bo, ,Dan", "--players: the name of seat 2 is empty"),
    ("", "--players needs four names"),
    ("Anna,Bo,anna,Dan", "--players: seats 0 and 2 are both named 'anna'"),
])
def test_bad_names_are_refused_saying_what_is_wrong(players: str, error: str,
                                                    tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    with pytest.raises(CommandError) as refused:
        call_command("play_game", "--players", players, "--out", str(out), stdout=StringIO())
    assert str(refused.value).startswith(error)
    assert not out.exists()


@pytest.mark.django_db
def test_a_record_made_for_a_match_is_accepted_for_it() -> None:
    user = organiser()
    tournament = tournament_with_teams(2, organisers=[user],
                                       dealing=Tournament.Dealing.VENUE)
    match = published_round(tournament).matches.get()
    seated = [seat.player.name for seat in match.seats.order_by("position")]
    turned = seated[1:] + seated[:1]  # every seat one place round: team A's players in B's

    with pytest.raises(ResultRejected, match=r"players\[0\]: the record seats"):
        services.match_submit_record(match=match, record=play("--players", ",".join(turned)),
                                     user=user)
    services.match_submit_record(match=match, record=play("--players", ",".join(seated)),
                                 user=user)

    match.refresh_from_db()
    assert match.result.record["players"] == seated
