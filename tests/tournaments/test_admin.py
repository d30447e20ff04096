"""The organiser's admin: who sees what, the round actions, and entering results."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.bots import make_bot
from games.engine.play import deal_from_seed, play_game
from tournaments import selectors, services
from tournaments.models import (
    Absence,
    Club,
    Entry,
    ForbiddenPairing,
    Job,
    Match,
    Player,
    RatingEntry,
    Result,
    Round,
    Standing,
    Team,
    Tournament,
)

from .factories import UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db


def url(name: str, *args: Any) -> str:
    return reverse(f"admin:tournaments_{name}", args=args)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def act(client: Client, model: str, action: str, *objects: Any) -> Any:
    """Run a changelist action on ``objects``; the response after the redirect."""
    return client.post(url(f"{model}_changelist"),
                       {"action": action, "_selected_action": [o.pk for o in objects]},
                       follow=True)


def said(response: Any) -> str:
    return " | ".join(str(m) for m in response.context["messages"])


def all_absent(tournament: Tournament, number: int = 1) -> None:
    """Every player misses round ``number``: bots take every seat."""
    for entry in tournament.entries.select_related("team"):
        for player in (entry.team.player_a, entry.team.player_b):
            Absence.objects.create(tournament=tournament, round_number=number, player=player)


def published_round(tournament: Tournament) -> Round:
    round = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round)
    return round


def bot_record(seed: int = 7) -> dict[str, Any]:
    first_dealer, decks = deal_from_seed(seed)
    return play_game([make_bot("random", seat) for seat in range(4)], first_dealer,
                     decks).to_json()


def test_it_answers_every_changelist_and_change_page_for_a_superuser() -> None:
    tournament = tournament_with_teams(4)
    all_absent(tournament)
    round = published_round(tournament)
    for match_id in selectors.round_bot_match_ids(round):
        services.match_play_bots(match_id=match_id)
    services.round_complete(round=round)
    Job.objects.create(tournament=tournament, kind="play round 1", total=2, done=2,
                       match_ids=list(round.matches.values_list("pk", flat=True)))
    superuser = UserFactory(is_superuser=True)
    people = published_round(tournament_with_teams(2)).matches.get()  # rated: no bots
    services.match_submit_score_sheet(match=people, hand_scores=[[0, 50]] * 5,
                                      out_seats=[0] * 5, user=superuser)
    services.ratings_rebuild()
    pending = published_round(tournament_with_teams(2)).matches.get()
    Club.objects.create(name="Kallio")
    client = logged_in(superuser)

    for model in (Player, Team, Club, Tournament, Entry, Absence, Round, Match, Result, Standing,
                  Job, RatingEntry):
        name = model._meta.model_name
        assert client.get(url(f"{name}_changelist")).status_code == 200, name
        obj = model.objects.first()
        assert obj is not None, name
        assert client.get(url(f"{name}_change", obj.pk)).status_code == 200, name
    for name in ("player", "team", "club", "tournament", "entry", "absence"):
        assert client.get(url(f"{name}_add")).status_code == 200, name
    page = client.get(url("match_change", pending.pk)).content.decode()
    for name in ("match_record", "match_score_sheet"):
        assert url(name, pending.pk) in page
        assert client.get(url(name, pending.pk)).status_code == 200


def test_creating_a_tournament_makes_its_creator_an_organiser() -> None:
    organiser = UserFactory()
    response = logged_in(organiser).post(url("tournament_add"), {
        "name": "Spring Cup", "format": "swiss", "status": "upcoming", "rounds_planned": 3,
        "points_win": 2, "points_draw": 1, "points_loss": 0, "points_bye": 2,
        "tiebreaks": "[]", "bye_policy": "bye", "bot_level": "random",
        "knockout_tie_rule": "most_hands_won_by_going_out", "dealing": "platform",
        "play": "venue", "spectators": "anyone",
        **{f"{prefix}-{key}": value for prefix in ("entries", "absences", "forbidden_pairings")
           for key, value in (("TOTAL_FORMS", 0), ("INITIAL_FORMS", 0))}})

    assert response.status_code == 302, response.content.decode()[:2000]
    assert list(Tournament.objects.get(name="Spring Cup").organisers.all()) == [organiser]


@pytest.fixture
def two_organisers() -> tuple[Any, Tournament, Tournament]:
    """Organiser A with "A Cup", and organiser B's "B Cup"; each has a draft round 1."""
    a, b = UserFactory(), UserFactory()
    mine = tournament_with_teams(4, organisers=[a], name="A Cup")
    theirs = tournament_with_teams(4, organisers=[b], name="B Cup")
    for tournament in (mine, theirs):
        services.round_pair_next(tournament=tournament)
    return a, mine, theirs


