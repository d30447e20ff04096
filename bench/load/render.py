"""What each page of ``bench_pages`` costs to answer, drawn in this process: the CPU time
and the bytes of a request, the mean of ``repeat``, through Django's test client (every
middleware, no network), for the round :func:`bench.load.round.round_in_play` makes. The
round's live fragment is asked twice: as a new poll, and with the ETag it answered (a
follower whose fragment has not changed)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.test import Client

from bench.load.run import paths


@dataclass(frozen=True)
class PageCost:
    name: str
    status: int
    cpu_ms: float
    size: int

    def line(self) -> str:
        return (f"page {self.name}: {self.cpu_ms:.1f} ms CPU a request, "
                f"{self.size / 1000:.1f} KB (status {self.status})")


def page_costs(tournament: int, round: int, repeat: int) -> list[PageCost]:
    """Each page of the round ``round`` of ``tournament`` (``paths``), then the fragment
    unchanged."""
    client = Client()
    costs = [_cost(client, name, path, repeat) for name, path in paths(tournament, round).items()]
    live = paths(tournament, round)["round live"]
    etag = client.get(live, secure=True)["ETag"]
    costs.append(_cost(client, "round live, unchanged", live, repeat,
                       headers={"If-None-Match": etag}))
    return costs


def _cost(client: Client, name: str, path: str, repeat: int,
          headers: dict[str, str] | None = None) -> PageCost:
    client.get(path, secure=True, headers=headers)  # the first fills the caches a process keeps
    began = time.process_time()
    for _ in range(repeat):
        response = client.get(path, secure=True, headers=headers)
    cpu = (time.process_time() - began) / repeat
    return PageCost(name, response.status_code, cpu * 1000, len(response.content))
