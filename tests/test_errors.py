"""One error base (config.errors.PlatformError): every refusal the platform tells a person
about derives from it and carries a code, a message translated when read, and a status;
the API and the pages answer it in one place each, and a bug (anything else) stays a 500."""

from __future__ import annotations

import logging

import pytest
from django.test import Client
from django.utils import translation

from config.errors import PlatformError
from games.live.errors import TableError
from tournaments.admin.console import BadRequest
from tournaments.formats import PairingError
from tournaments.formats.draft import DraftError
from tournaments.params import ParameterError, positive_int
from tournaments.services import ResultExists, ResultRejected, TournamentUserError
from tournaments.views.tournaments import StandingsRequestError

REFUSALS = [PairingError, DraftError, TournamentUserError, ResultExists, ResultRejected,
            ParameterError, TableError, StandingsRequestError, BadRequest]


@pytest.mark.parametrize("error", REFUSALS, ids=lambda error: error.__name__)
def test_every_refusal_is_a_platform_error_and_none_is_a_value_error(error: type) -> None:
    # so no `except ValueError` can turn one into a bug's answer, or a bug into a refusal
    assert issubclass(error, PlatformError) and not issubclass(error, ValueError)


def test_the_message_template_is_translated_when_it_is_read() -> None:
    from django.utils.translation import gettext_lazy

    error = PairingError(gettext_lazy("at least %(minimum)d teams are needed, got %(count)d"),
                         {"minimum": 2, "count": 1})
    assert error.message == "at least 2 teams are needed, got 1" == str(error)
    with translation.override("fi"):
        assert error.message != "at least 2 teams are needed, got 1"
        assert "2" in error.message and "1" in error.message
    assert error.as_dict() == {"detail": "at least 2 teams are needed, got 1",
                               "code": "pairing"}


def test_each_kind_says_its_own_code_and_status() -> None:
    assert (ResultExists("taken").code, ResultExists("taken").status) == ("conflict", 409)
    assert StandingsRequestError(404, "no table").status == 404
    rejected = ResultRejected("R5.1: not your turn", hand=2, action=7, verdict="illegal")
    assert rejected.as_dict() == {"detail": "hand 2, action 7: R5.1: not your turn",
                                  "code": "rejected", "reason": "R5.1: not your turn",
                                  "status": "illegal", "hand": 2, "action": 7}
    with pytest.raises(ParameterError) as caught:
        positive_int({"round": "x"}, "round")
    assert caught.value.as_dict() == {"round": [caught.value.message]}
    assert TableError("not your turn", "R5.1").as_dict()["rule"] == "R5.1"


@pytest.mark.urls("tests.error_urls")
def test_a_refusal_that_leaves_a_page_is_its_message_and_status_not_a_500() -> None:
    response = Client().get("/refuse/")
    assert response.status_code == 400
    assert "at least 2 teams are needed, got 1" in response.content.decode()
    finnish = Client(headers={"accept-language": "fi"}).get("/refuse/")
    assert finnish.status_code == 400
    assert "at least 2 teams are needed" not in finnish.content.decode()


@pytest.mark.urls("tests.error_urls")
def test_a_refusal_in_the_api_is_json_with_its_code() -> None:
    response = Client().get("/api/v1/refuse/")
    assert response.status_code == 400
    assert response.json() == {"detail": "at least 2 teams are needed, got 1",
                               "code": "pairing"}


@pytest.mark.urls("tests.error_urls")
@pytest.mark.parametrize("path", ["/bug/", "/api/v1/bug/"])
def test_a_value_error_is_a_bug_logged_as_a_500_and_never_a_polite_message(
        path: str, caplog: pytest.LogCaptureFixture) -> None:
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get(path)
    assert response.status_code == 500
    assert "a bug, not advice" not in response.content.decode()
    assert any(record.exc_info and record.exc_info[0] is ValueError
               for record in caplog.records)
