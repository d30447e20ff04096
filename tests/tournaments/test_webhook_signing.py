"""The pure part of webhooks: the retry schedule (hypothesis over every attempt count and
moment) and the signature a receiver checks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.webhook_signing import (
    FIRST_RETRY,
    LONGEST_RETRY,
    RETRY_FOR,
    next_attempt,
    retry_delay,
    signature,
)

START = datetime(2026, 1, 1, tzinfo=UTC)


@given(st.integers(min_value=1, max_value=10_000))
def test_each_wait_doubles_up_to_the_cap(attempts: int) -> None:
    wait = retry_delay(attempts)
    assert FIRST_RETRY <= wait <= LONGEST_RETRY
    assert retry_delay(attempts + 1) in (min(2 * wait, LONGEST_RETRY), LONGEST_RETRY)


def test_no_attempt_count_below_one() -> None:
    with pytest.raises(ValueError, match="attempts must be 1 or more"):
        retry_delay(0)


@given(st.integers(min_value=1, max_value=100),
       st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=2)))
def test_no_retry_is_planned_past_a_day(attempts: int, since: timedelta) -> None:
    planned = next_attempt(START, attempts, START + since)
    if planned is None:
        assert START + since + retry_delay(attempts) > START + RETRY_FOR
    else:
        assert START + since < planned <= START + RETRY_FOR


def test_the_signature_is_of_the_timestamp_and_the_body() -> None:
    # what a receiver computes with hmac and hashlib, as the manual shows it
    import hashlib
    import hmac
    expected = hmac.new(b"secret", b"1700000000.{}", hashlib.sha256).hexdigest()
    assert signature("secret", 1700000000, b"{}") == f"v1={expected}"
    assert signature("secret", 1700000001, b"{}") != f"v1={expected}"
