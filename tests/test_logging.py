"""Production logs: a server error is logged, traceback and request id, as one JSON line on
the server's stderr (config/logs.py, docs/operating/logs.md), so that the API's 500 answer ("the
error has been logged") is true.

The first tests start a real uvicorn with production settings and read its stderr; the
last start a real Celery worker (they need a Redis broker). The rest check the formatter,
filter and middleware in-process.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from hypothesis import given
from hypothesis import strategies as st

from config import logs
from config.asgi_process import AsgiServer
from config.worker_process import start_worker, wait_ready
from tests.production import (
    HTTPS,
    Record,
    collect_static,
    log_records,
    production_env,
    uvicorn,
    wait_for_record,
)
from tests.services import require

HEX_ID = re.compile(r"[0-9a-f]{32}")
TIMEOUT = 30


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AsgiServer]:
    folder = tmp_path_factory.mktemp("logging")
    (folder / "static").mkdir()
    env = production_env(folder / "static", DJANGO_SETTINGS_MODULE="tests.crash_settings",
                         DATABASE_URL=f"sqlite:///{folder / 'unused.sqlite3'}")
    collect_static(env)  # the site's 500 page has its stylesheet
    with uvicorn(env) as started:
        yield started


def get(server: AsgiServer, path: str, **headers: str) -> requests.Response:
    return requests.get(f"http://127.0.0.1:{server.port}{path}", headers={**HTTPS, **headers},
                        timeout=TIMEOUT, allow_redirects=False)


def errors_of(server: AsgiServer, request_id: str) -> list[Record]:
    return [record for record in log_records(server)
            if record.get("request_id") == request_id and record["level"] == "ERROR"]


def test_a_server_error_is_one_json_line_with_its_traceback_and_request_id(
        server: AsgiServer) -> None:
    request_id = f"proxy-{uuid.uuid4().hex[:12]}"

    response = get(server, "/api/v1/crash/", **{"X-Request-ID": request_id})

    assert response.status_code == 500
    assert response.json() == {"detail": "server error: the request was not completed, and "
                                          "the error has been logged"}
    assert response.headers["X-Request-ID"] == request_id
    record = wait_for_record(server, lambda r: r.get("request_id") == request_id)
    assert record["level"] == "ERROR"
    assert record["logger"] == "django.request"
    assert record["message"] == "Internal Server Error: /api/v1/crash/"
    assert record["exc_info"].startswith("Traceback (most recent call last):")
    assert 'tests/api/crash_urls.py", line' in record["exc_info"]
    assert record["exc_info"].endswith("RuntimeError: an unexpected failure")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", record["time"])
    assert errors_of(server, request_id) == [record]  # logged once, not once per handler


def test_without_a_request_id_the_server_makes_one_and_sends_it_back(
        server: AsgiServer) -> None:
    response = get(server, "/crash/")  # outside the API: the site's 500 page

    assert response.status_code == 500
    assert "Something went wrong on our side" in response.text
    assert 'class="site-header"' in response.text
    made = response.headers["X-Request-ID"]
    assert HEX_ID.fullmatch(made)
    record = wait_for_record(server, lambda r: r.get("request_id") == made)
    assert record["message"] == "Internal Server Error: /crash/"
    assert "RuntimeError: an unexpected failure" in record["exc_info"]


@pytest.mark.parametrize("unsafe", ["x" * 65, "two words", "id;drop", "ü-id", ""])
def test_an_unsafe_request_id_is_replaced(server: AsgiServer, unsafe: str) -> None:
    response = get(server, "/api/v1/crash/", **{"X-Request-ID": unsafe.encode().decode(
        "latin-1")})

    made = response.headers["X-Request-ID"]
    assert HEX_ID.fullmatch(made)
    assert wait_for_record(server, lambda r: r.get("request_id") == made)["level"] == "ERROR"
    assert not [r for r in log_records(server) if r.get("request_id") == unsafe]


def test_every_answer_carries_its_request_id_and_a_good_one_logs_nothing(
        server: AsgiServer) -> None:
    before = len(server.log)
    redirect = requests.get(f"http://127.0.0.1:{server.port}/rules/", timeout=TIMEOUT,
                            allow_redirects=False)  # plain HTTP: the HTTPS redirect
    missing = get(server, "/api/v1/no-such-thing/", **{"X-Request-ID": "abc.123"})

    assert redirect.status_code == 301 and HEX_ID.fullmatch(redirect.headers["X-Request-ID"])
    assert missing.status_code == 404 and missing.headers["X-Request-ID"] == "abc.123"
    # 404s and redirects are no errors: the log (at WARNING and up) says nothing of them
    get(server, "/api/v1/crash/", **{"X-Request-ID": "after-them"})
    wait_for_record(server, lambda r: r.get("request_id") == "after-them")
    assert [r.get("request_id") for r in log_records(server)[before:]] == ["after-them"]


def test_the_servers_own_lines_are_json_too(server: AsgiServer) -> None:
    # its start-up lines (AsgiServer found its port in one), each one record of one line
    records = log_records(server)
    assert any(r["logger"] == "uvicorn.error" and r["message"].startswith(
        "Uvicorn running on http://127.0.0.1:") for r in records)
    assert all(set(r) >= {"time", "level", "logger", "message"} for r in records)


# in-process: the formatter, the filter, the middleware


def format_record(message: str = "it failed", exc: BaseException | None = None) -> Record:
    """``message`` logged at ERROR through a handler like the production one's."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    handler.addFilter(logs.RequestIdFilter())
    log = logging.getLogger("tournaments.x")
    log.addHandler(handler)
    try:
        if exc is None:
            log.error(message)
        else:
            try:
                raise exc
            except BaseException:
                log.exception(message)
    finally:
        log.removeHandler(handler)
    text = stream.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n"), text
    record: Record = json.loads(text)
    return record