def test_an_organiser_sees_only_the_tournaments_they_organise(two_organisers: Any) -> None:
    a, mine, theirs = two_organisers
    client = logged_in(a)

    for name in ("tournament", "round", "match", "entry"):
        page = client.get(url(f"{name}_changelist")).content.decode()
        assert "A Cup" in page and "B Cup" not in page, name
    their_round = theirs.rounds.get()
    their_match = their_round.matches.first()
    their_entry = theirs.entries.first()
    for page in (url("tournament_change", theirs.pk), url("round_change", their_round.pk),
                 url("match_change", their_match.pk), url("match_record", their_match.pk),
                 url("match_score_sheet", their_match.pk), url("entry_change", their_entry.pk)):
        response = client.get(page)
        assert response.status_code == 302 and response.url == reverse("admin:index"), page
    assert client.get(url("tournament_change", mine.pk)).status_code == 200
    absence_form = client.get(url("absence_add")).content.decode()
    assert "A Cup" in absence_form and "B Cup" not in absence_form


def change_form(tournament: Tournament, organiser: Any) -> dict[str, Any]:
    """What the tournament's change page posts when saved as it is."""
    entries = list(tournament.entries.order_by("pk"))
    data: dict[str, Any] = {
        "name": tournament.name, "format": tournament.format, "status": tournament.status,
        "rounds_planned": tournament.rounds_planned, "points_win": 2, "points_draw": 1,
        "points_loss": 0, "points_bye": 2, "bye_policy": "bye", "bot_level": "random",
        "knockout_tie_rule": "better_seed", "dealing": "platform", "play": "venue",
        "spectators": "anyone", "organisers": [organiser.pk], "tiebreaks_0": "score_diff",
        "entries-TOTAL_FORMS": len(entries), "entries-INITIAL_FORMS": len(entries),
        "absences-TOTAL_FORMS": 0, "absences-INITIAL_FORMS": 0,
        "forbidden_pairings-TOTAL_FORMS": 0, "forbidden_pairings-INITIAL_FORMS": 0}
    for number, entry in enumerate(entries):
        data.update({f"entries-{number}-id": entry.pk, f"entries-{number}-team": entry.team_id,
                     f"entries-{number}-seed": entry.seed,
                     f"entries-{number}-tournament": tournament.pk})
    return data


def test_an_organiser_keeps_two_teams_apart_and_no_other_organiser_sees_it(
        two_organisers: Any) -> None:
    a, mine, theirs = two_organisers
    b = theirs.organisers.get()
    first, second = (entry.team for entry in mine.entries.order_by("seed")[:2])
    data = change_form(mine, a)
    data.update({"forbidden_pairings-TOTAL_FORMS": 1,  # in either order
                 "forbidden_pairings-0-team_a": second.pk, "forbidden_pairings-0-team_b": first.pk})
    client = logged_in(a)

    response = client.post(url("tournament_change", mine.pk), data)

    assert response.status_code == 302, response.content.decode()[:3000]
    kept = ForbiddenPairing.objects.get(tournament=mine)
    assert {kept.team_a_id, kept.team_b_id} == {first.pk, second.pk}
    assert str(kept) in client.get(url("tournament_change", mine.pk)).content.decode()
    again = client.post(url("tournament_change", mine.pk), data)  # the same pair, once more
    assert "These two teams are already kept apart here." in again.content.decode()
    assert ForbiddenPairing.objects.count() == 1

    other = logged_in(b)
    response = other.get(url("tournament_change", mine.pk))
    assert response.status_code == 302 and response.url == reverse("admin:index")
    their_page = other.get(url("tournament_change", theirs.pk)).content.decode()
    assert str(kept) not in their_page
    assert 'name="forbidden_pairings-INITIAL_FORMS" value="0"' in their_page
    data["forbidden_pairings-TOTAL_FORMS"] = 0  # a post to the other's page changes nothing
    assert other.post(url("tournament_change", mine.pk), data).status_code == 302
    assert ForbiddenPairing.objects.filter(pk=kept.pk).exists()


