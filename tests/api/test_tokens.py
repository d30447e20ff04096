"""POST /api/v1/auth/token/: credentials for a token, a few tries a minute per client."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.factories import UserFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/auth/token/"


@pytest.fixture
def user() -> Any:
    user = UserFactory()
    user.set_password("right-pass-77")
    user.save()
    return user


def test_wrong_credentials_say_so_and_make_no_token(user: Any) -> None:
    response = APIClient().post(URL, {"username": user.username, "password": "wrong"})
    assert response.status_code == 400
    assert "Unable to log in" in response.json()["non_field_errors"][0]
    assert not Token.objects.exists()


def test_the_eleventh_try_in_a_minute_is_refused_even_with_the_right_password(
        user: Any, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 100  # the failed-login limit apart (test_logins.py)
    client = APIClient(REMOTE_ADDR="203.0.113.9")
    for _ in range(10):
        assert client.post(URL, {"username": user.username, "password": "guess"}
                           ).status_code == 400
    response = client.post(URL, {"username": user.username, "password": "right-pass-77"})
    assert response.status_code == 429
    assert "throttled" in response.json()["detail"].lower()
    assert int(response["Retry-After"]) > 0
    assert not Token.objects.exists()
    # another client address still gets in
    other = APIClient(REMOTE_ADDR="203.0.113.10")
    response = other.post(URL, {"username": user.username, "password": "right-pass-77"})
    assert response.status_code == 200
    assert response.json()["token"] == Token.objects.get(user=user).key
