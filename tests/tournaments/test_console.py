"""The organiser's console (tournaments/admin/console.py): where the tournament stands, the
next step, each button enabled only when it applies, and a refused or malformed POST said
in a sentence."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Absence, Job, Match, Round, Standing

from .factories import UserFactory, tournament_with_teams
from .test_admin import all_absent, logged_in, said

pytestmark = pytest.mark.django_db


def console(tournament: Any) -> str:
    return reverse("admin:tournaments_tournament_console", args=[tournament.pk])


def do_url(tournament: Any) -> str:
    return reverse("admin:tournaments_tournament_console_do", args=[tournament.pk])


def do(client: Client, tournament: Any, step: str, **data: Any) -> Any:
    """Press a console button; the console page it comes back to."""
    response = client.post(do_url(tournament), {"step": step, **data}, follow=True)
    assert response.redirect_chain == [(console(tournament), 302)]
    return response


def buttons(page: str) -> dict[str, bool]:
    """Each step's button in "Every step": enabled or not."""
    steps = page.split('id="console-steps-title"')[1].split("</section>")[0]
    found = re.findall(r'name="step" value="(\w+)">\s*(?:<input[^>]*>\s*)?'
                       r'<button type="submit" class="button"( disabled)?', steps)
    return {step: not disabled for step, disabled in found}


def next_step(page: str) -> str | None:
    section = page.split('id="console-next-title"')[1].split("</section>")[0]
    match = re.search(r'name="step" value="(\w+)"', section)
    return match.group(1) if match else None


@pytest.fixture
def organiser() -> Any:
    return UserFactory()


@pytest.fixture
def client(organiser: Any) -> Client:
    return logged_in(organiser)


def test_it_runs_a_round_from_pairing_to_standings(organiser: Any, client: Client) -> None:
    tournament = tournament_with_teams(6, organisers=[organiser], format="round_robin")
    page = client.get(console(tournament)).content.decode()
    assert "No round is paired yet." in page
    assert next_step(page) == "pair"
    assert buttons(page) == {"pair": True, "fill": False, "publish": False, "play": False,
                             "complete": False}
    assert "Not now: no round is paired yet: pair the next round first." in page

    page = do(client, tournament, "pair").content.decode()
    round = Round.objects.get(tournament=tournament)
    assert "Round 1 is paired as a draft" in page
    assert "Round 1 of 5: draft." in page
    assert next_step(page) == "publish"
    assert buttons(page)["pair"] is False
    assert "Not now: round 1 is already paired: publish it." in page

    response = do(client, tournament, "publish", round=round.pk)
    assert "Round 1 is published." in said(response)
    page = response.content.decode()
    assert next_step(page) is None
    assert "Waiting for 3 result(s)" in page
    assert "Not now: 3 tables have no confirmed result yet." in page
    assert page.count("enter the result") == 3

    for match in round.matches.all():
        services.match_submit_score_sheet(match=match, hand_scores=[[0, 50]] * 5,
                                          out_seats=[0] * 5, user=organiser)
    page = client.get(console(tournament)).content.decode()
    assert "Results in: 3 of 3 tables." in page
    assert next_step(page) == "complete"

    response = do(client, tournament, "complete", round=round.pk)
    assert "Round 1 is complete; the standings are updated." in said(response)
    assert Standing.objects.filter(tournament=tournament, round_number=0).count() == 6
    assert next_step(response.content.decode()) == "pair"


def test_it_follows_the_bot_matches_as_they_are_played(organiser: Any,
                                                             client: Client) -> None:
    tournament = tournament_with_teams(4, organisers=[organiser])
    all_absent(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)

    response = do(client, tournament, "publish", round=round.pk)
    assert "its 2 bot match(es) are being played" in said(response)
    page = response.content.decode()
    job = Job.objects.get(tournament=tournament)
    assert 'data-live="on"' in page and "data-live-url" in page
    assert "0/2" in page
    assert buttons(page)["play"] is False
    assert "Not now: the bot matches are being played: see their progress below." in page
    live = client.get(reverse("admin:tournaments_tournament_console_live",
                              args=[tournament.pk]))
    assert live.status_code == 200 and 'data-live="on"' in live.content.decode()

    for match in round.matches.all():
        services.match_play_bots(match_id=match.pk)
    services.job_refresh(job_id=job.pk)
    live = client.get(reverse("admin:tournaments_tournament_console_live",
                              args=[tournament.pk])).content.decode()
    assert 'data-live="off"' in live and "2/2" in live
    assert next_step(live) == "complete"