def test_an_organisers_actions_on_another_tournament_do_nothing_and_say_so(
        two_organisers: Any) -> None:
    a, _mine, theirs = two_organisers
    client = logged_in(a)
    their_round = theirs.rounds.get()

    response = act(client, "tournament", "pair_next_round", theirs)
    assert "Nothing was done" in said(response)
    response = act(client, "round", "publish", their_round)
    assert "Nothing was done" in said(response)
    their_round.refresh_from_db()
    assert their_round.status == Round.Status.DRAFT and theirs.rounds.count() == 1


def test_pair_next_round_creates_a_draft_and_publish_round_publishes_it() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    client = logged_in(organiser)

    response = act(client, "tournament", "pair_next_round", tournament)
    round = tournament.rounds.get()
    assert round.status == Round.Status.DRAFT and round.matches.count() == 2
    assert "round 1 is a draft" in said(response)
    assert url("round_change", round.pk) in response.content.decode()

    response = act(client, "round", "publish", round)
    round.refresh_from_db()
    assert round.status == Round.Status.PUBLISHED and "is published" in said(response)
    response = act(client, "tournament", "pair_next_round", tournament)
    assert "complete round 1 before pairing the next" in said(response)


@pytest.mark.parametrize("format", [f.value for f in Tournament.Format])
@pytest.mark.parametrize("teams", [0, 1])
def test_pair_next_round_with_too_few_teams_says_why(format: str, teams: int) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(teams, organisers=[organiser], format=format)

    response = act(logged_in(organiser), "tournament", "pair_next_round", tournament)

    assert response.status_code == 200
    assert re.search(r"at least 2 (active )?teams", said(response))
    assert not tournament.rounds.exists()


def test_publishing_an_all_bot_round_plays_every_match(
        eager_tasks: None, django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    all_absent(tournament)
    client = logged_in(organiser)
    act(client, "tournament", "pair_next_round", tournament)
    round = tournament.rounds.get()

    with django_capture_on_commit_callbacks(execute=True):
        response = act(client, "round", "publish", round)

    job = Job.objects.get(tournament=tournament)
    assert "2 bot match(es) are being played" in said(response)
    assert "no bot match left to play" in said(
        act(client, "round", "play_bot_matches", round))
    assert Result.objects.filter(match__round=round).count() == 2
    assert set(round.matches.values_list("status", flat=True)) == {Match.Status.DONE}
    assert (job.done, job.total, job.status) == (2, 2, Job.Status.DONE)
    assert "2/2" in client.get(url("job_change", job.pk)).content.decode()
    assert "2/2" in client.get(url("job_changelist")).content.decode()
    assert "2/2" in client.get(url("round_change", round.pk)).content.decode()
    assert Standing.objects.filter(tournament=tournament, round_number=0).count() == 4

    response = act(client, "round", "complete", round)
    round.refresh_from_db()
    assert round.status == Round.Status.COMPLETE and "is complete" in said(response)


def test_fill_empty_seats_seats_a_bot_for_a_player_marked_absent_after_pairing() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament)
    seat = round.matches.get().seats.get(position=1)
    Absence.objects.create(tournament=tournament, round_number=1, player=seat.player)

    response = act(logged_in(organiser), "round", "fill_seats", round)
    assert "1 seat(s) of absent players now have a bot" in said(response)
    seat.refresh_from_db()
    assert seat.player is None and seat.substitute


