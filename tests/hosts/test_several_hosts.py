"""A round of live tables across hosts: network namespaces on this machine, each process
reaching the others only by address (``bench.hosts``), and web1 killed mid-round.

Marked ``hosts``: ``make test`` leaves it out (it takes minutes and root), ``make hosts``
runs it, and CI runs that after the suite. It needs root, iproute2, HAProxy, redis-server
and PostgreSQL's server binaries: elsewhere it skips saying which is missing, and in CI
(PUSH_REQUIRE_SERVICES=1) it fails. Every wait is bounded; whatever it made is removed,
also when it fails.
"""

from __future__ import annotations

import os

import pytest

from bench import hosts, netns
from tests.services import require

pytestmark = pytest.mark.hosts

TABLES = 64
# seconds: the people give up after this, so a stuck round fails rather than hangs
TIMEOUT = 420


def test_it_plays_a_round_to_the_end_across_hosts_through_a_web_host_killed() -> None:
    require(hosts.missing(), "a round across hosts")
    said: list[str] = []
    with hosts.stack(said.append) as running:
        outcome = hosts.play(running, tables=TABLES, faults=["kill-web"], first=10, gap=0,
                             cut_seconds=0, timeout=TIMEOUT, seed=7, say=said.append)
    report = "\n".join(said + outcome.lines())
    print(report)  # the figures, in the log of `make hosts` (pytest -s) and of CI
    figures = outcome.figures
    assert figures["finished"] == TABLES, report
    assert (figures["lost"], figures["doubled"], figures["unknown"]) == (0, 0, 0), report
    assert (figures["told_wrong"], figures["gaps"]) == (0, 0), report
    # web1's people were cut off and came back through the load balancer to web2
    assert [fault.kind for fault in outcome.faults] == ["kill-web"], report
    assert figures["reconnects"] >= TABLES * 4 // 2 - 4, report
    assert outcome.sound, report
    # nothing of it is left: its namespaces are named after this process
    assert not [name for name in netns.namespaces()
                if name.startswith(f"{netns.PREFIX}{os.getpid()}-")]
