"""A whole Swiss tournament, from its creation to its champion, run as a club's program
would run it: through a client generated from the served schema (openapi-python-client),
against a live server, with nothing but an organiser's API key. Every write carries an
Idempotency-Key, as a program that retries would send it."""

from __future__ import annotations

import uuid
from types import ModuleType
from typing import Any

import pytest

from tests.tournaments.factories import UserFactory
from tournaments.models import Tournament
from tournaments.services import keys

from .conftest import OUT, SHEET

pytestmark = pytest.mark.django_db(transaction=True)

# team A wins SHEET; the same game with the sides swapped, for team B to win it
SWAPPED = [[b, a] for a, b in SHEET]
OUT_SWAPPED = [(seat + 1) % 4 for seat in OUT]


def once() -> str:
    return str(uuid.uuid4())


def test_a_club_program_runs_a_swiss_to_its_champion(generated: ModuleType,
                                                     live_server: Any) -> None:
    from push_api_client import AuthenticatedClient
    from push_api_client.api.matches import matches_result_create
    from push_api_client.api.players import players_create
    from push_api_client.api.rounds import rounds_complete_create, rounds_publish_create
    from push_api_client.api.teams import teams_create
    from push_api_client.api.tournaments import (
        tournaments_create,
        tournaments_entries_create,
        tournaments_pair_next_create,
        tournaments_partial_update,
        tournaments_retrieve,
        tournaments_standings_retrieve,
    )
    from push_api_client.models import (
        EntryBodyRequest,
        FormatEnum,
        PatchedTournamentBodyRequest,
        PlayerBodyRequest,
        ResultSubmissionRequest,
        RoundDetail,
        ScoreSheetRequest,
        Standings,
        TeamBodyRequest,
        TiebreaksEnum,
        TournamentBodyRequest,
        TournamentDetail,
    )

    organiser = UserFactory()
    _row, key = keys.key_create(user=organiser, name="club program",
                                scopes=["read", "results", "organise"])

    def ok(answer: Any, code: int = 200) -> Any:
        assert answer.status_code == code, answer.content
        return answer.parsed

    with AuthenticatedClient(base_url=live_server.url, token=key, prefix="Bearer") as club:
        created = ok(tournaments_create.sync_detailed(client=club, idempotency_key=once(),
                                                      body=TournamentBodyRequest(
            name="Club Swiss", format_=FormatEnum.SWISS, rounds_planned=2,
            tiebreaks=[TiebreaksEnum.BUCHHOLZ])), 201)
        assert isinstance(created, TournamentDetail) and created.status.value == "upcoming"
        changed = ok(tournaments_partial_update.sync_detailed(
            created.id, client=club, idempotency_key=once(),
            body=PatchedTournamentBodyRequest(rounds_planned=3)))
        assert changed.settings.rounds_planned == 3

        players = [ok(players_create.sync_detailed(
            client=club, idempotency_key=once(),
            body=PlayerBodyRequest(name=f"Player {n}", handle=f"club-player-{n}")), 201)
            for n in range(1, 9)]
        teams = [ok(teams_create.sync_detailed(
            client=club, idempotency_key=once(),
            body=TeamBodyRequest(name=f"Seed {n + 1}", player_a=players[2 * n].id,
                                 player_b=players[2 * n + 1].id)), 201)
            for n in range(4)]
        for seed, team in enumerate(teams, start=1):
            entry = ok(tournaments_entries_create.sync_detailed(
                created.id, client=club, idempotency_key=once(),
                body=EntryBodyRequest(team=team.id, seed=seed)), 201)
            assert entry.seed == seed
        seeds = {team.id: seed for seed, team in enumerate(teams, start=1)}

        for number in (1, 2, 3):
            draft = ok(tournaments_pair_next_create.sync_detailed(
                created.id, client=club, idempotency_key=once()), 201)
            assert isinstance(draft, RoundDetail) and draft.number == number
            published = ok(rounds_publish_create.sync_detailed(draft.id, client=club,
                                                               idempotency_key=once()))
            assert published.status.value == "published" and len(published.matches) == 2
            for match in published.matches:
                # the better seed wins every game
                a_wins = seeds[match.team_a.id] < seeds[match.team_b.id]
                sheet = ScoreSheetRequest(hand_scores=SHEET if a_wins else SWAPPED,
                                          out_seats=OUT if a_wins else OUT_SWAPPED)
                ok(matches_result_create.sync_detailed(
                    match.id, client=club, idempotency_key=once(),
                    body=ResultSubmissionRequest(score_sheet=sheet)), 201)
            complete = ok(rounds_complete_create.sync_detailed(draft.id, client=club,
                                                               idempotency_key=once()))
            assert complete.status.value == "complete"

        finished = ok(tournaments_retrieve.sync_detailed(created.id, client=club))
        standings = ok(tournaments_standings_retrieve.sync_detailed(created.id, client=club))

    assert finished.status.value == "finished"
    assert [r.number for r in finished.rounds] == [1, 2, 3]
    assert isinstance(standings, Standings)
    assert standings.champion is not None and standings.champion.team == "Seed 1"
    assert [(row.team, row.wins, row.losses) for row in standings.rows][0] == ("Seed 1", 3, 0)
    assert standings.rows[-1].team == "Seed 4" and standings.rows[-1].wins == 0
    tournament = Tournament.objects.get(pk=created.id)
    assert list(tournament.organisers.all()) == [organiser]
    assert tournament.status == Tournament.Status.FINISHED