def test_recalculate_actions_rebuild_standings_and_ratings(
        eager_tasks: None, django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    match = published_round(tournament).matches.get()
    services.match_submit_score_sheet(match=match, hand_scores=[[0, 50]] * 5,
                                      out_seats=[0] * 5, user=organiser)
    client = logged_in(organiser)

    with django_capture_on_commit_callbacks(execute=True):
        standings = act(client, "tournament", "recalculate_standings", tournament)
        ratings = act(client, "tournament", "recalculate_ratings", tournament)

    assert "are being recalculated" in said(standings)
    assert "rating is being recalculated" in said(ratings)
    winner = Standing.objects.get(tournament=tournament, round_number=0, rank=1)
    assert winner.team == match.team_a and winner.wins == 1  # R9.2: the lower total wins
    assert RatingEntry.objects.filter(match=match).count() == 4


def test_a_running_jobs_page_refreshes_itself_and_a_finished_ones_does_not() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    job = Job.objects.create(tournament=tournament, kind="play round 1", total=3, done=1,
                             status=Job.Status.RUNNING)
    client = logged_in(organiser)

    page = client.get(url("job_change", job.pk)).content.decode()
    assert 'http-equiv="refresh"' in page and "1/3" in page and "<progress" in page
    Job.objects.filter(pk=job.pk).update(status=Job.Status.DONE, done=3)
    assert 'http-equiv="refresh"' not in client.get(url("job_change", job.pk)).content.decode()


def test_playing_bots_in_a_draft_round_is_refused_with_a_message() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament)

    response = act(logged_in(organiser), "round", "play_bot_matches", round)
    assert response.status_code == 200 and "publish it first" in said(response)
    assert not Job.objects.exists()


@pytest.fixture
def match_and_organiser() -> tuple[Match, Any]:
    """A pending match of a published round, and its tournament's organiser."""
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    return published_round(tournament).matches.get(), organiser


def test_an_illegal_record_is_refused_with_its_hand_action_and_rule(
        match_and_organiser: Any) -> None:
    match, organiser = match_and_organiser
    record = bot_record(match.seed)
    action = record["hands"][1]["actions"][0]
    action["seat"] = (action["seat"] + 1) % 4  # out of turn (R6.1)

    response = logged_in(organiser).post(url("match_record", match.pk),
                                         {"text": json.dumps(record)})

    page = response.content.decode()
    assert response.status_code == 200
    assert "hand 2, action 0 (rule R6.1)" in page and "Nothing was stored" in page
    assert Result.objects.count() == 0
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING


def test_a_malformed_upload_is_refused_and_stores_nothing(match_and_organiser: Any) -> None:
    match, organiser = match_and_organiser
    upload = SimpleUploadedFile("game.json", b'{"format": "push-record/1", ')

    response = logged_in(organiser).post(url("match_record", match.pk), {"file": upload})

    page = response.content.decode()
    assert response.status_code == 200 and "Malformed game record: not JSON" in page
    forged = Client(enforce_csrf_checks=True)  # the result pages keep the admin's CSRF check
    forged.force_login(organiser)
    assert forged.post(url("match_record", match.pk), {"text": "{}"}).status_code == 403
    assert Result.objects.count() == 0
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING


def test_a_legal_record_is_stored_as_the_result(match_and_organiser: Any) -> None:
    match, organiser = match_and_organiser
    upload = SimpleUploadedFile("game.json", json.dumps(bot_record(match.seed)).encode())

    response = logged_in(organiser).post(url("match_record", match.pk), {"file": upload},
                                         follow=True)

    assert "is stored" in said(response)
    result = Result.objects.get(match=match)
    assert result.source == Result.Source.RECORD and result.confirmed


def sheet(*hands: tuple[int, int, int | None]) -> dict[str, Any]:
    data: dict[str, Any] = {"hand-TOTAL_FORMS": len(hands), "hand-INITIAL_FORMS": 0}
    for i, (a, b, out) in enumerate(hands):
        data |= {f"hand-{i}-team_a": a, f"hand-{i}-team_b": b,
                 f"hand-{i}-out_seat": "" if out is None else out}
    return data


def test_an_impossible_score_sheet_is_refused_hand_by_hand(match_and_organiser: Any) -> None:
    match, organiser = match_and_organiser
    bad = sheet((0, 55, 0), (40, 0, 1), (20, 120, 2), (35, 45, None), (90, 0, 3))

    response = logged_in(organiser).post(url("match_score_sheet", match.pk), bad)

    assert response.status_code == 200
    hands = response.context["formset"].forms
    said = f"{match.team_a.name} went out (seat 2), so it scores 0, not 20 (R9.1)"
    assert hands[2].non_field_errors() == [said]
    assert not any(hands[i].errors for i in (0, 1, 3, 4))
    assert said in response.content.decode()
    assert Result.objects.count() == 0


