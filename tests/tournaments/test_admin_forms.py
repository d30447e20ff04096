"""The tournament form's ordered tie-breaks and the settings each format shows; every admin
error an organiser meets is a sentence, never a constraint's name or a formset's count."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Match, Team, Tournament

from .factories import PlayerFactory, TeamFactory, UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db
INLINES = {f"{prefix}-{key}": value for prefix in ("entries", "absences", "forbidden_pairings")
           for key, value in (("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"))}


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def new_tournament(client: Client, tiebreaks: list[str], **fields: Any) -> Any:
    data = {"name": "Ordered Cup", "format": "swiss", "status": "upcoming",
            "rounds_planned": 3, "points_win": 2, "points_draw": 1, "points_loss": 0,
            "points_bye": 2, "bye_policy": "bye", "bot_level": "greedy",
            "knockout_tie_rule": "better_seed", "dealing": "platform", "play": "venue",
            "spectators": "anyone", **INLINES, **fields}
    data.update({f"tiebreaks_{place}": key for place, key in enumerate(tiebreaks)})
    return client.post(reverse("admin:tournaments_tournament_add"), data, follow=True)


def test_tie_breaks_are_chosen_in_order_from_the_registry() -> None:
    client = logged_in(UserFactory())
    page = client.get(reverse("admin:tournaments_tournament_add")).content.decode()
    assert 'name="tiebreaks_0"' in page and "<textarea" not in page
    assert "Buchholz (opponents&#x27; points) (buchholz)" in page

    new_tournament(client, ["head_to_head", "", "score_diff"])

    assert Tournament.objects.get().tiebreaks == ["head_to_head", "score_diff"]


def test_a_tie_break_chosen_twice_is_refused_by_name() -> None:
    response = new_tournament(logged_in(UserFactory()), ["buchholz", "buchholz"])
    assert ("Choose each tie-break once; Buchholz (opponents’ points) is chosen more than "
            "once.") in response.content.decode().replace("&#x27;", "’").replace("'", "’")
    assert not Tournament.objects.exists()


def test_a_knockout_shows_no_points_or_tie_breaks_and_the_others_no_bracket_rules() -> None:
    organiser = UserFactory()
    client = logged_in(organiser)
    knockout = tournament_with_teams(4, organisers=[organiser], format="knockout")
    swiss = tournament_with_teams(4, organisers=[organiser])

    page = client.get(reverse("admin:tournaments_tournament_change", args=[knockout.pk]))
    html = page.content.decode()
    assert 'name="points_win"' not in html and 'name="tiebreaks_0"' not in html
    assert 'name="knockout_tie_rule"' in html
    html = client.get(reverse("admin:tournaments_tournament_change", args=[swiss.pk])).content
    assert b'name="points_win"' in html and b'name="knockout_tie_rule"' not in html


def test_a_team_of_one_player_twice_is_a_sentence() -> None:
    player = PlayerFactory()
    response = logged_in(UserFactory()).post(reverse("admin:tournaments_team_add"), {
        "name": "Solo", "player_a": player.pk, "player_b": player.pk})
    html = response.content.decode()
    assert "A team needs two different players." in html
    assert "team_two_different_players" not in html
    assert not Team.objects.filter(name="Solo").exists()


def test_a_team_entered_twice_is_named_in_words() -> None:
    organiser = UserFactory()
    team = TeamFactory()
    data = {"entries-TOTAL_FORMS": "2", "entries-0-team": team.pk, "entries-1-team": team.pk}
    response = new_tournament(logged_in(organiser), [], **data)
    html = response.content.decode()
    assert "This team is entered twice." in html
    assert "duplicate data" not in html


def test_a_pair_to_keep_apart_listed_twice_in_either_order_is_named_in_words() -> None:
    first, second = TeamFactory(), TeamFactory()
    data = {"forbidden_pairings-TOTAL_FORMS": "2",
            "forbidden_pairings-0-team_a": first.pk, "forbidden_pairings-0-team_b": second.pk,
            "forbidden_pairings-1-team_a": second.pk, "forbidden_pairings-1-team_b": first.pk}
    html = new_tournament(logged_in(UserFactory()), [], **data).content.decode()
    assert "These two teams are listed twice to keep apart." in html
    assert not Tournament.objects.filter(name="Ordered Cup").exists()
    itself = {"forbidden_pairings-TOTAL_FORMS": "1", "forbidden_pairings-0-team_a": first.pk,
              "forbidden_pairings-0-team_b": first.pk}
    html = new_tournament(logged_in(UserFactory()), [], **itself).content.decode()
    assert "Choose two different teams." in html


def test_a_score_sheet_short_of_hands_asks_for_all_five() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    services.round_pair_next(tournament=tournament, user=organiser)
    match = Match.objects.get()
    data = {"hand-TOTAL_FORMS": "2", "hand-INITIAL_FORMS": "0", "hand-MIN_NUM_FORMS": "5",
            "hand-MAX_NUM_FORMS": "5", "hand-0-team_a": 0, "hand-0-team_b": 40,
            "hand-1-team_a": 0, "hand-1-team_b": 40}
    response = logged_in(organiser).post(
        reverse("admin:tournaments_match_score_sheet", args=[match.pk]), data)
    html = response.content.decode()
    assert "Enter the scores of all 5 hands (R2.4)." in html
    assert "Please submit" not in html


def test_a_seat_with_neither_a_player_nor_a_bot_is_a_sentence() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    services.round_pair_next(tournament=tournament, user=organiser)
    match = Match.objects.get()
    seats = list(match.seats.order_by("position"))
    data = {"seats-TOTAL_FORMS": "4", "seats-INITIAL_FORMS": "4"}
    for index, seat in enumerate(seats):
        data.update({f"seats-{index}-id": seat.pk, f"seats-{index}-match": match.pk,
                     f"seats-{index}-player": seat.player_id or "",
                     f"seats-{index}-bot_level": seat.bot_level})
    data["seats-0-player"] = ""  # nobody, and no bot level either

    response = logged_in(organiser).post(
        reverse("admin:tournaments_match_change", args=[match.pk]), data)

    html = response.content.decode()
    assert "A seat needs a player, or a bot level for a bot." in html
    assert "seat_is_a_player_or_a_bot" not in html
    assert Match.objects.get().seats.get(position=0).player_id == seats[0].player_id


def test_the_tie_break_menus_speak_finnish_in_a_finnish_admin() -> None:
    client = logged_in(UserFactory())
    page = client.get(reverse("admin:tournaments_tournament_add"),
                      headers={"accept-language": "fi"}).content.decode()
    assert 'aria-label="tasapelin ratkaisija 1"' in page
    assert "(buchholz)" in page and "Buchholz (opponents" not in page


def test_settings_the_format_does_not_read_are_ignored_whatever_is_posted() -> None:
    """A post without the form's script (which hides them) stores the same tournament: a
    round robin keeps no third place match, tie rule or rounds of its own choosing, and a
    knockout's points and tie-breaks are neither stored nor checked."""
    client = logged_in(UserFactory())
    new_tournament(client, ["buchholz"], name="Robin", format="round_robin",
                   third_place_match="on", knockout_tie_rule="most_hands_won",
                   rounds_planned=9, points_win=3)
    robin = Tournament.objects.get(name="Robin")
    assert (robin.third_place_match, robin.knockout_tie_rule, robin.rounds_planned) == (
        False, "most_hands_won_by_going_out", 5)  # the model's defaults
    assert robin.points_win == 3 and robin.tiebreaks == ["buchholz"]  # it reads these

    response = new_tournament(client, ["buchholz"], name="Bracket", format="knockout",
                              points_win="lots", third_place_match="on",
                              knockout_tie_rule="most_hands_won")
    assert "Enter a number" not in response.content.decode()
    bracket = Tournament.objects.get(name="Bracket")
    assert bracket.points_win == 2 and bracket.tiebreaks == []
    assert bracket.third_place_match and bracket.knockout_tie_rule == "most_hands_won"


