"""A client address that is no IP address (``garbage``, ``unknown``, ``999.1.1.1``) never
answers a login 500: it counts as the peer's address, or, when that is none either, as
one shared stand-in, ``0.0.0.0`` (tournaments/api/logins.py, docs/operating/login-limits.md).

First in-process: ``client_address`` on generated text, and every login with such an
address. Then through the real path: uvicorn with ``--proxy-headers`` and production
settings, which puts the forwarded text itself in ``REMOTE_ADDR``; those tests need
PostgreSQL (its address column is what refused the text), skip elsewhere saying so and
fail in CI (PUSH_REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import ipaddress
import logging
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from axes.models import AccessAttempt
from django.db import connection, transaction
from django.test import Client, RequestFactory, override_settings
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.request import Request

from config.asgi_process import AsgiServer
from config.worker_process import database_url
from tests.production import HTTPS, collect_static, production_env, uvicorn, wait_for_record
from tests.services import require
from tournaments.api.logins import UNKNOWN_ADDRESS, AuthRateThrottle, client_address

ADMIN, SITE, API_SESSION, TOKEN = ("/admin/login/", "/accounts/login/", "/api/v1/auth/login/",
                                   "/api/v1/auth/token/")
LOGINS = [ADMIN, SITE, API_SESSION, TOKEN]
# what the brief's attacker sent, and kin: no address at all, or none as the last entry
BAD = ["garbage", "unknown", "999.1.1.1", "1.2.3.4, unknown", "01.2.3.4", "1.2.3",
       "fe80::1::2", "[::1", "192.0.2.1:port", " ", "x" * 500]
LOGGER = "tournaments.api.logins"
TIMEOUT = 30


def storable(address: str) -> bool:
    """A canonical IP address, as PostgreSQL's address column takes it (no scope)."""
    try:
        return str(ipaddress.ip_address(address)) == address and "%" not in address
    except ValueError:
        return False


def canonical(address: Any) -> str:
    """How an address is counted: an IPv4 address written as IPv6 is the IPv4 one."""
    mapped = getattr(address, "ipv4_mapped", None)
    return str(mapped or address)


def address_of(peer: str, forwarded: str | None = None, proxy: bool = True) -> str:
    meta = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    with override_settings(CLIENT_ADDRESS_FROM_PROXY=proxy):
        return client_address(RequestFactory().get("/", **meta))  # type: ignore[arg-type]


# no decimal digit and no colon: text that cannot be read as any IP address
garbage = st.one_of(st.sampled_from(BAD[:2] + ["", " ", "-", "a.b.c.d", "[]", "%"]),
                    st.text(max_size=100).filter(
                        lambda t: ":" not in t and not any(c.isdigit() for c in t)))
real = st.ip_addresses()
near = st.text(alphabet="0123456789abcdefABCDEF.:[]%, ", max_size=45)
anything = st.one_of(st.text(max_size=300), near, real.map(str), st.sampled_from(BAD))


@pytest.mark.django_db
@given(peer=anything, forwarded=st.one_of(st.none(), anything), proxy=st.booleans())
def test_the_address_is_always_one_the_database_can_store(
        peer: str, forwarded: str | None, proxy: bool) -> None:
    address = address_of(peer, forwarded, proxy)

    assert storable(address)
    with transaction.atomic():  # where django-axes keeps it: PostgreSQL's inet refuses text
        AccessAttempt.objects.create(username=uuid.uuid4().hex, ip_address=address,
                                     user_agent="", http_accept="", path_info="/",
                                     get_data="", post_data="", failures_since_start=1)


@given(peer=anything, client=real, port=st.one_of(st.none(), st.integers(0, 65535)),
       before=st.lists(anything.filter(lambda t: "," not in t), max_size=3))
def test_behind_the_proxy_its_entry_is_the_client_with_or_without_a_port(
        peer: str, client: Any, port: int | None, before: list[str]) -> None:
    entry = str(client) if port is None else (
        f"[{client}]:{port}" if client.version == 6 else f"{client}:{port}")
    assert address_of(peer, ", ".join([*before, entry])) == canonical(client)


@given(peer=real, forwarded=garbage, proxy=st.booleans())
def test_a_forwarded_entry_that_is_no_address_counts_as_the_peer(
        peer: Any, forwarded: str, proxy: bool) -> None:
    assert address_of(str(peer), forwarded, proxy) == canonical(peer)