def test_a_score_sheet_waits_for_a_second_organiser_to_confirm_it() -> None:
    first, second = UserFactory(), UserFactory()
    tournament = tournament_with_teams(2, organisers=[first, second], confirm_score_sheets=True)
    match = published_round(tournament).matches.get()

    good = sheet((0, 55, 0), (40, 0, 1), (0, 120, 2), (35, 45, None), (90, 0, 3))
    response = logged_in(first).post(url("match_score_sheet", match.pk), good, follow=True)
    assert "waits for a second organiser" in said(response)
    result = Result.objects.get(match=match)
    assert not result.confirmed and (result.total_a, result.total_b) == (165, 220)
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING

    response = act(logged_in(first), "match", "confirm_result", match)
    assert "confirmed by another organiser" in said(response)
    result.refresh_from_db()
    assert not result.confirmed

    response = act(logged_in(second), "result", "confirm", result)
    assert "is confirmed" in said(response)
    result.refresh_from_db()
    match.refresh_from_db()
    assert result.confirmed and result.confirmed_by == second
    assert match.status == Match.Status.DONE


def test_two_players_can_trade_seats_but_not_sit_twice_in_a_round() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament)
    match, other = round.matches.all()
    seats = list(match.seats.all())
    client = logged_in(organiser)

    def post(players: list[Any]) -> Any:
        data: dict[str, Any] = {"seats-TOTAL_FORMS": 4, "seats-INITIAL_FORMS": 4, "_save": "1"}
        for i, (seat, player) in enumerate(zip(seats, players, strict=True)):
            data |= {f"seats-{i}-id": seat.pk, f"seats-{i}-player": player.pk,
                     f"seats-{i}-bot_level": ""}
        return client.post(url("match_change", match.pk), data)

    players = [seat.player for seat in seats]
    intruder = other.seats.first().player
    response = post([intruder, *players[1:]])
    assert response.status_code == 200 and "already plays in this round" in (
        response.content.decode())

    assert post([players[2], players[1], players[0], players[3]]).status_code == 302
    assert [s.player for s in match.seats.all()] == [players[2], players[1], players[0],
                                                     players[3]]


def test_an_organiser_withdraws_a_mistaken_result_and_the_standings_follow(
        eager_tasks: None, django_capture_on_commit_callbacks: Any) -> None:
    organiser, outsider = UserFactory(), UserFactory(is_staff=True)
    tournament = tournament_with_teams(2, organisers=[organiser])
    match = published_round(tournament).matches.get()
    client = logged_in(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("match_score_sheet", match.pk),
                    sheet((0, 55, 0), (40, 0, 1), (0, 120, 2), (35, 45, None), (90, 0, 3)))
    assert Standing.objects.get(tournament=tournament, round_number=0, rank=1).wins == 1

    response = act(logged_in(outsider), "match", "withdraw_result", match)
    assert Result.objects.filter(match=match).exists()  # not theirs to withdraw
    with django_capture_on_commit_callbacks(execute=True):
        response = act(client, "match", "withdraw_result", match)

    assert "is withdrawn; the match waits for a new one" in said(response)
    assert not Result.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING
    table = Standing.objects.filter(tournament=tournament, round_number=0)
    assert table.count() == 2 and not any(row.played for row in table)
    assert "None of the selected matches has a result to withdraw" in said(
        act(client, "match", "withdraw_result", match))


def test_the_results_of_a_completed_round_are_final() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    round = published_round(tournament)
    match = round.matches.get()
    result = services.match_submit_score_sheet(match=match, hand_scores=[[0, 50]] * 5,
                                               out_seats=[0] * 5, user=organiser)
    services.round_complete(round=round, user=organiser)

    response = act(logged_in(organiser), "result", "withdraw", result)

    assert "round 1 is complete, so its results are final" in said(response)
    assert Result.objects.filter(pk=result.pk).exists()
    assert logged_in(organiser).post(url("result_delete", result.pk)).status_code == 403
