"""The engine's score-sheet errors (games/engine/scoresheet.py, R9.1) reach a Finnish
organiser in Finnish: the engine gives templates, the platform translates them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games.engine import score_sheet_errors
from tests.pages import published_round
from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments.services import ResultRejected, match_submit_score_sheet

pytestmark = pytest.mark.django_db

HANDS = [(0, 55, 0), (40, 0, 1), (20, 120, 2), (35, 45, None), (90, 0, 3)]  # hand 3 is wrong
IN_FINNISH = "{team} pääsi ulos (paikka 2), joten sen pisteet ovat 0 eivätkä 20 (R9.1)"


def test_an_impossible_score_sheet_is_refused_in_finnish(client: Client,
                                                         finnish: None) -> None:
    organiser = UserFactory()
    match = published_round(tournament_with_teams(4, organisers=[organiser])).matches.filter(
        is_bye=False).first()
    sheet: dict[str, Any] = {"hand-TOTAL_FORMS": 5, "hand-INITIAL_FORMS": 0}
    for i, (a, b, out) in enumerate(HANDS):
        sheet |= {f"hand-{i}-team_a": a, f"hand-{i}-team_b": b,
                  f"hand-{i}-out_seat": "" if out is None else out}
    client.force_login(organiser)
    in_finnish = IN_FINNISH.format(team=match.team_a.name)

    response = client.post(reverse("admin:tournaments_match_score_sheet", args=[match.pk]),
                           sheet, HTTP_ACCEPT_LANGUAGE="fi")

    assert response.context["formset"].forms[2].non_field_errors() == [in_finnish]
    with translation.override("fi"), pytest.raises(ResultRejected) as rejected:
        match_submit_score_sheet(match=match, hand_scores=[[a, b] for a, b, _out in HANDS],
                                 out_seats=[out for _a, _b, out in HANDS], user=organiser)
    assert rejected.value.reason == f"jako 3: {in_finnish}"


def test_a_score_no_cards_make_names_the_team_in_finnish() -> None:
    """The team's name stands as the sentence's subject, so Finnish needs no case ending on
    it ("Blue Kings sai 37 pistettä", never "joukkueen Blue Kings's")."""
    (error,) = score_sheet_errors([[0, 37], [30, 0], [0, 50], [40, 0], [0, 25]],
                                  [0, 1, 2, 3, 0])
    with translation.override("fi"):
        said = error.located(gettext, ["Punaiset", "Blue Kings"])
    assert said == ("jako 1: Blue Kings sai 37 pistettä, mikä ei voi olla kahteen käteen "
                    "jääneiden korttien arvojen summa: sen on oltava luvun 5 monikerta ja "
                    "vähintään 10 (R2.4, R9.1)")