@given(peer=garbage, forwarded=st.one_of(st.none(), garbage), proxy=st.booleans())
def test_with_no_address_anywhere_it_counts_as_the_one_stand_in(
        peer: str, forwarded: str | None, proxy: bool) -> None:
    assert address_of(peer, forwarded, proxy) == UNKNOWN_ADDRESS


def test_reached_directly_a_forwarded_header_is_never_read() -> None:
    assert address_of("198.51.100.7", "203.0.113.1", proxy=False) == "198.51.100.7"
    assert address_of("garbage", "203.0.113.1", proxy=False) == UNKNOWN_ADDRESS


@pytest.mark.parametrize(("peer", "forwarded", "counted"), [
    ("garbage", "garbage", UNKNOWN_ADDRESS),
    ("10.0.0.1", "1.2.3.4, unknown", "10.0.0.1"),
    ("fe80::1%eth0", None, "fe80::1"),
    ("::ffff:192.0.2.1", None, "192.0.2.1"),
    ("10.0.0.1", "192.0.2.5, [2001:db8::1]:8443", "2001:db8::1"),
])
def test_what_each_counts_as(peer: str, forwarded: str | None, counted: str) -> None:
    assert address_of(peer, forwarded) == counted


def test_the_warning_names_the_bad_values_shortened(caplog: pytest.LogCaptureFixture) -> None:
    long = "<script>" + "x" * 500
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert address_of(long, f"1.2.3.4, {long}") == UNKNOWN_ADDRESS
        assert address_of("10.0.0.1", "unknown") == "10.0.0.1"
        assert address_of("10.0.0.1", "192.0.2.1") == "192.0.2.1"  # a good one: nothing

    first, second = (record.getMessage() for record in caplog.records)
    shown = repr(long[:60]) + "..."
    assert first == (f"the last X-Forwarded-For entry {shown} and REMOTE_ADDR {shown} are "
                     "no IP address: the login limits count this request as from 0.0.0.0")
    assert second == ("the last X-Forwarded-For entry 'unknown' is no IP address: the login "
                      "limits count this request as from 10.0.0.1")
    assert all(record.levelno == logging.WARNING for record in caplog.records)


def test_the_token_endpoints_rate_limit_counts_the_same_stand_in() -> None:
    request = Request(RequestFactory().post(TOKEN, REMOTE_ADDR="unknown"))
    assert AuthRateThrottle().get_ident(request) == UNKNOWN_ADDRESS


# every login, in-process: the address as uvicorn's --proxy-headers leaves it


@pytest.fixture
def low_limits(settings: Any) -> Any:
    settings.AXES_FAILURE_LIMIT = settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    return settings


def fail_login(url: str, username: str, peer: str, forwarded: str | None = None) -> Any:
    extra = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    # the test client raises what a view raises: a 500 would fail here
    return Client(**extra).post(url, {"username": username, "password": "wrong"})


@pytest.mark.django_db
@pytest.mark.parametrize("url", LOGINS)
@pytest.mark.parametrize("bad", ["garbage", "999.1.1.1", "x" * 300])
def test_every_login_counts_a_failure_from_no_address_at_the_stand_in(
        low_limits: Any, url: str, bad: str) -> None:
    response = fail_login(url, "nobody", bad, forwarded=bad)

    assert response.status_code == (400 if url == TOKEN else 200)
    attempt = AccessAttempt.objects.get()
    assert (attempt.username, attempt.ip_address, attempt.failures_since_start) == (
        "nobody", UNKNOWN_ADDRESS, 1)


@pytest.mark.django_db
@pytest.mark.parametrize("url", LOGINS)
def test_each_request_logs_its_bad_address_once(
        low_limits: Any, url: str, caplog: pytest.LogCaptureFixture) -> None:
    # the token endpoint asks twice: its rate limit, then django-axes
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        fail_login(url, "nobody", "garbage")
        fail_login(url, "nobody", "unknown")

    assert [r.getMessage().split(" is no")[0] for r in caplog.records if r.name == LOGGER] \
        == ["REMOTE_ADDR 'garbage'", "REMOTE_ADDR 'unknown'"]


