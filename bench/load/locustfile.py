"""A follower of a round in play, for locust (``bench_pages``, which runs it
headless against the bench's own servers on 127.0.0.1; it reads where from the
environment): asks the pages of ``bench.load.pages`` at their weights, a second or two
apart, the round's live fragment with the ETag it was last given, as the page's script
does. Each user keeps to one of the servers, as a browser keeps its connection."""

from __future__ import annotations

import os
import random
from typing import Any

from locust import HttpUser, between, events, task

from bench.load.pages import HOSTS, READY, WEIGHTS, path_variable


def _say_ready(**_: Any) -> None:
    """As the users start: bench.load.run starts the play's clock on this line."""
    print(READY, flush=True)


# locust's events are not typed
events.test_start.add_listener(_say_ready)  # type: ignore[no-untyped-call]


class RoundFollower(HttpUser):
    wait_time = between(0.5, 2.5)
    host = "http://127.0.0.1"  # locust's --host; on_start takes one of the HOSTS

    def on_start(self) -> None:
        hosts = os.environ.get(HOSTS, "").split(",")
        self.client.base_url = random.choice(hosts) if hosts[0] else self.host
        # as a TLS proxy passes it on: production settings answer HTTPS only
        self.client.headers.update({"X-Forwarded-Proto": "https", "Accept-Language": "en"})
        self.etag = ""

    def _get(self, name: str) -> None:
        self.client.get(os.environ[path_variable(name)], name=name)

    @task(WEIGHTS["round page"])
    def round_page(self) -> None:
        self._get("round page")

    @task(WEIGHTS["round live"])
    def round_live(self) -> None:
        headers = {"If-None-Match": self.etag} if self.etag else {}
        with self.client.get(os.environ[path_variable("round live")], name="round live",
                             headers=headers, catch_response=True) as answer:
            if answer.status_code in (200, 304):
                self.etag = answer.headers.get("ETag", self.etag)
                answer.success()
            else:
                answer.failure(f"{answer.status_code}")

    @task(WEIGHTS["standings"])
    def standings(self) -> None:
        self._get("standings")

    @task(WEIGHTS["tables list"])
    def tables_list(self) -> None:
        self._get("tables list")

    @task(WEIGHTS["API standings"])
    def api_standings(self) -> None:
        self._get("API standings")

