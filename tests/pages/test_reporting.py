"""The players' reporting pages: the phone score sheet, the other team's confirm
and dispute buttons on the match page, the list of results to confirm, and the organiser's
disputed matches in the admin. Who may do what; bad input says which hand, stores nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.venue import OUT, SHEET, Venue, database_state, venue_match
from tournaments import services
from tournaments.models import Match, Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def venue() -> Venue:
    return venue_match()


def sheet_url(match: Match) -> str:
    return reverse("tournaments:score_sheet", args=[match.pk])


def page(match: Match) -> str:
    return reverse("tournaments:match_detail", args=[match.pk])


def form(hand_scores: list[list[int]] = SHEET, out_seats: list[Any] = OUT) -> dict[str, str]:
    data = {}
    for hand, (scores, out) in enumerate(zip(hand_scores, out_seats, strict=True), start=1):
        data[f"hand-{hand}-out"] = "none" if out is None else str(out)
        data[f"hand-{hand}-team-0"] = str(scores[0])
        data[f"hand-{hand}-team-1"] = str(scores[1])
    return data


def as_user(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def submitted(venue: Venue) -> Result:
    return services.match_submit_score_sheet(match=venue.match, hand_scores=SHEET,
                                             out_seats=OUT, user=venue.players[0])


def test_the_sheet_page_asks_for_a_login_first(venue: Venue, client: Client) -> None:
    response = client.get(sheet_url(venue.match))
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={sheet_url(venue.match)}"
    login = client.get(response["Location"])
    assert login.status_code == 200 and b'name="password"' in login.content


def test_a_player_logs_in_and_comes_back_to_the_sheet(venue: Venue, client: Client) -> None:
    response = client.post(f"/accounts/login/?next={sheet_url(venue.match)}",
                           {"username": "seat1", "password": "a-long-test-password-1",
                            "next": sheet_url(venue.match)})
    assert response.status_code == 302 and response["Location"] == sheet_url(venue.match)


@pytest.mark.parametrize("who", ["organiser", "stranger"])
def test_only_the_matchs_players_reach_the_sheet(venue: Venue, who: str) -> None:
    from tests.tournaments.factories import UserFactory

    user = venue.organiser if who == "organiser" else UserFactory(is_staff=False)
    before = database_state()
    client = as_user(user)
    assert client.get(sheet_url(venue.match)).status_code == 403
    assert client.post(sheet_url(venue.match), form()).status_code == 403
    assert database_state() == before


def test_a_player_gets_five_hands_with_a_tap_per_seat(venue: Venue) -> None:
    html = as_user(venue.players[2]).get(sheet_url(venue.match)).content.decode()
    assert html.count('<fieldset class="sheet-hand">') == 5
    for hand in range(1, 6):
        assert html.count(f'name="hand-{hand}-out"') == 5  # four seats, or nobody
        assert f'name="hand-{hand}-team-1"' in html
    for seat in venue.match.seats.select_related("player"):
        assert seat.player.name in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert "tournaments/sheet.js" in html


def test_a_sent_sheet_waits_for_the_other_team(venue: Venue) -> None:
    player = as_user(venue.players[2])
    response = player.post(sheet_url(venue.match), form())
    assert response.status_code == 302 and response["Location"] == page(venue.match)
    result = Result.objects.get(match=venue.match)
    assert result.hand_scores == SHEET and result.out_seats == OUT
    assert not result.confirmed and result.entered_by == venue.players[2]
    assert result.source == Result.Source.SHEET
    html = player.get(page(venue.match)).content.decode()
    assert "Your score sheet is stored" in html
    assert "It waits for a player of the other team" in html
    assert "Confirm the result" not in html


@pytest.mark.parametrize(("change", "message"), [
    ({"hand-3-out": ""}, "hand 3: choose who went out (or nobody, when the stock ran out)"),
    ({"hand-3-out": "7"}, "hand 3: choose who went out"),
    ({"hand-3-out": "01"}, "hand 3: choose who went out"),
    ({"hand-1-team-1": "forty"}, "hand 1: enter the points of {team_b} as a whole number"),
    ({"hand-5-team-1": "-25"}, "hand 5: enter the points of {team_b} as a whole number"),
    ({"hand-2-team-0": "37"}, "hand 2: {team_a} scored 37, which is not a sum of card values"),
    ({"hand-4-team-1": "25"}, "hand 4: {team_b} went out (seat 3), so it scores 0, not 25 "
                              "(R9.1)"),
    ({"hand-4-team-1": "40", "hand-4-team-0": "950"}, "hand 4: 990 is more than the whole"),
])
def test_a_bad_sheet_says_which_hand_and_stores_nothing(venue: Venue, change: dict[str, str],
                                                        message: str) -> None:
    data = form() | change
    message = message.format(team_a=venue.match.team_a.name, team_b=venue.match.team_b.name)
    before = database_state()
    response = as_user(venue.players[1]).post(sheet_url(venue.match), data)
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    assert "Nothing was stored" in response.content.decode()
    assert database_state() == before
    assert f'value="{data["hand-5-team-1"]}"' in response.content.decode()  # kept as typed


def test_the_team_that_went_out_may_leave_its_zero_blank(venue: Venue) -> None:
    data = form() | {"hand-1-team-0": "", "hand-2-team-1": ""}
    assert as_user(venue.players[1]).post(sheet_url(venue.match), data).status_code == 302
    assert Result.objects.get(match=venue.match).hand_scores == SHEET


def test_the_errors_are_in_finnish_for_a_finnish_reader(venue: Venue, finnish: None) -> None:
    data = form() | {"hand-3-out": "", "hand-2-team-0": "35"}
    response = as_user(venue.players[1]).post(sheet_url(venue.match), data,
                                              HTTP_ACCEPT_LANGUAGE="fi")
    html = response.content.decode()
    assert response.status_code == 400
    assert "jako 3: valitse, kuka meni ulos" in html
    assert not Result.objects.exists()
    assert "Lähetä pöytäkirja" in html and "Ei kukaan: pakka loppui" in html


def test_a_post_without_the_csrf_token_is_refused(venue: Venue) -> None:
    client = as_user(venue.players[1], enforce_csrf_checks=True)
    assert client.post(sheet_url(venue.match), form()).status_code == 403
    result = submitted(venue)
    confirm = reverse("tournaments:confirm_result", args=[venue.match.pk])
    assert as_user(venue.players[1], enforce_csrf_checks=True).post(confirm).status_code == 403
    assert not Result.objects.get(pk=result.pk).confirmed


def test_a_match_with_a_result_takes_no_second_sheet(venue: Venue) -> None:
    submitted(venue)
    before = database_state()
    response = as_user(venue.players[1]).post(sheet_url(venue.match), form())
    assert response.status_code == 200 and "already has a result" in response.content.decode()
    assert database_state() == before


def test_the_other_team_sees_the_pending_sheet_and_confirms_it(venue: Venue,
                                                               client: Client) -> None:
    result = submitted(venue)
    other = as_user(venue.players[3])
    html = other.get(page(venue.match)).content.decode()
    assert "Score sheet entered by" in html and "Confirm the result" in html
    assert f'<td class="num">{result.total_b}</td>' in html
    public = client.get(page(venue.match)).content.decode()
    assert "Confirm the result" not in public
    assert f'<td class="num">{result.total_b}</td>' not in public  # no score before it counts

    response = other.post(reverse("tournaments:confirm_result", args=[venue.match.pk]))
    assert response.status_code == 302 and response["Location"] == page(venue.match)
    assert Result.objects.get(pk=result.pk).confirmed
    public = client.get(page(venue.match)).content.decode()
    assert f'<td class="num">{result.total_b}</td>' in public


def test_the_submitters_own_team_cannot_confirm(venue: Venue) -> None:
    result = submitted(venue)
    partner = as_user(venue.players[2])
    assert "Confirm the result" not in partner.get(page(venue.match)).content.decode()
    response = partner.post(reverse("tournaments:confirm_result", args=[venue.match.pk]))
    assert response.status_code == 403
    response = partner.post(reverse("tournaments:dispute_result", args=[venue.match.pk]))
    assert response.status_code == 403
    assert not Result.objects.get(pk=result.pk).confirmed
    assert Result.objects.get(pk=result.pk).disputed_by is None


def test_confirm_and_dispute_take_posts_only(venue: Venue) -> None:
    submitted(venue)
    other = as_user(venue.players[1])
    for name in ("confirm_result", "dispute_result"):
        assert other.get(reverse(f"tournaments:{name}", args=[venue.match.pk])).status_code == 405
    assert not Result.objects.get(match=venue.match).confirmed


def test_a_dispute_is_flagged_for_the_organiser_in_the_admin(venue: Venue) -> None:
    submitted(venue)
    other = as_user(venue.players[1])
    response = other.post(reverse("tournaments:dispute_result", args=[venue.match.pk]),
                          {"reason": "hand 3 was 45"})
    assert response.status_code == 302
    html = other.get(page(venue.match)).content.decode()
    assert "disputed this sheet" in html and "Confirm the result" not in html

    admin = as_user(venue.organiser)
    listing = admin.get("/admin/tournaments/match/?disputed=yes").content.decode()
    assert f"/admin/tournaments/match/{venue.match.pk}/change/" in listing
    change = admin.get(f"/admin/tournaments/match/{venue.match.pk}/change/").content.decode()
    assert "hand 3 was 45" in change and "Correct the result" in change
    result = Result.objects.get(match=venue.match)
    assert "hand 3 was 45" in admin.get(f"/admin/tournaments/result/{result.pk}/change/"
                                         ).content.decode()

    corrected = form([[0, 40], [30, 0], [0, 45], [40, 0], [0, 25]])
    admin_form = {"hand-TOTAL_FORMS": 5, "hand-INITIAL_FORMS": 5}
    for hand in range(5):
        admin_form |= {f"hand-{hand}-team_a": corrected[f"hand-{hand + 1}-team-0"],
                       f"hand-{hand}-team_b": corrected[f"hand-{hand + 1}-team-1"],
                       f"hand-{hand}-out_seat": corrected[f"hand-{hand + 1}-out"]}
    response = admin.post(f"/admin/tournaments/match/{venue.match.pk}/correct/", admin_form)
    assert response.status_code == 302
    result = Result.objects.get(match=venue.match)
    assert result.confirmed and result.total_b == 110
    listing = admin.get("/admin/tournaments/match/?disputed=yes").content.decode()
    assert f"/admin/tournaments/match/{venue.match.pk}/change/" not in listing


def test_an_overlong_reason_is_refused_and_nothing_stored(venue: Venue) -> None:
    submitted(venue)
    before = database_state()
    other = as_user(venue.players[1])
    other.post(reverse("tournaments:dispute_result", args=[venue.match.pk]),
               {"reason": "x" * 501})
    assert database_state() == before
    assert "500 characters at most" in other.get(page(venue.match)).content.decode()


def test_the_player_page_lists_the_results_to_confirm(venue: Venue, client: Client) -> None:
    submitted(venue)
    player = venue.match.seats.get(position=1).player
    url = reverse("tournaments:player_detail", args=[player.pk])
    html = as_user(venue.players[1]).get(url).content.decode()
    assert "Results to confirm" in html and page(venue.match) in html
    assert "Results to confirm" not in client.get(url).content.decode()  # not the public
    assert "Results to confirm" not in as_user(venue.players[3]).get(url).content.decode()


def test_the_match_page_offers_the_sheet_to_its_players_only(venue: Venue,
                                                             client: Client) -> None:
    assert sheet_url(venue.match) in as_user(venue.players[0]).get(page(venue.match)
                                                                   ).content.decode()
    html = client.get(page(venue.match)).content.decode()
    assert sheet_url(venue.match) not in html and "/accounts/login/?next=" in html
    assert sheet_url(venue.match) not in as_user(venue.organiser).get(page(venue.match)
                                                                      ).content.decode()
