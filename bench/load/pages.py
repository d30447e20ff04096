"""The pages a locust user asks during a round, by name: what the people and their
followers open while the round's tables play. Plain data, so that the locustfile and its
test read the same list without importing locust (which patches the standard library)."""

from __future__ import annotations

# name: (the route's name, its arguments: "tournament" and "round" are the round's)
PAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    # the round's page, and its fragment that the page's script asks for every 5 s with
    # the ETag it has (tournaments/static/tournaments/live.js)
    "round page": ("tournaments:round_detail", ("tournament", "round")),
    "round live": ("tournaments:round_live", ("tournament", "round")),
    "standings": ("tournaments:standings", ("tournament",)),
    "tables list": ("live:tables", ()),
    "API standings": ("tournament-standings", ("tournament",)),
}
# how often each is asked, relative to the others: the live fragment most (every open
# round page polls it), the pages people open by hand less
WEIGHTS = {"round page": 2, "round live": 10, "standings": 3, "tables list": 2,
           "API standings": 1}

# the environment bench.load.run gives locust: the servers' base URLs (comma-separated) and
# each page's path
HOSTS = "PUSH_LOAD_HOSTS"


def path_variable(name: str) -> str:
    """The variable holding the path of the page ``name``."""
    return "PUSH_LOAD_PATH_" + name.upper().replace(" ", "_")

# the line the locustfile prints as its users start (locust has imported everything and
# begins to spawn them): bench.load.run waits for it before the play's clock starts
READY = "locust: the users start"