@pytest.mark.django_db
def test_varying_the_garbage_starts_no_fresh_count_and_locks_out_no_real_address(
        low_limits: Any) -> None:
    answers = [fail_login(url, f"guess-{n}", bad, bad).status_code
               for n, (url, bad) in enumerate([(ADMIN, "garbage"), (TOKEN, "unknown"),
                                               (SITE, "999.1.1.1")])]
    assert answers == [200, 400, 429]  # three tries, three usernames: one count
    assert fail_login(API_SESSION, "guess-3", "nothing").status_code == 429
    # a client with an address has its own count
    assert fail_login(ADMIN, "guess-4", "198.51.100.9").status_code == 200


# the real path: uvicorn --proxy-headers, production settings, PostgreSQL


@pytest.fixture(scope="module")
def production_server(django_db_setup: None, django_db_blocker: Any,
                      tmp_path_factory: pytest.TempPathFactory) -> Iterator[AsgiServer]:
    """uvicorn as docs/operating/production.md runs it, on this test run's database, with
    failed-login limits of 3 (per username and per address) and the token endpoint's
    rate limit out of the way."""
    if connection.vendor != "postgresql":
        require(f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)",
                "forwarded addresses through uvicorn")
    static = tmp_path_factory.mktemp("static")
    env = production_env(static, DATABASE_URL=database_url(connection.settings_dict),
                         LOGIN_FAILURE_LIMIT="3", LOGIN_ADDRESS_FAILURE_LIMIT="3",
                         API_AUTH_RATE="1000/min")
    collect_static(env)
    with uvicorn(env) as server:
        yield server


def through_proxy(server: AsgiServer, url: str, username: str, forwarded: str) -> Any:
    """A wrong password at ``url`` as the TLS proxy would pass it on: its page first, for
    the CSRF token (the cookie is secure, so it is sent by hand), then the form."""
    base = f"https://127.0.0.1:{server.port}"
    plain = f"http://127.0.0.1:{server.port}{url}"
    headers = {**HTTPS, "X-Forwarded-For": forwarded}
    form = {"username": username, "password": "wrong"}
    if url != TOKEN:
        page = requests.get(plain, headers=headers, timeout=TIMEOUT, allow_redirects=False)
        assert page.status_code == 200, page.text[:500]
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert found, page.text[:500]
        form["csrfmiddlewaretoken"] = found.group(1)
        headers |= {"Cookie": f"csrftoken={page.cookies['csrftoken']}", "Origin": base,
                    "Referer": base + url}
    return requests.post(plain, data=form, headers=headers, timeout=TIMEOUT,
                         allow_redirects=False)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("url", LOGINS)
@pytest.mark.parametrize("bad", ["garbage", "unknown", "999.1.1.1", "1.2.3.4, unknown"])
def test_through_uvicorn_a_bad_forwarded_address_is_a_counted_failure_not_a_500(
        production_server: AsgiServer, url: str, bad: str) -> None:
    username = f"nobody-{uuid.uuid4().hex[:8]}"

    response = through_proxy(production_server, url, username, bad)

    assert response.status_code == (400 if url == TOKEN else 200), response.text[:500]
    if url == TOKEN:
        assert "Unable to log in" in response.json()["non_field_errors"][0]
    else:
        assert "correct username and password" in response.text
    attempt = AccessAttempt.objects.get(username=username)
    assert (attempt.ip_address, attempt.failures_since_start) == (UNKNOWN_ADDRESS, 1)
    # uvicorn put the text in REMOTE_ADDR: both were bad, and the warning says so
    shown = repr(bad.rsplit(",", 1)[-1].strip())
    warning = wait_for_record(production_server, lambda r: r["logger"] == LOGGER
                              and r["request_id"] == response.headers["X-Request-ID"])
    assert warning["level"] == "WARNING"
    assert f"X-Forwarded-For entry {shown} and REMOTE_ADDR {shown} are no IP" in \
        warning["message"]


@pytest.mark.django_db(transaction=True)
def test_through_uvicorn_varying_the_garbage_still_locks_it_out(
        production_server: AsgiServer) -> None:
    answers = [through_proxy(production_server, url, f"guess-{n}", bad).status_code
               for n, (url, bad) in enumerate([(TOKEN, "garbage"), (ADMIN, "unknown"),
                                               (TOKEN, "999.1.1.1"), (SITE, "nothing")])]

    assert answers == [400, 200, 429, 429]
    assert AccessAttempt.objects.get(username="guess-3").ip_address == UNKNOWN_ADDRESS
    # the proxy's own entry, a real address: a count of its own
    assert through_proxy(production_server, TOKEN, "guess-4",
                         "garbage, 198.51.100.9").status_code == 400