def test_fill_empty_seats_applies_once_a_seated_player_is_marked_absent(
        organiser: Any, client: Client) -> None:
    tournament = tournament_with_teams(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    page = client.get(console(tournament)).content.decode()
    assert "Not now: no player marked absent for round 1 holds a seat." in page
    player = tournament.entries.first().team.player_a
    Absence.objects.create(tournament=tournament, round_number=1, player=player)

    page = client.get(console(tournament)).content.decode()
    assert next_step(page) == "fill"
    assert "Seats a bot in place of the 1 player marked absent for round 1" in page
    response = do(client, tournament, "fill", round=round.pk)
    assert "Round 1: 1 seat(s) of absent players now have a bot." in said(response)
    assert next_step(response.content.decode()) == "publish"


def test_the_draft_is_edited_from_the_console_and_the_note_shown(organiser: Any,
                                                                 client: Client) -> None:
    tournament = tournament_with_teams(6, organisers=[organiser], format="round_robin")
    round = services.round_pair_next(tournament=tournament, user=organiser)
    one, two = (Match.objects.get(round=round, table__number=n) for n in (1, 2))

    response = do(client, tournament, "swap_teams", round=round.pk, team_1=one.team_a_id,
                  team_2=two.team_a_id)
    assert f"The draw of round 1 is changed: swapped {one.team_a}" in said(response)
    # a round robin re-plans its later rounds, so that every pair still meets once
    assert "the schedule is re-planned so that every pair of teams still meets once: rounds" \
        in said(response)
    assert [m.level_tag for m in response.context["messages"]] == ["success"]
    do(client, tournament, "swap_seats", round=round.pk, match=one.pk, side=1)
    page = do(client, tournament, "move_table", round=round.pk, match=two.pk,
              number=1).content.decode()
    assert "Notes on the draw" in page
    assert "moved table 2" in page and "swapped the seats of" in page

    round_page = client.get(reverse("admin:tournaments_round_change", args=[round.pk]))
    assert "moved table 2" in round_page.content.decode()


def test_the_draft_round_page_has_a_publish_button(organiser: Any, client: Client) -> None:
    tournament = tournament_with_teams(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    page = client.get(reverse("admin:tournaments_round_change", args=[round.pk]))
    assert "Publish round 1" in page.content.decode()
    assert do_url(tournament) in page.content.decode()

    response = do(client, tournament, "publish", round=round.pk)
    assert "Round 1 is published." in said(response)
    round.refresh_from_db()
    assert round.status == Round.Status.PUBLISHED
    page = client.get(reverse("admin:tournaments_round_change", args=[round.pk]))
    assert "Publish round 1" not in page.content.decode()


def test_the_tournament_pages_link_to_the_console(organiser: Any, client: Client) -> None:
    tournament = tournament_with_teams(2, organisers=[organiser])
    for name, args in (("tournament_change", [tournament.pk]), ("tournament_changelist", [])):
        page = client.get(reverse(f"admin:tournaments_{name}", args=args)).content.decode()
        assert f'href="{console(tournament)}"' in page, name


def test_a_step_that_does_not_apply_is_refused_in_a_sentence(organiser: Any,
                                                             client: Client) -> None:
    tournament = tournament_with_teams(1, organisers=[organiser])
    page = client.get(console(tournament)).content.decode()
    assert "Not now: at least 2 teams are needed, got 1." in page
    assert buttons(page)["pair"] is False
    refused = said(do(client, tournament, "pair"))  # Swiss says so itself
    assert "Not done: at least 2 active teams are needed, got 1." in refused
    assert not Round.objects.filter(tournament=tournament).exists()

    tournament = tournament_with_teams(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    assert "Not done: publish round 1 before completing it." in said(
        do(client, tournament, "complete", round=round.pk))
    services.round_publish(round=round, user=organiser)
    assert "Not done: round 1 is already published." in said(
        do(client, tournament, "publish", round=round.pk))
    assert "only a draft's draw can be changed" in said(
        do(client, tournament, "swap_seats", round=round.pk, match=round.matches.first().pk,
           side=0))


@pytest.mark.parametrize(("data", "error"), [
    ({"step": "explode"}, "Not done: unknown step 'explode': use the console's buttons."),
    ({"step": "publish"}, "Not done: choose the round (round must be a whole number, got '')."),
    ({"step": "publish", "round": "x1"}, "got 'x1'"),
    ({"step": "swap_teams", "team_1": "1", "team_2": "1"}, "choose two different teams"),
    ({"step": "swap_teams", "team_1": "99999", "team_2": "1"}, "has no table in this round"),
    ({"step": "move_table", "match": "1"}, "choose a table number"),
])
def test_a_malformed_post_gets_a_clear_error_and_changes_nothing(
        organiser: Any, client: Client, data: dict[str, str], error: str) -> None:
    tournament = tournament_with_teams(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    if data["step"] != "publish" or "round" in data:
        data = {"round": str(round.pk), **data}
    response = do(client, tournament, **data)
    assert error in said(response)
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    round.refresh_from_db()
    assert round.status == Round.Status.DRAFT and round.draw_note == ""


def test_a_round_of_another_tournament_is_refused(organiser: Any, client: Client) -> None:
    mine = tournament_with_teams(4, organisers=[organiser])
    theirs = services.round_pair_next(tournament=tournament_with_teams(4))
    assert f"that round is not one of {mine}'s" in said(
        do(client, mine, "publish", round=theirs.pk))
    theirs.refresh_from_db()
    assert theirs.status == Round.Status.DRAFT


def test_another_organisers_tournament_is_not_found(client: Client) -> None:
    theirs = tournament_with_teams(4, organisers=[UserFactory()])
    assert client.get(console(theirs)).status_code == 404
    assert client.get(reverse("admin:tournaments_tournament_console_live",
                              args=[theirs.pk])).status_code == 404
    assert client.post(do_url(theirs), {"step": "pair"}).status_code == 404
    assert not Round.objects.filter(tournament=theirs).exists()


def test_it_needs_a_staff_login_a_post_and_a_csrf_token(organiser: Any) -> None:
    tournament = tournament_with_teams(4, organisers=[organiser])
    assert Client().get(console(tournament)).status_code == 302  # to the login page
    player = UserFactory(is_staff=False)
    assert logged_in(player).post(do_url(tournament), {"step": "pair"}).status_code == 302
    assert logged_in(organiser).get(do_url(tournament)).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(organiser)
    assert strict.post(do_url(tournament), {"step": "pair"}).status_code == 403
    assert not Round.objects.filter(tournament=tournament).exists()


def test_play_bot_matches_starts_what_a_failed_job_left(organiser: Any, client: Client) -> None:
    tournament = tournament_with_teams(4, organisers=[organiser])
    all_absent(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    job = services.round_publish(round=round, user=organiser)
    services.job_fail(job_id=job.pk, message="match 1: the worker was lost")
    page = client.get(console(tournament)).content.decode()
    assert "the worker was lost" in page and 'data-live="off"' in page
    assert next_step(page) == "play"
    assert "Plays the 2 tables with bots in every seat, in the background." in page

    response = do(client, tournament, "play", round=round.pk)
    assert "Round 1: 2 bot match(es) are being played." in said(response)
    assert Job.objects.filter(tournament=tournament).count() == 2
    assert buttons(response.content.decode())["play"] is False


def test_a_result_entered_from_the_console_comes_back_to_it(organiser: Any,
                                                           client: Client) -> None:
    """The console's "enter the result" opens the match's page, whose score-sheet link
    carries the console along; storing the sheet returns there, saying it is stored."""
    tournament = tournament_with_teams(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    match = round.matches.filter(is_bye=False).first()
    assert match is not None
    page = client.get(console(tournament)).content.decode()
    match_page = re.search(rf'href="(/admin/tournaments/match/{match.pk}/change/[^"]*)"', page)
    assert match_page is not None and "?next=" in match_page.group(1)

    page = client.get(match_page.group(1).replace("&amp;", "&")).content.decode()
    assert "Back to the console" in page
    sheet = re.search(r'href="([^"]*/score-sheet/[^"]*)"', page)
    assert sheet is not None
    response = client.post(sheet.group(1).replace("&amp;", "&"), SHEET_POST, follow=True)

    assert response.redirect_chain == [(console(tournament), 302)]
    assert "is stored" in said(response)
    assert hasattr(Match.objects.get(pk=match.pk), "result")


@pytest.mark.parametrize("next_url", ["https://elsewhere.example/admin/", "//elsewhere.example/",
                                      "javascript:alert(1)"])
def test_a_result_page_never_sends_the_organiser_to_another_site(
        organiser: Any, client: Client, next_url: str) -> None:
    tournament = tournament_with_teams(2, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    match = round.matches.get()
    sheet = reverse("admin:tournaments_match_score_sheet", args=[match.pk])
    page = client.get(sheet, {"next": next_url}).content.decode()
    assert "elsewhere" not in page and "javascript:" not in page  # Cancel stays here too

    response = client.post(f"{sheet}?next={next_url}", SHEET_POST)

    assert response.status_code == 302
    assert response["Location"] == reverse("admin:tournaments_match_change", args=[match.pk])


SHEET_POST = {"hand-TOTAL_FORMS": 5, "hand-INITIAL_FORMS": 0,
              **{f"hand-{i}-{key}": value for i in range(5)
                 for key, value in (("team_a", 0), ("team_b", 50), ("out_seat", 0))}}
