"""Failed logins lock a username, and at a higher count a client address, at every login.

The admin's login, the API's session login and its token endpoint share one count per
username and one per address, kept in the database (so every web process sees it). The
address's limit is the higher: a whole room may share one address.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.test import Client

from tests.tournaments.factories import UserFactory

pytestmark = pytest.mark.django_db
ADMIN = "/admin/login/"
LIMIT = 3
ADDRESS_LIMIT = 7
PASSWORD = "right-pass-77"
# the failure that reaches the limit is itself answered with the lock
FAILING = [200] * (LIMIT - 1) + [429]
ADDRESS_FAILING = [200] * (ADDRESS_LIMIT - 1) + [429]


@pytest.fixture(autouse=True)
def limits(settings: Any) -> Any:
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = ADDRESS_LIMIT
    return settings


def staff(username: str) -> Any:
    user = UserFactory(username=username, is_staff=True)
    user.set_password(PASSWORD)
    user.save()
    return user


def admin_login(username: str, password: str, address: str = "198.51.100.1",
                forwarded: str | None = None, url: str = ADMIN) -> Any:
    extra = {"REMOTE_ADDR": address}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return Client(**extra).post(url, {"username": username, "password": password,
                                      "next": "/admin/"})


def test_failures_for_one_username_lock_it_from_every_address() -> None:
    staff("organiser")
    assert [admin_login("organiser", "guess", f"198.51.100.{n + 1}").status_code
            for n in range(LIMIT)] == FAILING
    # the count is in the database, which every web process reads
    assert sum(AccessAttempt.objects.filter(username="organiser")
               .values_list("failures_since_start", flat=True)) == LIMIT

    locked = admin_login("organiser", PASSWORD, "203.0.113.50")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert int(locked["Retry-After"]) == 15 * 60
    assert "_auth_user_id" not in locked.client.session
    # another username from that address is not locked
    staff("other")
    assert admin_login("other", PASSWORD, "203.0.113.50").status_code == 302


def test_one_user_failing_on_a_shared_address_does_not_lock_out_the_others() -> None:
    staff("mistyper")
    staff("neighbour")
    venue = "198.51.100.7"
    assert [admin_login("mistyper", "guess", venue).status_code
            for _ in range(LIMIT)] == FAILING

    assert admin_login("mistyper", PASSWORD, venue).status_code == 429
    assert admin_login("neighbour", PASSWORD, venue).status_code == 302


def test_failures_from_one_address_lock_it_at_its_higher_limit() -> None:
    staff("organiser")
    venue = "198.51.100.7"
    # a different username each time: no username reaches its own limit
    assert [admin_login(f"guess-{n}", "guess", venue).status_code
            for n in range(ADDRESS_LIMIT)] == ADDRESS_FAILING

    assert admin_login("organiser", PASSWORD, venue).status_code == 429
    assert admin_login("organiser", PASSWORD, "198.51.100.8").status_code == 302


def test_below_its_limit_an_address_lets_its_users_in() -> None:
    staff("organiser")
    venue = "198.51.100.7"
    assert [admin_login(f"guess-{n}", "guess", venue).status_code
            for n in range(ADDRESS_LIMIT - 1)] == [200] * (ADDRESS_LIMIT - 1)

    assert admin_login("organiser", PASSWORD, venue).status_code == 302


def test_a_forged_x_forwarded_for_does_not_start_a_fresh_count() -> None:
    staff("organiser")
    assert [admin_login(f"guess-{n}", "guess", "198.51.100.7",
                        forwarded=f"10.0.0.{n}").status_code
            for n in range(ADDRESS_LIMIT)] == ADDRESS_FAILING
    assert admin_login("organiser", PASSWORD, "198.51.100.7",
                       forwarded="10.9.9.9").status_code == 429


def test_behind_the_proxy_the_address_it_appends_is_the_client(limits: Any) -> None:
    limits.CLIENT_ADDRESS_FROM_PROXY = True
    staff("organiser")
    proxy = "10.0.0.1"
    # what the client wrote comes first; the proxy appends the address it was reached from
    assert [admin_login(f"guess-{n}", "guess", proxy,
                        forwarded=f"192.0.2.{n}, 198.51.100.7").status_code
            for n in range(ADDRESS_LIMIT)] == ADDRESS_FAILING
    assert admin_login("organiser", PASSWORD, proxy,
                       forwarded="192.0.2.99, 198.51.100.7").status_code == 429
    assert admin_login("organiser", PASSWORD, proxy,
                       forwarded="198.51.100.7, 198.51.100.8").status_code == 302


def test_the_lock_lifts_after_the_cool_off(limits: Any) -> None:
    staff("organiser")
    assert [admin_login("organiser", "guess").status_code for _ in range(LIMIT)] == FAILING
    assert admin_login("organiser", PASSWORD).status_code == 429
    # a cool-off shorter than the time since those failures: they no longer count
    limits.AXES_COOLOFF_TIME = timedelta(microseconds=1)
    assert admin_login("organiser", PASSWORD).status_code == 302


def test_the_api_session_login_is_locked_too() -> None:
    staff("organiser")
    assert [admin_login("organiser", "guess", url="/api/v1/auth/login/").status_code
            for _ in range(LIMIT)] == FAILING
    locked = admin_login("organiser", PASSWORD, url="/api/v1/auth/login/")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.json()["detail"]


def test_the_token_endpoint_counts_towards_the_same_lock() -> None:
    staff("organiser")
    assert [Client().post("/api/v1/auth/token/", {"username": "organiser",
                                                  "password": "guess"}).status_code
            for _ in range(LIMIT)] == [400] * (LIMIT - 1) + [429]
    locked = admin_login("organiser", PASSWORD)
    assert locked.status_code == 429
    token = Client().post("/api/v1/auth/token/", {"username": "organiser",
                                                  "password": PASSWORD})
    assert token.status_code == 429
    assert "Too many failed logins" in token.json()["detail"]
    assert int(token["Retry-After"]) > 0
