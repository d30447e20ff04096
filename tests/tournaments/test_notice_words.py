"""A notification's words: every kind's sentence, filled from its values, in English and in
Finnish; a missing value or an unknown kind never fails."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.models import Notification
from tournaments.notice_words import PROMINENT, notice_subject, notice_text

PARAMS = {"tournament": "Spring cup", "round": 3, "table": 7, "partner": "Aino",
          "team": "Aces", "division": 2, "season": "Season 4", "league": "North league"}

#: every kind (with the values that choose among its sentences), the words each must have
CASES = [
    ("partner_asks", {}, "Aino asks you to enter Spring cup with them.",
     "Aino pyytää sinua ilmoittautumaan kanssaan turnaukseen Spring cup."),
    ("entry", {"status": "accepted"}, "The entry of Aces to Spring cup is accepted.",
     "Joukkueen Aces ilmoittautuminen turnaukseen Spring cup on hyväksytty."),
    ("entry", {"status": "waiting"}, "The entry of Aces to Spring cup is on the waiting list.",
     "Joukkueen Aces ilmoittautuminen turnaukseen Spring cup on jonossa."),
    ("entry", {"status": "refused"}, "The entry of Aces to Spring cup was refused.",
     "Joukkueen Aces ilmoittautuminen turnaukseen Spring cup hylättiin."),
    ("entry", {"status": "declined", "partner_handle": "cai"},
     "cai declined to enter Spring cup with you.",
     "cai kieltäytyi ilmoittautumasta kanssasi turnaukseen Spring cup."),
    ("entry", {"status": "withdrawn"}, "Your partner withdrew your entry to Spring cup.",
     "Parisi perui ilmoittautumisenne turnaukseen Spring cup."),
    ("entry", {"status": "awaiting"}, "Your entry to Spring cup waits for the organisers' "
     "approval.", "Ilmoittautumisesi turnaukseen Spring cup odottaa järjestäjien hyväksyntää."),
    ("entry", {}, "The entry of Aces to Spring cup has changed.",
     "Joukkueen Aces ilmoittautuminen turnaukseen Spring cup on muuttunut."),
    ("check_in", {}, "Check-in for round 3 of Spring cup is open: check in to keep your seat.",
     "Turnauksen Spring cup kierroksen 3 ilmoittautuminen paikalle on auki: ilmoittaudu "
     "pitääksesi paikkasi."),
    ("table_ready", {}, "Your table is ready: table 7, round 3 of Spring cup.",
     "Pöytäsi on valmis: pöytä 7, turnauksen Spring cup kierros 3."),
    ("substituted", {}, "A bot took your seat at table 7 in round 3 of Spring cup.",
     "Botti otti paikkasi pöydässä 7 turnauksen Spring cup kierroksella 3."),
    ("confirm_result", {}, "Aces entered the result of your match in round 3 of Spring cup: "
     "confirm it, or dispute it.",
     "Aces kirjasi ottelunne tuloksen turnauksen Spring cup kierroksella 3: vahvista se tai "
     "kiistä se."),
    ("ended", {"what": "round"}, "Round 3 of Spring cup has ended.",
     "Turnauksen Spring cup kierros 3 on päättynyt."),
    ("ended", {"what": "tournament"}, "Spring cup has ended: see the final standings.",
     "Spring cup on päättynyt: katso lopputulokset."),
    ("division", {"direction": "up"}, "Aces goes up to division 2 in Season 4 of North league.",
     "Aces nousee divisioonaan 2: North league, Season 4."),
    ("division", {"direction": "down"},
     "Aces goes down to division 2 in Season 4 of North league.",
     "Aces putoaa divisioonaan 2: North league, Season 4."),
    ("webhook_disabled", {"url": "https://example.org/hook", "reason": "it failed"},
     "Your webhook to https://example.org/hook was disabled: it failed. Mend its receiver, "
     "then enable it again in the admin.",
     "Webhookisi osoitteeseen https://example.org/hook poistettiin käytöstä: it failed. "
     "Korjaa vastaanottaja ja ota webhook sitten uudelleen käyttöön hallinnassa."),
]


@pytest.mark.parametrize(("kind", "extra", "english", "finnish"), CASES)
def test_each_kind_is_worded_from_its_values_in_english_and_finnish(
        kind: str, extra: dict[str, str], english: str, finnish: str) -> None:
    params = {**PARAMS, **extra}
    with translation.override("en"):
        assert notice_text(kind, params) == english
    with translation.override("fi"):
        assert notice_text(kind, params) == finnish


def test_every_kind_has_its_own_sentence_and_subject() -> None:
    kinds = {kind for kind, *_rest in CASES}
    assert kinds == set(Notification.Kind.values)
    with translation.override("en"):
        generic = notice_text("no-such-kind", PARAMS)
        assert generic == "You have a new notification."
        assert all(notice_text(kind, PARAMS) != generic for kind in kinds)
        assert notice_subject("no-such-kind", {}) == "A notification from Push league"
        subjects = {notice_subject(kind, PARAMS) for kind in kinds}
        assert len(subjects) == len(kinds) and "Spring cup" in notice_subject("ended", PARAMS)
    with translation.override("fi"):
        assert notice_subject("table_ready", PARAMS) == "Pöytäsi on valmis: Spring cup, kierros 3"


def test_a_missing_value_reads_as_a_question_mark() -> None:
    with translation.override("en"):
        assert notice_text("table_ready", {"tournament": "Cup"}) == (
            "Your table is ready: table ?, round ? of Cup.")


def test_only_a_table_that_is_ready_is_prominent() -> None:
    assert frozenset({Notification.Kind.TABLE_READY}) == PROMINENT
