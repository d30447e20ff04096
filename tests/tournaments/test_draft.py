"""Editing a draft round's draw (services/draft.py): stored, checked, noted, warned."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from tournaments import services
from tournaments.models import Absence, ForbiddenPairing, Match, Round, Tournament

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


def test_an_edit_that_brings_a_pair_to_keep_apart_together_is_made_with_a_warning() -> None:
    round, organiser = draft(4, format=Tournament.Format.SWISS)
    a, b = team_at(round, 1, 0), team_at(round, 1, 1)
    other = team_at(round, 2, 1)
    ForbiddenPairing.objects.create(tournament=round.tournament, team_a=a, team_b=other)

    edit = services.draft_swap_teams(round=round, team_1=b.pk, team_2=other.pk,
                                     user=organiser)

    first, second = sorted([a.name, other.name])
    warning = f"kept apart: {first} and {second} are a pairing the organiser asked to avoid"
    assert edit.warnings == [warning]
    assert Match.objects.filter(round=round, team_a=a, team_b=other).exists()
    round.refresh_from_db()
    assert warning in round.draw_note


def test_a_round_robin_swap_re_plans_the_rounds_to_come_and_says_so() -> None:
    round, organiser = draft(4, format=Tournament.Format.ROUND_ROBIN)
    first, second = team_at(round, 1, 0), team_at(round, 2, 0)
    edit = services.draft_swap_teams(round=round, team_1=first.pk, team_2=second.pk,
                                     user=organiser)
    assert edit.warnings == []  # the pairs it brings together were due later: not any more
    assert edit.description.endswith("; the schedule is re-planned so that every pair of "
                                      "teams still meets once: rounds 2, 3 changed")
    round.refresh_from_db()
    assert edit.description in round.draw_note


def test_a_round_robin_swap_is_followed_by_every_later_round() -> None:
    # The swap brings together pairs the circle had due later: the later rounds pair them
    # never again, and pair the two it parted, so every pair meets exactly once.
    round, organiser = draft(6, format=Tournament.Format.ROUND_ROBIN)
    first, second = team_at(round, 1, 0), team_at(round, 2, 1)
    edit = services.draft_swap_teams(round=round, team_1=first.pk, team_2=second.pk,
                                     user=organiser)
    assert "re-planned so that every pair of teams still meets once" in edit.description
    tournament = round.tournament
    while True:
        play_round(round, organiser)
        if round.number == 5:
            break
        round = services.round_pair_next(tournament=tournament, user=organiser)
    meetings = [frozenset((m.team_a_id, m.team_b_id))
                for m in Match.objects.filter(round__tournament=tournament)]
    teams = tournament.entries.values_list("team_id", flat=True)
    assert sorted(meetings, key=sorted) == sorted(
        (frozenset((a, b)) for a in teams for b in teams if a < b), key=sorted)


def test_a_round_robin_swap_that_breaks_the_schedule_is_refused_and_changes_nothing() -> None:
    round, organiser = draft(4, format=Tournament.Format.ROUND_ROBIN)
    met = {m.team_a_id: m.team_b for m in round.matches.all()}
    play_round(round, organiser)
    second = services.round_pair_next(tournament=round.tournament, user=organiser)
    a, b = team_at(second, 1, 0), team_at(second, 1, 1)
    again = met.get(a.pk) or next(m.team_a for m in round.matches.all() if m.team_b_id == a.pk)
    before = layout(second)

    with pytest.raises(services.TournamentUserError) as refused:
        services.draft_swap_teams(round=second, team_1=b.pk, team_2=again.pk, user=organiser)

    said = re.fullmatch(r"(.+) and (.+) already met in round 1: in a round robin every pair "
                        r"of teams meets exactly once a cycle, so they cannot be paired again",
                        str(refused.value))
    assert said is not None  # a v again, or (four teams) b v its new opponent: both met
    assert {said[1], said[2]} in [{str(m.team_a), str(m.team_b)} for m in round.matches.all()]
    assert layout(second) == before
    second.refresh_from_db()
    assert second.draw_note == ""


def test_a_round_robin_swap_that_leaves_no_schedule_is_refused_saying_why() -> None:
    # six teams: round 3 pairs seeds 1-4, 5-3, 2-6; with 5-4 and 1-3 instead, the two
    # rounds left cannot hold the pairs not met yet (each team once a round)
    round, organiser = draft(6, format=Tournament.Format.ROUND_ROBIN)
    play_round(round, organiser)
    play_round(services.round_pair_next(tournament=round.tournament, user=organiser),
               organiser)
    third = services.round_pair_next(tournament=round.tournament, user=organiser)
    seed = {e.seed: e.team for e in round.tournament.entries.select_related("team")}
    assert {frozenset((m.team_a_id, m.team_b_id)) for m in third.matches.all()} == {
        frozenset((seed[a].pk, seed[b].pk)) for a, b in ((1, 4), (5, 3), (2, 6))}

    with pytest.raises(services.TournamentUserError, match=re.escape(
            "this change would leave no schedule in which every pair of teams meets exactly "
            "once a cycle (the pairs of teams that have not met yet cannot be split into the "
            "2 rounds left of the cycle, one meeting a team each round); the draw is "
            "unchanged")):
        services.draft_swap_teams(round=third, team_1=seed[1].pk, team_2=seed[5].pk,
                                  user=organiser)


def test_a_round_robin_whose_field_changed_takes_swaps_with_warnings_only() -> None:
    # a team withdrew after round 1: the rounds left follow the circle of the teams still
    # in, which no longer is a round robin of round 1's field, so there is no plan to keep
    round, organiser = draft(6, format=Tournament.Format.ROUND_ROBIN)
    play_round(round, organiser)
    round.tournament.entries.filter(seed=6).update(withdrawn=True)
    second = services.round_pair_next(tournament=round.tournament, user=organiser)

    first, other = team_at(second, 1, 0), team_at(second, 2, 0)

    edit = services.draft_swap_teams(round=second, team_1=first.pk, team_2=other.pk,
                                     user=organiser)

    assert "re-planned" not in edit.description
    assert all(w.startswith("rematch: ") for w in edit.warnings)
    assert (team_at(second, 1, 0), team_at(second, 2, 0)) == (other, first)