def test_the_add_form_says_which_settings_each_format_reads() -> None:
    page = logged_in(UserFactory()).get(reverse("admin:tournaments_tournament_add"))
    html = page.content.decode()
    assert 'id="format-settings"' in html and "tournaments/format_settings" in html
    settings = page.context["format_settings"]
    assert "third_place_match" in settings["formats"]["knockout"]
    assert "third_place_match" not in settings["formats"]["round_robin"]
    assert "rounds_planned" in settings["formats"]["swiss"]


def test_two_tournaments_may_not_share_a_name() -> None:
    """In any case of letters: the form says so on the name, and stores nothing."""
    client = logged_in(UserFactory())
    new_tournament(client, [], name="Spring Open")
    response = new_tournament(client, [], name="spring open")
    errors = response.context["adminform"].form.errors
    assert errors["name"] == ["There is already a tournament named “spring open”: give this "
                              "one another name (add the year or the place, say)."]
    assert Tournament.objects.filter(name__iexact="spring open").count() == 1


def test_the_database_refuses_a_second_tournament_of_a_name() -> None:
    Tournament.objects.create(name="Autumn Cup")
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(name="AUTUMN CUP")
    renamed = Tournament.objects.create(name="Autumn Cup 2")
    renamed.name = "Autumn cup"
    with pytest.raises(ValidationError, match="There is already a tournament named"):
        renamed.full_clean()


def _sheet(hands: list[tuple[Any, Any, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {"hand-TOTAL_FORMS": str(len(hands)), "hand-INITIAL_FORMS": "0",
                            "hand-MIN_NUM_FORMS": "5", "hand-MAX_NUM_FORMS": "5"}
    for number, (team_a, team_b, out) in enumerate(hands):
        data |= {f"hand-{number}-team_a": team_a, f"hand-{number}-team_b": team_b,
                 f"hand-{number}-out_seat": out}
    return data


def test_the_team_that_went_out_scores_0_without_typing_it() -> None:
    from tournaments.models import Result
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    match = Match.objects.get()
    url = reverse("admin:tournaments_match_score_sheet", args=[match.pk])
    client = logged_in(organiser)
    # a team that did not go out needs its points; nobody out: both teams do
    refused = client.post(url, _sheet([("", 40, 0), ("", 30, 1), ("", 50, 2), (25, "", 3),
                                       ("", "", "")])).content.decode()
    assert refused.count("Enter this team&#x27;s penalty points.") == 3
    assert not Result.objects.exists()
    client.post(url, _sheet([("", 40, 0), (30, "", 1), ("", 50, 2), (25, "", 3),
                             ("", 45, 0)]))
    result = Result.objects.get(match=match)
    assert result.hand_scores == [[0, 40], [30, 0], [0, 50], [25, 0], [0, 45]]
    assert result.out_seats == [0, 1, 2, 3, 0]
