"""Editing a draft round's draw (services/draft.py): stored, checked, noted, warned."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from tournaments import services
from tournaments.models import Absence, Match, Round, Tournament

from .factories import UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db


def layout(round: Round) -> list[tuple[int, str, str, list[str]]]:
    """Each table: its number, its teams and who sits in seats 0 to 3."""
    rows = []
    for match in (Match.objects.filter(round=round, table__isnull=False)
                  .select_related("table", "team_a", "team_b").order_by("table__number")):
        seats = [str(seat.player or ("sub" if seat.substitute else "bot"))
                 for seat in match.seats.order_by("position").select_related("player")]
        rows.append((match.table.number, str(match.team_a), str(match.team_b or "bots"),
                     seats))
    return rows


def team_at(round: Round, number: int, side: int) -> Any:
    match = Match.objects.get(round=round, table__number=number)
    return match.team_b if side else match.team_a


def draft(teams: int = 6, **kwargs: Any) -> tuple[Round, Any]:
    organiser = UserFactory()
    tournament = tournament_with_teams(teams, organisers=[organiser], **kwargs)
    return services.round_pair_next(tournament=tournament, user=organiser), organiser


def play_round(round: Round, user: Any) -> None:
    services.round_publish(round=round, user=user)
    for match in round.matches.filter(is_bye=False):
        services.match_submit_score_sheet(match=match, hand_scores=[[0, 50]] * 5,
                                          out_seats=[0] * 5, user=user)
    services.round_complete(round=round, user=user)


def test_it_swaps_two_teams_between_tables_with_their_players_and_notes_it() -> None:
    round, organiser = draft()
    first, second = team_at(round, 1, 0), team_at(round, 2, 1)
    before = layout(round)

    edit = services.draft_swap_teams(round=round, team_1=first.pk, team_2=second.pk,
                                     user=organiser)

    after = layout(round)
    assert after[0][1] == second.name and after[1][2] == first.name
    assert after[0][3][0::2] == before[1][3][1::2]  # second's players, now in seats 0 and 2
    assert after[1][3][1::2] == before[0][3][0::2]
    assert after[2] == before[2]
    assert edit.description == (f"swapped {first.name} (table 1) and {second.name} (table 2)")
    round.refresh_from_db()
    assert organiser.username in round.draw_note and edit.description in round.draw_note


def test_it_moves_a_substitute_bot_with_its_team() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    absent = tournament.entries.get(seed=1).team
    Absence.objects.create(tournament=tournament, round_number=1, player=absent.player_b)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    elsewhere = Match.objects.exclude(team_a=absent).exclude(team_b=absent).get(round=round)

    services.draft_swap_teams(round=round, team_1=absent.pk, team_2=elsewhere.team_b_id,
                              user=organiser)

    seats = {s.position: s for s in Match.objects.get(pk=elsewhere.pk).seats.all()}
    assert seats[1].player_id == absent.player_a_id
    assert seats[3].player_id is None and seats[3].substitute


def test_it_swaps_a_teams_seats_and_moves_tables() -> None:
    round, organiser = draft()
    before = layout(round)
    third = Match.objects.get(round=round, table__number=3)

    services.draft_swap_seats(round=round, match_id=third.pk, side=1, user=organiser)
    services.draft_move_table(round=round, match_id=third.pk, number=1, user=organiser)

    after = layout(round)
    seats = before[2][3]
    assert after[0] == (1, before[2][1], before[2][2], [seats[0], seats[3], seats[2], seats[1]])
    assert [row[1:3] for row in after[1:]] == [row[1:3] for row in before[:2]]
    round.refresh_from_db()
    assert "moved table 3" in round.draw_note and "swapped the seats" in round.draw_note
    assert len(round.draw_note.splitlines()) == 2


def test_it_refuses_edits_that_do_not_apply_and_changes_nothing() -> None:
    round, organiser = draft()
    before = layout(round)
    a, b = team_at(round, 1, 0), team_at(round, 1, 1)
    with pytest.raises(services.TournamentUserError, match="play each other at table 1"):
        services.draft_swap_teams(round=round, team_1=a.pk, team_2=b.pk, user=organiser)
    with pytest.raises(services.TournamentUserError, match="there is no table 9"):
        services.draft_move_table(round=round, match_id=round.matches.first().pk, number=9,
                                  user=organiser)
    with pytest.raises(PermissionDenied):
        services.draft_swap_teams(round=round, team_1=a.pk, team_2=team_at(round, 2, 0).pk,
                                  user=UserFactory())
    assert layout(round) == before
    round.refresh_from_db()
    assert round.draw_note == ""

    services.round_publish(round=round, user=organiser)
    with pytest.raises(services.TournamentUserError,
                       match="round 1 is published: only a draft's draw can be changed"):
        services.draft_swap_teams(round=round, team_1=a.pk, team_2=team_at(round, 2, 0).pk,
                                  user=organiser)
    assert layout(round) == before


def test_a_knockout_draft_keeps_its_bracket() -> None:
    round, organiser = draft(4, format=Tournament.Format.KNOCKOUT)
    with pytest.raises(services.TournamentUserError, match="follows its bracket"):
        services.draft_swap_teams(round=round, team_1=team_at(round, 1, 0).pk,
                                  team_2=team_at(round, 2, 0).pk, user=organiser)
    second = Match.objects.get(round=round, table__number=2)
    services.draft_move_table(round=round, match_id=second.pk, number=1, user=organiser)
    assert Match.objects.get(pk=second.pk).table.number == 1


def test_a_swiss_edit_that_repeats_a_pairing_is_made_with_a_warning() -> None:
    round, organiser = draft(4, format=Tournament.Format.SWISS)
    first_opponent = {m.team_a_id: m.team_b for m in round.matches.all()}
    play_round(round, organiser)
    second = services.round_pair_next(tournament=round.tournament, user=organiser)
    a, b = team_at(second, 1, 0), team_at(second, 1, 1)
    again = first_opponent[a.pk]  # a's opponent in round 1, at the other table now

    edit = services.draft_swap_teams(round=second, team_1=b.pk, team_2=again.pk,
                                     user=organiser)

    names = sorted([a.name, again.name])
    assert (f"rematch: {names[0]} and {names[1]} already met in round 1" in edit.warnings)
    assert Match.objects.filter(round=second, team_a=a, team_b=again).exists()
    second.refresh_from_db()
    assert edit.warnings[0] in second.draw_note


def test_a_round_robin_edit_warns_of_a_pairing_due_later() -> None:
    round, organiser = draft(4, format=Tournament.Format.ROUND_ROBIN)
    edit = services.draft_swap_teams(round=round, team_1=team_at(round, 1, 0).pk,
                                     team_2=team_at(round, 2, 0).pk, user=organiser)
    assert len(edit.warnings) == 2
    assert all("also due to meet in round" in w for w in edit.warnings)