def test_the_formatter_writes_a_traceback_as_one_string_field() -> None:
    record = format_record(message="line one\nline two", exc=ValueError("bad\nvalue"))

    assert record["message"] == "line one\nline two"
    assert record["level"] == "ERROR" and record["logger"] == "tournaments.x"
    assert record["exc_info"].startswith("Traceback (most recent call last):")
    assert record["exc_info"].endswith("ValueError: bad\nvalue")
    assert "request_id" not in record  # logged outside a request


def test_the_filter_adds_the_request_id_of_the_request_being_handled() -> None:
    token = logs.request_id.set("req-42")
    try:
        assert format_record()["request_id"] == "req-42"
    finally:
        logs.request_id.reset(token)
    assert "request_id" not in format_record()


@given(st.text(max_size=80))
def test_a_request_id_from_the_request_is_kept_only_when_short_and_plain(given_id: str) -> None:
    request = RequestFactory().get("/", HTTP_X_REQUEST_ID=given_id)

    made = logs.id_for(request)

    plain = re.fullmatch(r"[A-Za-z0-9._:-]{1,64}", given_id) is not None
    assert made == given_id if plain else HEX_ID.fullmatch(made)


def view(request: HttpRequest) -> HttpResponse:
    return HttpResponse(logs.request_id.get() or "")


def test_the_middleware_sets_the_id_around_the_request_and_clears_it_after() -> None:
    middleware = logs.RequestIdMiddleware(view)

    response = middleware(RequestFactory().get("/", HTTP_X_REQUEST_ID="abc"))

    assert response["X-Request-ID"] == "abc" and response.content == b"abc"
    assert logs.request_id.get() is None


def test_the_middleware_works_in_an_async_stack_too() -> None:
    async def async_view(request: HttpRequest) -> HttpResponse:
        return view(request)

    middleware = logs.RequestIdMiddleware(async_view)
    response = asyncio.run(middleware(RequestFactory().get("/")))  # type: ignore[arg-type]

    assert HEX_ID.fullmatch(response["X-Request-ID"])
    assert response.content.decode() == response["X-Request-ID"]


def test_debug_keeps_djangos_readable_logging() -> None:
    # the tests' settings are debug ones, as `make run`'s: Django's default logging
    assert os.environ["DJANGO_DEBUG"] == "true"
    assert settings.LOGGING == {}
    # the request id is there all the same, first of all
    assert settings.MIDDLEWARE[0] == "config.logs.RequestIdMiddleware"


# a real Celery worker: its task failures are JSON lines in its log, and it still starts


@pytest.fixture
def broker() -> str:
    url = settings.CELERY_BROKER_URL
    if settings.CELERY_TASK_ALWAYS_EAGER or not url.startswith("redis"):
        require("no Celery broker (set CELERY_BROKER_URL=redis://...)", "the worker's logs")
    return url


def test_a_workers_task_failure_is_a_json_line_with_its_traceback(
        broker: str, tmp_path: Path) -> None:
    from config.celery import app

    queue = f"push-test-logs-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    worker = start_worker(queue=queue, database=f"sqlite:///{tmp_path / 'unused.sqlite3'}",
                          broker=broker, backend="", log=log,
                          env=production_env(tmp_path, DJANGO_ALLOWED_HOSTS="127.0.0.1"))
    try:
        wait_ready(log, worker)  # the "ready." line, now inside JSON
        app.send_task("tournaments.tasks.pair_next_round", args=["not-a-number"], queue=queue)
        failure = _wait_in(log, lambda r: r["level"] == "ERROR")
    finally:
        worker.terminate()
        worker.wait(timeout=60)
        import redis

        redis.Redis.from_url(broker).delete(queue)
    assert failure["logger"] == "celery.app.trace"
    assert failure["message"].startswith("Task tournaments.tasks.pair_next_round[")
    assert failure["exc_info"].startswith("Traceback (most recent call last):")
    assert "Field 'id' expected a number but got 'not-a-number'" in failure["exc_info"]
    assert all(json.loads(line) for line in log.read_text().splitlines())


def _wait_in(log: Path, matches: Any, seconds: float = 60) -> Record:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for line in log.read_text().splitlines():
            record: Record = json.loads(line)
            if matches(record):
                return record
        time.sleep(0.1)
    raise AssertionError(f"no such line in the worker's log:\n{log.read_text()[-3000:]}")

